// The rules a `ctx.state` key (and a `list` prefix) must follow on every provider. Slashes are the namespace
// separator; the charset and the `..` ban keep keys portable to path- and URL-based backends.
import { validationError } from '../errors/factories.js';

export const STATE_KEY_PATTERN = /^[a-zA-Z0-9_.\-/]+$/;
export const STATE_KEY_MAX_LENGTH = 1024;

const ALLOWED = 'use only letters, digits, _ . - /';
const CHARACTER_NAMES: Record<string, string> = {
  ':': 'a colon',
  ' ': 'a space',
  '\\': 'a backslash',
  '*': 'an asterisk',
  '?': 'a question mark',
  '#': 'a hash sign',
  '%': 'a percent sign',
};

/** Keys in messages are quoted and cut short, so a hostile or huge key cannot flood a log line. */
export function quoteKey(text: string): string {
  const shown = text.length > 80 ? `${text.slice(0, 80)}…` : text;
  return JSON.stringify(shown);
}

function describeCharacter(char: string): string {
  const name = CHARACTER_NAMES[char];
  if (name) return name;
  const codePoint = char.codePointAt(0) ?? 0;
  const hex = codePoint.toString(16).toUpperCase().padStart(4, '0');
  return codePoint > 0x20 && codePoint < 0x7f ? `the character "${char}"` : `the character U+${hex}`;
}

function problemWith(text: string, allowEmpty: boolean): string | undefined {
  if (text.length === 0) return allowEmpty ? undefined : `a key must be 1-${STATE_KEY_MAX_LENGTH} characters long`;
  if (text.length > STATE_KEY_MAX_LENGTH) {
    return `${text.length} characters is over the ${STATE_KEY_MAX_LENGTH}-character limit`;
  }
  if (!STATE_KEY_PATTERN.test(text)) {
    const bad = [...text].find((char) => !STATE_KEY_PATTERN.test(char)) ?? '';
    return `${ALLOWED} (${describeCharacter(bad)} is not allowed)`;
  }
  if (text.includes('..')) return '".." is not allowed anywhere in a key';
  return undefined;
}

function assertRule(text: unknown, what: 'key' | 'list prefix', allowEmpty: boolean): asserts text is string {
  const reason = what === 'key' ? 'invalid_state_key' : 'invalid_state_prefix';
  if (typeof text !== 'string') {
    throw validationError(`Invalid state ${what}: expected a string, got ${text === null ? 'null' : typeof text}`, {
      reason,
    });
  }
  const problem = problemWith(text, allowEmpty);
  if (problem) throw validationError(`Invalid state ${what} ${quoteKey(text)}: ${problem}`, { reason });
}

/** Throws `McpError(ValidationError)` naming the key and the broken rule. */
export function assertStateKey(key: unknown): asserts key is string {
  assertRule(key, 'key', false);
}

/** The key rule for `list` prefixes, where the empty prefix (everything) is also allowed. */
export function assertStatePrefix(prefix: unknown): asserts prefix is string {
  assertRule(prefix, 'list prefix', true);
}
