// A host's direct call inside a 2025 session (AppPort.runSessionCall): a tools/call, resources/read or prompts/get
// the host validated as the session's protocol server would, run straight through the operation runner with the
// seed that server's handler would build (the session's client capabilities, its id, the caller), and answered as
// that handler answers (the tool result projected for the 2025 wire, a handler's error mapped the same way).
import type { AuthInfo, CallToolResult, InputRequiredResult, Result, Server } from '@modelcontextprotocol/server';
import { isInputRequiredResult } from '@modelcontextprotocol/server';
import type { LogLevel } from '../logging/index.js';
import { type CallMethod, hostCallFacts, runCall } from './direct-call.js';
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
  readonly sessionId: string;
  readonly authInfo: AuthInfo | undefined;
  /** The request's `_meta` (a W3C trace context may ride there); never a progress token. */
  readonly meta?: Readonly<Record<string, unknown>>;
  readonly signal: AbortSignal;
  /** Sends a log line related to this request, as the session's server would (its level filter applies). */
  readonly log: (level: LogLevel, payload: Record<string, unknown>) => Promise<void> | void;
  /** Ends the request's SSE stream while the handler goes on (ctx.closeStream); set only where it can be resumed. */
  readonly closeStream?: () => void;
}

/**
 * The handler's answer, or its input_required round untouched (the host hands such a request to the protocol server,
 * whose 2025 shim fulfils it). Rejects with the error the session's handler would throw.
 */
export async function runSessionCall(
  runtime: ProtocolRuntime,
  call: SessionCall,
): Promise<Result | InputRequiredResult> {
  const seed = seedFromFacts(
    hostCallFacts(call, {
      sessionId: call.sessionId,
      modernCapabilities: noModernCapabilities,
      log: call.log,
      // The host sends a request carrying a progress token through the session's server, which streams progress.
      progress: undefined,
      closeStream: call.closeStream,
    }),
    {
      era: 'legacy',
      server: call.server,
      exposesSessionId: true,
      perRequestLegacy: false,
      notifier: runtime.notifier,
      sealing: runtime.requestStateSealing,
    },
    '',
  );
  try {
    const result = await runCall(runtime, call.method, call.key, call.arguments, seed);
    if (call.method !== 'tools/call' || isInputRequiredResult(result)) return result;
    return call.server.projectCallToolResult(
      result as CallToolResult,
      runtime.tools.get(call.key)?.advertisedOutputSchema,
    );
  } catch (error) {
    throw specParamsError(call.method, error);
  }
}

const noModernCapabilities = (): undefined => undefined;
