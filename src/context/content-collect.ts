// ctx.content: media blocks (image/audio bytes) for the calling model. They are prepended to content[] and never
// enter structuredContent, so the base64 travels once.

export interface ContentBlock {
  readonly type: string;
  readonly [key: string]: unknown;
}

export interface ContentCollect {
  (block: ContentBlock): void;
  image(data: string, mimeType: string): void;
  audio(data: string, mimeType: string): void;
}

const NO_BLOCKS: readonly ContentBlock[] = Object.freeze([]);

/**
 * One request's media blocks. The list is made on the first block (most calls add none), and the collector is a class
 * instance: an array or object literal made per request is an allocation site V8 may pretenure, which then keeps the
 * request's objects alive through minor GCs (see RequestLogger in src/logging/context-logger.ts).
 */
export class ContentCollector {
  #blocks: ContentBlock[] | undefined;
  readonly content: ContentCollect;

  constructor() {
    const push = (block: ContentBlock): void => {
      this.#blocks ??= [];
      this.#blocks.push(block);
    };
    push.image = (data: string, mimeType: string) => push({ type: 'image', data, mimeType });
    push.audio = (data: string, mimeType: string) => push({ type: 'audio', data, mimeType });
    this.content = push;
  }

  get blocks(): readonly ContentBlock[] {
    return this.#blocks ?? NO_BLOCKS;
  }
}
