// One tool call, in the order add-tool.md fixes: prepare arguments (drop → alias → parse → repair) → Context and
// request container → consent gate (@RequiresConsent) → handler → strict parse of output ∪ enrichment → content[].
// A handler that asks for input (ctx.requestInput) ends its round with the input_required result instead.
import type { CallToolResult, InputRequiredResult } from '@modelcontextprotocol/server';
import { isAborted } from '../context/call-cancellation.js';
import type { ContextSeed } from '../context/create-context.js';
import { InputRequiredSignal } from '../context/request-input.js';
import { insufficientScope } from '../context/scope-check.js';
import { ORDINARY_CALL } from '../context/task-binding.js';
import type { CompiledTool } from '../definitions/compiled-tool.js';
import type { CompiledOutput } from '../definitions/schema/compile-output.js';
import { kilnError } from '../errors/factories.js';
import { isProtocolError } from '../errors/mcp-error.js';
import { KILN_REASONS } from '../errors/reasons.js';
import { chainOf, runChain } from './call-chain.js';
import { canonicalJson, markedHit } from './call-policy.js';
import { runBehindConsent } from './consent-gate.js';
import { classifyError } from './error-envelope.js';
import { reportFailure } from './handler-failure.js';
import { formatIssuePath, type InputRejection, prepareArguments } from './input/index.js';
import { sealedRound, unanswerableRound } from './input-round.js';
import type { OperationKind } from './operation-kind.js';
import { inRequestScope, type PipelineRuntime } from './scoped-handler.js';
import { errorResult, successResult } from './tool-result.js';
import { noteInputEvents } from './traced-input.js';

/** tools/call: find a tool by name, run one round; a direct call reports an unanswerable round as an error result. */
export const TOOL_OPERATION: OperationKind<CompiledTool, unknown, CallToolResult> = {
  method: 'tools/call',
  targetName: (tool) => tool.name,
  find: (runtime, name) => runtime.tools.get(name),
  unknown: (name) => kilnError('unknown_tool', `Unknown tool: ${name}.`),
  // A task tool called where no task can be made (a direct call, 2025): ctx.startTask() goes on inline.
  round: (runtime, tool, args, seed) =>
    runToolRound(
      runtime,
      tool,
      args,
      tool.task ? { ...seed, operation: tool.name, task: ORDINARY_CALL } : { ...seed, operation: tool.name },
    ),
  unanswerable: (round, tool, seed) =>
    errorResult(
      classifyError(unanswerableRound(round, tool.name), {
        requestId: seed.requestId,
        contract: tool.contract.entries,
        operation: tool.name,
      }).envelope,
    ),
  scopes: (tool) => tool.scopes,
  definition: (tool) => tool.toolClass,
  policyCall: (tool, args) => ({
    method: 'tools/call',
    name: tool.name,
    cacheKey: () => {
      const prepared = prepareArguments(tool.input, args);
      return prepared.ok ? canonicalJson(prepared.value) : undefined;
    },
    cacheable: (result) => result.isError !== true,
    fromCache: (result, _cache, _ttlMs, hit) => (hit ? markedHit(result) : result),
  }),
  refused: (requiredScopes, tool, seed) =>
    errorResult(
      classifyError(insufficientScope(requiredScopes, `Tool ${tool.name}`), {
        requestId: seed.requestId,
        contract: tool.contract.entries,
        operation: tool.name,
      }).envelope,
    ),
};

export interface ToolRoundOptions {
  /**
   * Asked when the handler throws something that is not a protocol error: true rethrows it instead of answering the
   * masked isError result. A task reports such a crash as `failed` with a JSON-RPC error, as the extension asks.
   */
  readonly rethrowUnexpected?: () => boolean;
}

