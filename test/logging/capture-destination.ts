// Test helper: a pino destination that keeps each written line, parsed, for assertions.
import type { DestinationStream } from 'pino';

export interface CapturedLines extends DestinationStream {
  readonly lines: Record<string, unknown>[];
  /** The raw JSON text of each line, for checks a parsed object hides (duplicate keys). */
  readonly texts: string[];
}

export function captureDestination(): CapturedLines {
  const lines: Record<string, unknown>[] = [];
  const texts: string[] = [];
  return {
    lines,
    texts,
    write(chunk: string) {
      for (const text of chunk.split('\n')) {
        if (text === '') continue;
        texts.push(text);
        lines.push(JSON.parse(text));
      }
    },
  };
}
