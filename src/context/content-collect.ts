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

export interface ContentCollector {
  readonly content: ContentCollect;
  readonly blocks: readonly ContentBlock[];
}

export function createContentCollector(): ContentCollector {
  const blocks: ContentBlock[] = [];
  const push = (block: ContentBlock) => {
    blocks.push(block);
  };
  const content = Object.assign(push, {
    image: (data: string, mimeType: string) => push({ type: 'image', data, mimeType }),
    audio: (data: string, mimeType: string) => push({ type: 'audio', data, mimeType }),
  });
  return { content, blocks };
}
