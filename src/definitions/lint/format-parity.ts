// format() parity: content[] is the markdown twin of structuredContent, and clients read one or the other (Claude
// Code the structured side, Claude Desktop the text), so each output field must reach both. Boot renders a
// synthetic result (output-sample.ts) through the class's format() and looks for every planted value in the text.
// A heuristic (a field formatted beyond recognition reads as missing), so it warns rather than refuses boot.
import type { JsonSchema } from '../schema/json-schema.js';
import { sampleOutput } from './output-sample.js';

export type FormatParity =
  | { readonly kind: 'ok' }
  | { readonly kind: 'missing'; readonly fields: readonly string[] }
  | { readonly kind: 'threw'; readonly message: string };

type Format = (result: unknown) => unknown;

/** Checks a tool class's prototype format() against its declared output; `ok` when there is nothing to check. */
export function checkFormatParity(toolClass: { prototype: unknown }, declared: JsonSchema | undefined): FormatParity {
  const prototype = toolClass.prototype as { format?: unknown } | undefined;
  if (!declared || typeof prototype?.format !== 'function') return { kind: 'ok' };
  const { value, probes } = sampleOutput(declared);
  let rendered: unknown;
  try {
    // No instance exists at boot (its constructor needs the container); a format() is a function of its result.
    rendered = (prototype.format as Format).call(Object.create(prototype as object), value);
  } catch (error) {
    return { kind: 'threw', message: error instanceof Error ? error.message : String(error) };
  }
  if (rendered instanceof Promise) return { kind: 'ok' };
  const text = renderedText(rendered).toLowerCase();
  const fields = probes
    .filter((probe) => !probe.needles.some((needle) => text.includes(needle.toLowerCase())))
    .map((probe) => probe.path);
  return fields.length > 0 ? { kind: 'missing', fields: [...new Set(fields)] } : { kind: 'ok' };
}

function renderedText(rendered: unknown): string {
  if (typeof rendered === 'string') return rendered;
  if (!Array.isArray(rendered)) return '';
  return rendered
    .map((block: { type?: unknown; text?: unknown }) =>
      block?.type === 'text' && typeof block.text === 'string' ? block.text : '',
    )
    .join('\n');
}
