// Text that still names a disabled tool. @Disabled takes a tool out of tools/list, but nothing rewrites the rest of
// the server: a description, a field description, a recovery hint or the server instructions that name it point a
// client at a name it cannot call (add-tool.md § "Audit what still names the tool"). Prose may still explain a
// limitation on purpose, so each reference is a warning.
import type { ErrorContract } from '../../../decorators/types.js';
import type { CompiledPrompt, CompiledResource } from '../compiled-resource.js';
import type { CompiledTool } from '../compiled-tool.js';
import type { JsonSchema } from '../schema/json-schema.js';
import { lintFinding } from './lint-rule.js';

export interface DisabledReferenceSubject {
  /** Every tool, disabled ones included. */
  readonly tools: readonly CompiledTool[];
  readonly resources: readonly CompiledResource[];
  readonly prompts: readonly CompiledPrompt[];
  readonly instructions: string | undefined;
}

/** One piece of text a client reads, and where it sits (`description`, `input field 'mode'`). */
type Text = readonly [where: string, text: string | undefined];

export function lintDisabledReferences(subject: DisabledReferenceSubject, warnings: string[]): void {
  const disabled = subject.tools.filter((tool) => tool.disabled);
  if (disabled.length === 0) return;
  const patterns = disabled.map((tool) => ({ tool, pattern: wholeName(tool.name) }));
  const audit = (owner: string, texts: readonly Text[]) => {
    for (const { tool, pattern } of patterns) {
      const places = [
        ...new Set(texts.filter(([, text]) => text !== undefined && pattern.test(text)).map(([where]) => where)),
      ];
      if (places.length === 0) continue;
      warnings.push(
        lintFinding(
          owner,
          `${joinPlaces(places)} name${places.length === 1 ? 's' : ''} ${tool.name}, which is ` +
            `disabled (${tool.disabled?.reason}), so a client following it reaches a tool it cannot call; reword ` +
            'the text, or name the tool only under the configuration that enables it.',
          'disabled-tool-reference',
        ),
      );
    }
  };

  for (const tool of subject.tools) {
    if (tool.disabled) continue;
    audit(`Tool ${tool.name} (${tool.toolClass.name})`, [
      ['its title', tool.definition.title],
      ['its description', tool.definition.description],
      ...schemaTexts(tool.definition.inputSchema as JsonSchema, 'input'),
      ...schemaTexts(tool.output?.declared, 'output'),
      ...contractTexts(tool.contract.entries),
    ]);
  }
  for (const resource of subject.resources) {
    const listing = resource.listing ?? resource.templateListing;
    audit(`Resource ${resource.name} (${resource.resourceClass.name})`, [
      ['its title', listing?.title],
      ['its description', listing?.description],
      ...contractTexts(resource.contract.entries),
    ]);
  }
  for (const prompt of subject.prompts) {
    audit(`Prompt ${prompt.name} (${prompt.promptClass.name})`, [
      ['its title', prompt.listing.title],
      ['its description', prompt.description],
      ...(prompt.listing.arguments ?? []).map((arg): Text => [`argument '${arg.name}'`, arg.description]),
      ...contractTexts(prompt.contract.entries),
    ]);
  }
  audit('createApp', [['instructions', subject.instructions]]);
}

/** The name as a whole snake_case word: legacy_search matches in "use legacy_search", not in legacy_search_v2. */
function wholeName(name: string): RegExp {
  return new RegExp(`(?<![A-Za-z0-9_])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9_])`);
}

/** Recovery hints reach the client with a failure; `when` is the author's note and never does. */
function contractTexts(entries: ErrorContract): Text[] {
  return entries.map((entry): Text => [`recovery for '${entry.reason}'`, entry.recovery]);
}

/** Every description in a JSON Schema, by field path. */
function schemaTexts(schema: JsonSchema | undefined, label: string, path = ''): Text[] {
  if (!schema || typeof schema !== 'object') return [];
  const texts: Text[] = [];
  if (typeof schema.description === 'string') {
    texts.push([path ? `${label} field '${path}'` : `the ${label} schema`, schema.description]);
  }
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  for (const [key, property] of Object.entries(properties)) {
    texts.push(...schemaTexts(property, label, path ? `${path}.${key}` : key));
  }
  if (schema.items && typeof schema.items === 'object') {
    texts.push(...schemaTexts(schema.items as JsonSchema, label, `${path}[]`));
  }
  for (const keyword of ['oneOf', 'anyOf', 'allOf'] as const) {
    for (const branch of (schema[keyword] ?? []) as JsonSchema[]) texts.push(...schemaTexts(branch, label, path));
  }
  return texts;
}

function joinPlaces(places: readonly string[]): string {
  return places.length === 1 ? String(places[0]) : `${places.slice(0, -1).join(', ')} and ${places.at(-1)}`;
}
