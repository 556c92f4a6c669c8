// The stdio direct path (MCP_STDIO_FAST_PATH, on by default). On a 2025 connection, a plain tools/call, resources/read
// or prompts/get (sessionCallOf: no progress token, no retry fields, no envelope keys) runs straight through Kiln's
// operation runner (app.runSessionCall) instead of the SDK's stdio transport and dispatch, and its answer is written
// as that transport writes it: one JSON line. The handler's log lines still go through the connection's server, which
// filters them by the level logging/setLevel chose. Everything else is the server's: a 2026-07-28 connection, a
// request whose id a direct call still uses, and an input_required round, which the SDK's 2025 shim turns into
// requests to the client (the server then runs the call again). A task tool runs directly too: a 2025 connection
// knows no tasks, so it answers as an ordinary call, as in an HTTP session. test/transports/stdio-direct-diff.test.ts
// holds both paths to the same bytes.
import type { AuthInfo, JSONRPCMessage, Server } from '@modelcontextprotocol/server';
import type { AppPort } from '../app/app-port.js';
import { CallCancellation } from '../context/call-cancellation.js';
import { isPlainObject } from '../protocol/plain-object.js';
import { type SessionRequest, sessionCallOf } from '../protocol/session-call.js';

export interface StdioDirectCallsOptions {
  /** Writes one line to stdout (the answer, newline included). */
  readonly write: (line: string) => void;
  /** Hands a message to the connection's server after all, as if it had gone there first. */
  readonly dispatch: (message: JSONRPCMessage) => void;
  /** Who the connection runs as (stdio's `authInfo` option). */
  readonly authInfo: AuthInfo | undefined;
}

export class StdioDirectCalls {
  readonly #app: AppPort;
  readonly #options: StdioDirectCallsOptions;
  readonly #open = new Map<string | number, CallCancellation>();
  #server: Server | undefined;

  constructor(app: AppPort, options: StdioDirectCallsOptions) {
    this.#app = app;
    this.#options = options;
  }

  /** The connection's server, once its first exchange chose the 2025 era; until then every message is the server's. */
  attach(server: Server): void {
    this.#server = server;
  }

  /** Serves `message` when it is a call the direct path runs; false leaves it to the connection's server. */
  take(message: unknown): boolean {
    const server = this.#server;
    // Until initialize is answered the server knows no client capabilities to run a call with.
    if (server === undefined || server.getClientCapabilities() === undefined) return false;
    const call = sessionCallOf(message);
    if (call === undefined) {
      this.#cancel(message);
      return false;
    }
    if (this.#open.has(call.id)) return false;
    this.#serve(server, call, message as JSONRPCMessage);
    return true;
  }

  /** A notifications/cancelled naming a direct call aborts it, and its answer is never written (as the SDK does). */
  #cancel(message: unknown): void {
    if (!isPlainObject(message) || message.method !== 'notifications/cancelled' || !isPlainObject(message.params))
      return;
    const { requestId, reason } = message.params;
    const open = (typeof requestId === 'string' || typeof requestId === 'number') && this.#open.get(requestId);
    if (open) open.abort(new Error(typeof reason === 'string' ? reason : 'request cancelled'));
  }

  #serve(server: Server, call: SessionRequest, message: JSONRPCMessage): void {
    const { id } = call;
    const cancellation = new CallCancellation();
    this.#open.set(id, cancellation);
    void this.#app
      .runSessionCall({
        // Field by field: spreading the call and adding keys would take V8's slow path for objects.
        method: call.method,
        key: call.key,
        arguments: call.arguments,
        id,
        server,
        sessionId: undefined,
        authInfo: this.#options.authInfo,
        meta: call.meta,
        signal: cancellation,
        log: (level, data) => server.sendLoggingMessage({ level, data }),
      })
      .then((answer) => {
        this.#open.delete(id);
        if (cancellation.aborted) return;
        if (answer.inputRequired) this.#options.dispatch(message);
        else this.#options.write(`${JSON.stringify(answer.response)}\n`);
      });
  }
}