/** One round of a tool call as a protocol server answers it: the result, or the input_required the handler asked for. */
export async function runToolRound(
  runtime: PipelineRuntime,
  tool: CompiledTool,
  rawArgs: unknown,
  seed: ContextSeed,
  options: ToolRoundOptions = {},
): Promise<CallToolResult | InputRequiredResult> {
  const prepared = prepareArguments(tool.input, rawArgs);
  if (!prepared.ok) return errorResult(invalidArguments(prepared, seed.requestId));
  const { events } = prepared;
  if (events.ignored.length + events.aliased.length + events.coerced.length > 0) {
    runtime.logger.debug({ requestId: seed.requestId, tool: tool.name, ...events }, 'Input edge rewrote arguments');
    if (runtime.telemetry) noteInputEvents(runtime.telemetry, tool.name, events);
  }
  try {
    return await inRequestScope(runtime, seed, tool.toolClass, tool.contract, async (handler, built, scope) => {
      const { context, enrichment, media } = built;
      const { consent } = tool;
      const input = prepared.value;
      const returned = await runChain(
        chainOf(runtime, tool.toolClass),
        () => handler.handle(input, context),
        () => ({
          resolve: scope.resolve,
          ctx: context,
          call: { kind: 'tool', name: tool.name, definition: tool.toolClass, input, scopes: tool.scopes },
          contract: tool.contract.entries,
          label: `Tool ${tool.name}`,
        }),
        consent
          ? (inner) => runBehindConsent(consent, { operation: tool.name, input, ctx: context, tool: handler }, inner)
          : undefined,
      );
      if (!tool.output) {
        return successResult(tool, {
          structured: undefined,
          domain: returned,
          media: media.blocks,
          enrichmentValues: enrichment.values,
          enrichmentKinds: enrichment.kinds,
          formatted: handler.format?.(returned),
        });
      }
      const structured = parseOutput(tool, tool.output, returned, enrichment.values);
      const domain = Object.fromEntries(Object.entries(structured).filter(([k]) => !tool.enrichmentKeys.includes(k)));
      return successResult(tool, {
        structured,
        domain,
        media: media.blocks,
        enrichmentValues: enrichment.values,
        enrichmentKinds: enrichment.kinds,
        formatted: handler.format?.(domain),
      });
    });
  } catch (error) {
    // Asking for input is not a failure: no log, no isError, and collected media and enrichment wait for the
    // round that completes.
    if (error instanceof InputRequiredSignal) return sealedRound(error.result, seed.sealRequestState);
    if (!isProtocolError(error) && options.rethrowUnexpected?.()) throw error;
    const { requestId } = seed;
    const { contract, name: operation } = tool;
    return errorResult(
      reportFailure(error, {
        requestId,
        contract: contract.entries,
        operation,
        label: `Tool ${operation}`,
        subject: { tool: operation },
        logger: runtime.logger,
        cancelled: isAborted(seed.signal),
      }),
    );
  }
}

/** A result that breaks the tool's own output contract is a server bug: thrown as a plain Error, so it is masked. */
function parseOutput(
  tool: CompiledTool,
  output: CompiledOutput,
  returned: unknown,
  enrichmentValues: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  if (typeof returned !== 'object' || returned === null || Array.isArray(returned)) {
    throw new Error(
      `Tool ${tool.name} returned ${Array.isArray(returned) ? 'an array' : typeof returned}, not its output object.`,
    );
  }
  const merged: Record<string, unknown> = { ...returned };
  for (const key of tool.enrichmentKeys) if (enrichmentValues[key] !== undefined) merged[key] = enrichmentValues[key];
  const checked = output.check(merged);
  if (!checked.ok)
    throw new Error(`Tool ${tool.name} returned output that breaks its output schema:\n${checked.problem}`);
  return checked.value;
}

function invalidArguments(rejection: InputRejection, requestId: string) {
  const hint = [
    ...rejection.notes,
    'Check the tool inputSchema in tools/list and call again with corrected arguments.',
  ];
  return {
    code: KILN_REASONS.invalid_arguments.code,
    message: rejection.message,
    data: {
      reason: 'invalid_arguments' as const,
      issues: rejection.issues.map((issue) => ({ path: formatIssuePath(issue.path), message: issue.message })),
      ...(rejection.input ? { input: rejection.input } : {}),
      recovery: { hint: hint.join(' ') },
      requestId,
    },
  };
}
