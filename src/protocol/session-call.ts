// A host's direct call inside a 2025 session (AppPort.runSessionCall), on HTTP or stdio: a tools/call, resources/read
// or prompts/get the host took as the session's protocol server would (sessionCallOf), run straight through the
// operation runner with the seed that server's handler would build (the session's client capabilities, its id, the
// caller), and answered with the response that server would send (the tool result projected for the 2025 wire, a
// handler's error mapped the same way).

import type {
  AuthInfo,
  CallToolResult,
  InputRequiredResult,
  JSONRPCErrorResponse,
  JSONRPCResultResponse,
  Server,
} from '@modelcontextprotocol/server';
import { isInputRequiredResult } from '@modelcontextprotocol/server';
import type { SignalSource } from '../context/call-cancellation.js';
import type { HttpRequestInfo } from '../context/http-request.js';
import type { LogLevel } from '../logging/index.js';
import { type CallMethod, type DirectCall, directCallOf, hostCallFacts, runCall } from './direct-call.js';
import { handshakeErrorResponse, handshakeResultResponse } from './handshake-wire.js';
import { isPlainObject } from './plain-object.js';
import type { ProtocolRuntime } from './protocol-runtime.js';
import { seedFromFacts } from './request-seed.js';
import { specParamsError } from './spec-params-server.js';

export interface SessionCall {
  readonly method: CallMethod;
  readonly id: string | number;
  /** The tool or prompt name, or the resource URI. */
  readonly key: string;
  readonly arguments?: Record<string, unknown>;
  /** The session's protocol server: the capabilities its client declared at initialize. */
  readonly server: Server;
  /** The HTTP session's id; absent on stdio, whose connection has none. */
  readonly sessionId: string | undefined;
  readonly authInfo: AuthInfo | undefined;
  /** The request's `_meta` (a W3C trace context may ride there); never a progress token. */
  readonly meta?: Readonly<Record<string, unknown>>;
  /** Aborted when the call is cancelled; a CallCancellation makes the signal only if something reads it. */
  readonly signal: SignalSource;
  /** Sends a log line related to this request, as the session's server would (its level filter applies). */
  readonly log: (level: LogLevel, payload: Record<string, unknown>) => Promise<void> | void;
  /** Ends the request's SSE stream while the handler goes on (ctx.closeStream); set only where it can be resumed. */
  readonly closeStream?: () => void;
  /** The HTTP facts of the request (ctx.http), read on first use; absent on stdio. */
  readonly http?: () => HttpRequestInfo | undefined;
}

/** The response the session's server would send, or an input_required round for the host to hand to that server. */
export type SessionAnswer =
  | { readonly response: JSONRPCResultResponse | JSONRPCErrorResponse; readonly inputRequired?: undefined }
  | { readonly inputRequired: InputRequiredResult; readonly response?: undefined };

/**
 * Runs the call and answers as the session's server would: its response, or the input_required round untouched (the
 * host hands such a request to the protocol server, whose 2025 shim fulfils it).
 */
export async function runSessionCall(runtime: ProtocolRuntime, call: SessionCall): Promise<SessionAnswer> {
  // Never rejects: whatever goes wrong becomes the error response the session's server would send.
  try {
    const seed = seedFromFacts(
      hostCallFacts(call, {
        sessionId: call.sessionId,
        envelopeCapabilities: noEnvelopeCapabilities,
        log: call.log,
        // The host sends a request carrying a progress token through the session's server, which streams progress.
        progress: undefined,
        closeStream: call.closeStream,
      }),
      {
        era: 'handshake',
        server: call.server,
        exposesSessionId: call.sessionId !== undefined,
        perRequestHandshake: false,
        notifier: runtime.notifier,
        sealing: runtime.requestStateSealing,
      },
      '',
    );
    const result = await runCall(runtime, call.method, call.key, call.arguments, seed);
    if (isInputRequiredResult(result)) return { inputRequired: result };
    const projected =
      call.method === 'tools/call'
        ? call.server.projectCallToolResult(
            result as CallToolResult,
            runtime.tools.get(call.key)?.advertisedOutputSchema,
          )
        : result;
    return { response: handshakeResultResponse(call.id, call.method, projected) };
  } catch (error) {
    return { response: handshakeErrorResponse(call.id, specParamsError(call.method, error)) };
  }
}

/** A request a 2025 session's server would pass to its handler as it is, as a direct call; else undefined. */
export interface SessionRequest extends DirectCall {
  readonly id: string | number;
  readonly meta: Readonly<Record<string, unknown>> | undefined;
}

const REQUEST_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
/** `_meta` keys the SDK lifts off a request (the 2026-07-28 envelope); such a request is the SDK's to judge. */
const RESERVED_META_PREFIX = 'io.modelcontextprotocol/';

/**
 * `message` as a direct call when it is one JSON-RPC request for tools/call, resources/read or prompts/get in the shape
 * the SDK's schemas take as they are, with a `_meta` holding no progress token (progress streams through the server)
 * and no envelope keys; undefined leaves the message to the session's server.
 */
export function sessionCallOf(message: unknown): SessionRequest | undefined {
  if (!isPlainObject(message)) return undefined;
  for (const key in message) if (!REQUEST_KEYS.has(key)) return undefined;
  const { jsonrpc, id, method, params } = message;
  if (jsonrpc !== '2.0' || typeof method !== 'string' || !isPlainObject(params)) return undefined;
  if (!(typeof id === 'string' || Number.isSafeInteger(id))) return undefined;
  const meta = params._meta;
  if (meta !== undefined && !plainMeta(meta)) return undefined;
  const call = directCallOf(method, params);
  if (!call) return undefined;
  return {
    method: call.method,
    key: call.key,
    arguments: call.arguments,
    id: id as string | number,
    meta: meta as Readonly<Record<string, unknown>> | undefined,
  };
}

/** A `_meta` the SDK passes to the handler as is: an object with no progress token and no envelope keys. */
function plainMeta(meta: unknown): boolean {
  if (!isPlainObject(meta)) return false;
  for (const key in meta) if (key === 'progressToken' || key.startsWith(RESERVED_META_PREFIX)) return false;
  return true;
}

const noEnvelopeCapabilities = (): undefined => undefined;
