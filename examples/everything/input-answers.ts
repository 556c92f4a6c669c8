// Reading what a client answered to an embedded request, for fixtures that echo it back.
import type { InputResponseView } from 'mcp-kiln';

type SamplingResult = Extract<InputResponseView, { kind: 'sampling' }>['result'];

/** The text of a sampling result, whether its content is one block or several (a tool-enabled result). */
export function sampledText(result: SamplingResult): string {
  const blocks: readonly { type: string; text?: unknown }[] = Array.isArray(result.content)
    ? result.content
    : [result.content];
  return blocks
    .flatMap((block) => (block.type === 'text' && typeof block.text === 'string' ? [block.text] : []))
    .join('');
}
