// What no answer may leak, whatever it was asked: a stack frame or an absolute path of the machine serving it.
// Checked on the serialized answer, so a leak in any field (content[], structuredContent, error.data) is caught.
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Patterns of a leaked stack or path: V8 frames, file URLs, the repo root and the usual absolute roots. */
const LEAKS: readonly RegExp[] = [
  /\n\s+at /,
  /\s{4}at /,
  /file:\/\//,
  /\/work\//,
  /\/home\//,
  /\/tmp\//,
  /node_modules/,
  /\bnode:internal\b/,
  new RegExp(REPO_ROOT.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
];

/** The first leak pattern found in `text`, or undefined. */
export function findLeak(text: string, sent = ''): RegExp | undefined {
  // A pattern the request itself carried may be echoed back (an invalid value quoted in an error message).
  return LEAKS.find((pattern) => pattern.test(text) && !pattern.test(sent));
}

export function expectNoLeak(answer: unknown, sent: unknown = ''): void {
  const text = typeof answer === 'string' ? answer : JSON.stringify(answer);
  const leak = findLeak(text, typeof sent === 'string' ? sent : (JSON.stringify(sent) ?? ''));
  expect(leak, `answer leaks ${leak}: ${text.slice(0, 2_000)}`).toBeUndefined();
}
