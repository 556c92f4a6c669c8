// Turns a decorated tool class into a CompiledTool, collecting lint findings instead of throwing so one boot
// reports every problem at once. Input and output are each zod or raw JSON Schema 2020-12, compiled here once.

import type { Tool as WireTool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { EnrichmentMetadata } from '../../decorators/enrichment.js';
import type { JsonInputSchema } from '../../decorators/json-schema.js';
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
import type { CompiledTaskSupport, CompiledTool } from './compiled-tool.js';
import { scanHeaderParams } from './header-params.js';
import { compileInput, compileJsonSchemaInput, type InputOptions } from './input/index.js';
import { lintFinding } from './lint/lint-rule.js';
import { type LintFindings, lintTool } from './lint/tool-lint.js';
import { type CompiledOutput, compileOutput } from './schema/compile-output.js';
import { toJsonSchema } from './schema/json-schema.js';
import { compileToolUi, toolUiMeta } from './ui/compile-tool-ui.js';

export function readToolMetadata(toolClass: Constructor): ToolMetadata | undefined {
  return readMetadata<ToolMetadata>(TOOL_METADATA, toolClass);
}

export function compileTool(
  toolClass: Constructor,
  inputOptions: InputOptions,
  findings: LintFindings,
  appDefaults: { readonly maxResultBytes?: number } = {},
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

  if ((options.input === undefined) === (options.inputSchema === undefined)) {
    findings.errors.push(
      `${where}: declare its arguments with exactly one of input (zod) and inputSchema (JSON Schema).`,
    );
    return undefined;
  }
  if (options.output !== undefined && options.outputSchema !== undefined) {
    findings.errors.push(
      `${where}: declare its output with at most one of output (zod) and outputSchema (JSON Schema).`,
    );
    return undefined;
  }
  const inputConfig = { toolName: metadata.name, aliases, options: inputOptions };
  let input: CompiledTool['input'];
  let output: CompiledOutput | undefined;
  try {
    if (options.input) {
      input = compileInput(options.input, inputConfig);
    } else {
      const compiled = compileJsonSchemaInput(options.inputSchema as JsonInputSchema, inputConfig);
      input = compiled.input;
      findings.warnings.push(...compiled.warnings.map((warning) => `${where}: ${warning}`));
    }
    const compiledOutput = compileOutput({
      output: options.output,
      outputSchema: options.outputSchema,
      enrichment: enrichment?.shape ?? {},
      contract,
    });
    output = compiledOutput.output;
    findings.warnings.push(...compiledOutput.warnings.map((warning) => `${where}: ${warning}`));
  } catch (error) {
    findings.errors.push(`${where}: ${(error as Error).message}`);
    return undefined;
  }
  if (input.metaCarried.length > 0) {
    findings.warnings.push(
      lintFinding(
        where,
        `.describe()/.meta() on the input ${input.metaCarried.join(', ')} was declared before .strict(); ` +
          'Kiln carried it over, but declare .strict() first so the schema says what it advertises.',
        'schema-root-meta-carried',
      ),
    );
  }
  const inputJson = input.advertised;
  const headers = scanHeaderParams(inputJson);
  findings.errors.push(...headers.problems.map((problem) => `${where}: ${problem}.`));

  const enrichmentShape = enrichment?.shape ?? {};
  const enrichmentJson = enrichment ? toJsonSchema(z.object(enrichmentShape), 'output') : undefined;
  const outputKeys = output?.keys ?? [];

  lintTool(
    {
      toolClass,
      metadata,
      contract,
      enrichment,
      inputJson,
      outputJson: output?.declared,
      outputKeys,
      enrichmentJson,
    },
    findings,
  );
  const consent = compileConsent(toolClass, where, findings);
  const ui = compileToolUi(options, where, findings);
  const meta = ui ? { ...options._meta, ...toolUiMeta(ui) } : options._meta;

  const definition = Object.freeze({
    name: metadata.name,
    ...(options.title ? { title: options.title } : {}),
    description: options.description,
    inputSchema: inputJson,
    ...(output ? { outputSchema: output.advertised } : {}),
    ...(options.annotations ? { annotations: options.annotations } : {}),
    ...(options.icons ? { icons: options.icons } : {}),
    ...(meta ? { _meta: meta } : {}),
  }) as WireTool;

  return {
    name: metadata.name,
    toolClass: toolClass as unknown as CompiledTool['toolClass'],
    definition,
    input,
    headerParams: headers.params,
    output,
    enrichmentKeys: Object.keys(enrichmentShape),
    enrichmentTrailer: enrichment?.trailer ?? {},
    contract: compileContract(contract),
    advertisedOutputSchema: output?.advertised,
    disabled,
    consent,
    scopes: compileScopes(toolClass, where, findings),
    ui,
    task: compileTaskSupport(options.task),
    idempotency: compileIdempotency(options, where, findings),
    maxResultBytes: checkResultLimit(options.maxResultBytes, where, findings) ?? appDefaults.maxResultBytes,
  };
}

export const MIN_RESULT_BYTES = 1024;
export const MAX_RESULT_BYTES = 64 * 1024 * 1024;

/** A maxResultBytes in range, or a boot problem naming `where`. */
export function checkResultLimit(value: number | undefined, where: string, findings: LintFindings): number | undefined {
  if (value === undefined) return undefined;
  if (Number.isInteger(value) && value >= MIN_RESULT_BYTES && value <= MAX_RESULT_BYTES) return value;
  findings.errors.push(
    `${where} declares maxResultBytes ${String(value)}: use an integer from ${MIN_RESULT_BYTES} to ${MAX_RESULT_BYTES}.`,
  );
  return undefined;
}

/** The default time a result is kept for retries with the same idempotency key. */
export const DEFAULT_IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const MAX_IDEMPOTENCY_TTL_MS = 30 * 24 * 60 * 60 * 1000;

function compileIdempotency(
  options: ToolMetadata['options'],
  where: string,
  findings: LintFindings,
): CompiledTool['idempotency'] {
  const { idempotent } = options;
  if (idempotent === undefined || idempotent === false) return undefined;
  if (options.task !== undefined) {
    findings.errors.push(
      `${where} declares both idempotent and task: a task is already the handle a client polls instead of calling ` +
        'again, so drop one of them.',
    );
    return undefined;
  }
  const ttlMs = idempotent === true ? DEFAULT_IDEMPOTENCY_TTL_MS : (idempotent.ttlMs ?? DEFAULT_IDEMPOTENCY_TTL_MS);
  if (!Number.isInteger(ttlMs) || ttlMs < 1000 || ttlMs > MAX_IDEMPOTENCY_TTL_MS) {
    findings.errors.push(
      `${where} declares idempotent.ttlMs ${String(ttlMs)}: use an integer from 1000 (1 s) to ${MAX_IDEMPOTENCY_TTL_MS} (30 days).`,
    );
    return undefined;
  }
  return Object.freeze({ ttlMs });
}

function compileTaskSupport(task: ToolMetadata['options']['task']): CompiledTaskSupport | undefined {
  if (task === undefined) return undefined;
  if (typeof task === 'string') return Object.freeze({ support: task, start: 'call' });
  return Object.freeze({ support: task.support, start: task.start ?? 'call' });
}
