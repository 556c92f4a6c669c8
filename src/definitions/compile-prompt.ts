// Decorated prompt classes → CompiledPrompt. Arguments are strings on the wire, so each must be a string schema.

import { ERRORS_METADATA, PROMPT_METADATA, readMetadata } from '../../decorators/metadata-keys.js';
import type { PromptMetadata } from '../../decorators/prompt.js';
import type { Constructor, ErrorContract } from '../../decorators/types.js';
import { compileContract } from '../context/error-contract.js';
import { compileScopes } from './compile-scopes.js';
import type { CompiledPrompt, PromptHandler } from './compiled-resource.js';
import type { LintFindings } from './lint/tool-lint.js';
import { type JsonSchema, toJsonSchema, undescribedFields } from './schema/json-schema.js';

export function compilePrompt(promptClass: Constructor, findings: LintFindings): CompiledPrompt | undefined {
  const metadata = readMetadata<PromptMetadata>(PROMPT_METADATA, promptClass);
  if (!metadata) {
    findings.errors.push(`${promptClass.name} is listed in a module's prompts but has no @Prompt() decorator.`);
    return undefined;
  }
  const { name, options } = metadata;
  const where = `Prompt ${name} (${promptClass.name})`;
  if (!options.description?.trim()) findings.errors.push(`${where}: description is empty.`);

  const json: JsonSchema = options.args ? toJsonSchema(options.args, 'input') : { properties: {} };
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  const undescribed = undescribedFields(json);
  if (undescribed.length) findings.errors.push(`${where}: arguments without .describe(): ${undescribed.join(', ')}.`);
  const notStrings = Object.entries(properties).filter(([, p]) => p.type !== 'string' && p.enum === undefined);
  if (notStrings.length) {
    findings.errors.push(
      `${where}: prompt arguments are strings on the wire; ${notStrings.map(([k]) => k).join(', ')} are not.`,
    );
  }

  return {
    name,
    promptClass: promptClass as unknown as CompiledPrompt['promptClass'],
    // Strict once at boot: a zod schema built per request would also lose the parser zod compiles per instance.
    args: options.args?.strict(),
    description: options.description,
    contract: compileContract(readMetadata<ErrorContract>(ERRORS_METADATA, promptClass)),
    listing: Object.freeze({
      name,
      ...(options.title ? { title: options.title } : {}),
      description: options.description,
      arguments: Object.entries(properties).map(([argName, property]) => ({
        name: argName,
        ...(typeof property.description === 'string' ? { description: property.description } : {}),
        required: required.has(argName),
      })),
    }),
    completes: typeof (promptClass.prototype as Partial<PromptHandler>).complete === 'function',
    scopes: compileScopes(promptClass, where, findings),
  };
}
