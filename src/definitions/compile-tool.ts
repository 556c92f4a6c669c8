// Turns a decorated tool class into a CompiledTool, collecting lint findings instead of throwing so one boot
// reports every problem at once.

import type { Tool as WireTool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { EnrichmentMetadata } from '../../decorators/enrichment.js';
import {
  DISABLED_METADATA,
  ENRICHMENT_METADATA,
  ERRORS_METADATA,
  INPUT_ALIAS_METADATA,
  readMetadata,
  TOOL_METADATA,
} from '../../decorators/metadata-keys.js';
import type { ToolMetadata } from '../../decorators/tool.js';
import type { Constructor, DisabledMetadata, ErrorContract } from '../../decorators/types.js';
import { compileContract } from '../context/error-contract.js';
import { compileConsent } from './compile-consent.js';
import { compileScopes } from './compile-scopes.js';
import type { CompiledTool } from './compiled-tool.js';
import { compileInput, type InputOptions } from './input/index.js';
import { advertisedInputSchema, type JsonSchema, toJsonSchema } from './json-schema.js';
import { widenOutputSchema } from './output-schema.js';
import { type LintFindings, lintTool } from './tool-lint.js';

export function readToolMetadata(toolClass: Constructor): ToolMetadata | undefined {
  return readMetadata<ToolMetadata>(TOOL_METADATA, toolClass);
}

export function compileTool(
  toolClass: Constructor,
  inputOptions: InputOptions,
  findings: LintFindings,
): CompiledTool | undefined {
  const metadata = readToolMetadata(toolClass);
  if (!metadata) {
    findings.errors.push(`${toolClass.name} is listed in a module's tools but has no @Tool() decorator.`);
    return undefined;
  }
  const contract = readMetadata<ErrorContract>(ERRORS_METADATA, toolClass) ?? [];
  const enrichment = readMetadata<EnrichmentMetadata>(ENRICHMENT_METADATA, toolClass);
  const aliases = readMetadata<Record<string, string>>(INPUT_ALIAS_METADATA, toolClass);
  const disabled = readMetadata<DisabledMetadata>(DISABLED_METADATA, toolClass);
  const { options } = metadata;
  const where = `Tool ${metadata.name} (${toolClass.name})`;

  let input: CompiledTool['input'];
  try {
    input = compileInput(options.input, { toolName: metadata.name, aliases, options: inputOptions });
  } catch (error) {
    findings.errors.push(`${where}: ${(error as Error).message}`);
    return undefined;
  }
  if (input.metaCarried.length > 0) {
    findings.warnings.push(
      `${where}: .describe()/.meta() on the input ${input.metaCarried.join(', ')} was declared before .strict(); ` +
        'Kiln carried it over, but declare .strict() first so the schema says what it advertises.',
    );
  }
  const inputJson = advertisedInputSchema(input.schema);

  const enrichmentShape = enrichment?.shape ?? {};
  const effectiveOutput = options.output
    ? z.object({ ...options.output.shape, ...enrichmentShape }).strict()
    : undefined;
  const outputJson = options.output ? toJsonSchema(options.output, 'output') : undefined;
  const enrichmentJson = enrichment ? toJsonSchema(z.object(enrichmentShape), 'output') : undefined;
  const advertisedOutputSchema = effectiveOutput
    ? widenOutputSchema(toJsonSchema(effectiveOutput, 'output'), contract)
    : undefined;

  lintTool(
    { className: toolClass.name, metadata, contract, enrichment, inputJson, outputJson, enrichmentJson },
    findings,
  );
  const consent = compileConsent(toolClass, where, findings);

  const definition = Object.freeze({
    name: metadata.name,
    ...(options.title ? { title: options.title } : {}),
    description: options.description,
    inputSchema: inputJson,
    ...(advertisedOutputSchema ? { outputSchema: advertisedOutputSchema } : {}),
    ...(options.annotations ? { annotations: options.annotations } : {}),
    ...(options.icons ? { icons: options.icons } : {}),
    ...(options._meta ? { _meta: options._meta } : {}),
  }) as WireTool;

  return {
    name: metadata.name,
    toolClass: toolClass as unknown as CompiledTool['toolClass'],
    definition,
    input,
    effectiveOutput,
    outputKeys: Object.keys(options.output?.shape ?? {}),
    enrichmentKeys: Object.keys(enrichmentShape),
    enrichmentTrailer: enrichment?.trailer ?? {},
    contract: compileContract(contract),
    advertisedOutputSchema: advertisedOutputSchema as JsonSchema | undefined,
    disabled,
    consent,
    scopes: compileScopes(toolClass, where, findings),
  };
}
