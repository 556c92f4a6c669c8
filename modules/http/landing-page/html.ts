// HTML text helpers for the landing page. Every string that reaches the page from a model passes through
// escapeHtml: tool descriptions and schema text are author-written and may contain markup.
const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char);
}

/** A fragment id safe in `id` and `href="#…"` for any tool, resource or prompt name. */
export function anchorId(kind: 'tool' | 'resource' | 'prompt', name: string): string {
  return `${kind}-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;
}

/** A value as a reader would type it: strings bare, everything else as JSON. */
export function displayValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Quotes a shell word only when it needs it, so the common `claude mcp add` line stays clean. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** `1.2.0` and `v1.2.0` both read `v1.2.0`. */
export function versionLabel(version: string): string {
  return /^v/i.test(version) ? version : `v${version}`;
}

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
