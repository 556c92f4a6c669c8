// Idempotency keys for tools declared `idempotent`: a client that cannot tell whether a call took effect (a timeout,
// a lost connection, `storage_outcome_unknown`) calls again with the same `_meta["mcp-kiln/idempotency-key"]` and
// gets the first call's result instead of a second run. The first call claims the key in the tenant's storage
// (setIfAbsent: of concurrent calls exactly one runs), runs, and stores its result for the tool's ttlMs; a retry finds
// the result, or finds the claim and is told the first call has not recorded an outcome.
import type { CallToolResult, InputRequiredResult } from '@modelcontextprotocol/server';
import { isInputRequiredResult } from '@modelcontextprotocol/server';
import type { ContextSeed } from '../context/create-context.js';
import type { CompiledTool } from '../definitions/compiled-tool.js';
import { kilnError, storageError } from '../errors/factories.js';
import { McpError } from '../errors/mcp-error.js';
import { classifyError } from '../pipeline/error-envelope.js';
import type { OperationKind } from '../pipeline/operation-kind.js';
import type { PipelineRuntime } from '../pipeline/scoped-handler.js';
import { TOOL_OPERATION } from '../pipeline/tool-pipeline.js';
import { errorResult } from '../pipeline/tool-result.js';
import { nodeCrypto } from '../platform/lazy-builtins.js';
import { principalKeyOf } from './principal.js';

/** The `_meta` key a client puts its idempotency key under. */
export const IDEMPOTENCY_KEY_META = 'mcp-kiln/idempotency-key';
/** Set in the `_meta` of a result answered from an earlier call with the same key. */
export const IDEMPOTENT_REPLAY_META = 'mcp-kiln/idempotent-replay';

const MAX_KEY_LENGTH = 255;
const KEY_SHAPE = /^[\x21-\x7e]+$/;
const STORE_PREFIX = 'kiln/idempotency/';

type StoredCall =
  | { readonly v: 1; readonly status: 'running'; readonly startedAt: string }
  | { readonly v: 1; readonly status: 'done'; readonly finishedAt: string; readonly result: CallToolResult };

type ToolRound = () => Promise<CallToolResult | InputRequiredResult>;

/** tools/call of a tool declared `idempotent`: a call with a key runs once per key; one without runs as usual. */
export const IDEMPOTENT_TOOL_OPERATION: OperationKind<CompiledTool, unknown, CallToolResult> = {
  ...TOOL_OPERATION,
  round: (runtime, tool, args, seed) => {
    const key = idempotencyKeyOf(seed);
    if (key === undefined || !tool.idempotency) return TOOL_OPERATION.round(runtime, tool, args, seed);
    return runIdempotent(runtime, tool, tool.idempotency.ttlMs, key, { ...seed, operation: tool.name }, () =>
      TOOL_OPERATION.round(runtime, tool, args, seed),
    );
  },
};

/** The client's idempotency key of a call, checked; undefined when the call carries none. */
export function idempotencyKeyOf(seed: Pick<ContextSeed, 'traceCarrier'>): string | undefined {
  const key = seed.traceCarrier?.[IDEMPOTENCY_KEY_META];
  if (key === undefined) return undefined;
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH || !KEY_SHAPE.test(key)) {
    throw kilnError(
      'invalid_idempotency_key',
      `_meta["${IDEMPOTENCY_KEY_META}"] must be a string of 1 to ${MAX_KEY_LENGTH} visible ASCII characters.`,
    );
  }
  return key;
}

/** Runs `round` once per key: a retry with the key gets the stored result of the first call with it. */
export async function runIdempotent(
  runtime: PipelineRuntime,
  tool: CompiledTool,
  ttlMs: number,
  key: string,
  seed: ContextSeed,
  round: ToolRound,
): Promise<CallToolResult | InputRequiredResult> {
  const state = runtime.services.stateFor(seed.tenantId);
  const storeKey = `${STORE_PREFIX}${callDigest(tool.name, key, seed)}`;
  const ttl = ttlMs / 1000;
  const failed = (error: unknown) =>
    errorResult(
      classifyError(error, { requestId: seed.requestId, contract: tool.contract.entries, operation: tool.name })
        .envelope,
    );

  const running: StoredCall = { v: 1, status: 'running', startedAt: new Date().toISOString() };
  let claimed: boolean;
  try {
    claimed = await state.setIfAbsent(storeKey, running, { ttl });
  } catch (error) {
    return failed(claimFailed(error));
  }
  if (!claimed) {
    let earlier: StoredCall | null;
    try {
      earlier = await state.get<StoredCall>(storeKey);
    } catch (error) {
      return failed(error);
    }
    if (earlier?.status === 'done') return replayed(earlier.result);
    return failed(
      kilnError(
        'idempotency_key_in_use',
        earlier
          ? `A call of ${tool.name} with this idempotency key started at ${earlier.startedAt} and has recorded no ` +
              'outcome: it is still running, or it ended without one (it may have taken effect).'
          : `A call of ${tool.name} with this idempotency key is under way.`,
      ),
    );
  }

  const result = await round();
  if (isInputRequiredResult(result)) {
    // Asking for input is no outcome: the retry that carries the answers runs again under the same key.
    await state.delete(storeKey).catch((error: unknown) => forgetFailed(runtime, tool, error));
    return result;
  }
  const done: StoredCall = { v: 1, status: 'done', finishedAt: new Date().toISOString(), result };
  await state.set(storeKey, done, { ttl }).catch((error: unknown) => forgetFailed(runtime, tool, error));
  return result;
}

/** Tenant, caller, tool and key in one fixed-length state key: the client's key may hold any visible character. */
function callDigest(toolName: string, key: string, seed: ContextSeed): string {
  const caller = principalKeyOf({
    clientId: seed.auth?.clientId ?? '',
    subject: seed.auth?.subject ?? '',
    tenantId: seed.tenantId,
    auth: seed.auth,
  });
  return nodeCrypto()
    .createHash('sha256')
    .update(JSON.stringify([caller, toolName, key]))
    .digest('base64url');
}

/**
 * The handler has not run. A claim whose outcome is unknown may still land; it is left alone (removing it could
 * remove the claim of another call with the key), so a retry may be told the key is in use until its TTL.
 */
function claimFailed(error: unknown): unknown {
  if (!(error instanceof McpError)) return error;
  if (error.reason !== 'storage_outcome_unknown' && error.reason !== 'storage_unavailable') return error;
  return storageError(
    'The call did not run: the storage backend did not answer before it could start.',
    {
      reason: 'storage_unavailable',
      recovery: { hint: 'Call again in a few seconds with the same idempotency key: the tool has not run.' },
    },
    { cause: error },
  );
}

function forgetFailed(runtime: PipelineRuntime, tool: CompiledTool, error: unknown): void {
  runtime.logger.warning(
    { err: error, tool: tool.name },
    'Could not record the outcome of a call with an idempotency key; a retry with the key is told it has none',
  );
}

function replayed(result: CallToolResult): CallToolResult {
  return { ...result, _meta: { ...result._meta, [IDEMPOTENT_REPLAY_META]: true } };
}
