// What the playground can run, from the page's data: each tool, resource, resource template and prompt (and any URI),
// keyed by the picker's option value, with the schema its form is generated from.
import { DATA, type PromptEntry, type ResourceEntry, type ToolEntry } from './page-data.js';
import type { JsonSchema } from './schema.js';
import { templateVariables } from './uri-template.js';

/** The "Any URI…" entry: read whatever URI is typed. */
interface AnyUri {
  readonly name: string;
  readonly description: string;
}

export type Target =
  | { readonly kind: 'tool'; readonly item: ToolEntry; readonly verb: string }
  | { readonly kind: 'resource' | 'template'; readonly item: ResourceEntry; readonly verb: string }
  | { readonly kind: 'uri'; readonly group: 'resource'; readonly item: AnyUri; readonly verb: string }
  | { readonly kind: 'prompt'; readonly item: PromptEntry; readonly verb: string };

export type TargetKind = Target['kind'];

export const targets = new Map<string, Target>();
for (const tool of DATA.tools) targets.set(`tool:${tool.name}`, { kind: 'tool', item: tool, verb: 'Call tool' });
DATA.resources.forEach((resource, index) => {
  const kind = resource.isTemplate ? 'template' : 'resource';
  targets.set(`${kind}:${index}`, { kind, item: resource, verb: 'Read resource' });
});
// Any URI the server may serve, listed or not (a template's expansion, a link from a result).
targets.set('uri:', {
  kind: 'uri',
  group: 'resource',
  item: { name: 'Any URI\u2026', description: 'Read a resource by its URI.' },
  verb: 'Read resource',
});
for (const prompt of DATA.prompts)
  targets.set(`prompt:${prompt.name}`, { kind: 'prompt', item: prompt, verb: 'Get prompt' });

/** What the form asks for: a tool's inputSchema, a template's variables, a prompt's (string) arguments. */
export function schemaOf(target: Target): JsonSchema {
  switch (target.kind) {
    case 'tool':
      return target.item.inputSchema;
    case 'resource':
      return { type: 'object', properties: {} };
    case 'uri':
      return {
        type: 'object',
        properties: { uri: { type: 'string', description: 'The resource URI' } },
        required: ['uri'],
      };
    case 'template': {
      const names = templateVariables(target.item.uri);
      return { type: 'object', properties: stringProperties(names, () => undefined), required: names };
    }
    case 'prompt': {
      const args = target.item.arguments;
      const names = args.map((arg) => arg.name);
      const described = (name: string) => args.find((arg) => arg.name === name)?.description;
      const required = args.filter((arg) => arg.required).map((arg) => arg.name);
      return { type: 'object', properties: stringProperties(names, described), required };
    }
  }
}

function stringProperties(
  names: readonly string[],
  description: (name: string) => string | undefined,
): Record<string, JsonSchema> {
  const properties: Record<string, JsonSchema> = {};
  for (const name of names) properties[name] = { type: 'string', description: description(name) };
  return properties;
}
