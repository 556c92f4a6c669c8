// The fast path's direct calls: a claimed tools/call, resources/read or prompts/get that cannot stream (no progress
// token, no log level) and carries no retry fields runs straight through Kiln's operation runner (app.runEnvelopeCall),
// with no SDK dispatch, and its answer is encoded as the SDK's dispatch would encode it. Params are accepted only in
// shapes the SDK's schema accepts as they are; the envelope only once the SDK's own dispatch accepted the same one.
// Anything else goes through the SDK's dispatch, which answers it (test/http/fast-path-diff.test.ts).
import type { IncomingMessage } from 'node:http';
import type { AuthInfo, ClientCapabilities, JSONRPCRequest } from '@modelcontextprotocol/server';
import { CLIENT_CAPABILITIES_META_KEY, LOG_LEVEL_META_KEY } from '@modelcontextprotocol/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type AppPort, CallCancellation, type DirectCall, directCallOf } from '../../../src/host/index.js';
import { throttleRetryAfter } from '../edge/throttled-answer.js';
import { httpFactsOf } from '../request-facts.js';
import { type AnswerStamp, answerStamp, encodeCallAnswer, encodeCallError } from './sdk-envelope-binding.js';

type Json = Record<string, unknown>;

/** What the fast path does with a claimed request: run it directly, or dispatch it (learning its envelope). */
export type DirectPlan =
  | { readonly direct: DirectCall; readonly envelope: Json }
  | { readonly direct?: undefined; readonly learn?: string };

/** Distinct envelopes remembered as valid; a client sends the same one on every request, so a few suffice. */
const KNOWN_ENVELOPES_LIMIT = 256;

export class DirectCalls {
  readonly #app: AppPort;
  /** Envelopes (as JSON) the SDK's dispatch accepted: its envelope check passed before it ran the handler. */
  readonly #knownEnvelopes = new Set<string>();
  readonly #open = new Set<CallCancellation>();
  /** Tools that may answer with a task (the Tasks extension): the SDK's dispatch encodes that answer. */
  readonly #taskTools: ReadonlySet<string>;
  readonly #stamp: AnswerStamp;

  constructor(app: AppPort) {
    this.#app = app;
    this.#stamp = answerStamp(app.serverInfo);
    this.#taskTools = new Set(app.catalog().tools.flatMap((tool) => (tool.task ? [tool.name] : [])));
  }

  plan(message: JSONRPCRequest): DirectPlan {
    const params = message.params as Json;
    const envelope = params._meta as Json;
    if (envelope.progressToken !== undefined || envelope[LOG_LEVEL_META_KEY] !== undefined) return {};
    const call = directCallOf(message.method, params);
    if (!call || (call.method === 'tools/call' && this.#taskTools.has(call.key))) return {};
    const key = JSON.stringify(envelope);
    if (this.#knownEnvelopes.has(key)) return { direct: call, envelope };
    return this.#knownEnvelopes.size < KNOWN_ENVELOPES_LIMIT ? { learn: key } : {};
  }

  /** The SDK's dispatch ran a handler for a request with this envelope: its envelope check passed. */
  learn(key: string): void {
    if (this.#knownEnvelopes.size < KNOWN_ENVELOPES_LIMIT) this.#knownEnvelopes.add(key);
  }

  serve(
    message: JSONRPCRequest,
    plan: { direct: DirectCall; envelope: Json },
    request: FastifyRequest,
    reply: FastifyReply,
  ) {
    const { id } = message;
    const cancellation = new CallCancellation();
    this.#open.add(cancellation);
    let answered = false;
    // A client that goes away cancels its call (the handler's signal), as the SDK's dispatch does.
    reply.raw.on('close', () => {
      if (!answered) cancellation.abort(new Error('client disconnected'));
    });
    const send = (answer: { status: number; body: string }, retryAfter?: string) => {
      answered = true;
      this.#open.delete(cancellation);
      if (cancellation.aborted) return;
      if (retryAfter !== undefined) reply.code(429).header('retry-after', retryAfter);
      else reply.code(answer.status);
      reply.header('content-type', 'application/json').send(answer.body);
    };
    const capabilities = plan.envelope[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
    this.#app
      .runEnvelopeCall({
        // Field by field: spreading the planned call and adding keys would take V8's slow path for objects.
        method: plan.direct.method,
        key: plan.direct.key,
        arguments: plan.direct.arguments,
        id,
        clientCapabilities: capabilities,
        meta: plan.envelope,
        authInfo: (request.raw as IncomingMessage & { auth?: AuthInfo }).auth,
        signal: cancellation,
        http: httpFactsOf(request),
      })
      .then(
        ({ result, cacheHint }) =>
          send(encodeCallAnswer(plan.direct.method, id, result, this.#stamp, capabilities, cacheHint)),
        (error: unknown) => send(encodeCallError(id, error), throttleRetryAfter(error)),
      );
  }

  /** Cancels the calls still running (the app drained first, so these outlived the drain). */
  close(): void {
    for (const cancellation of this.#open) cancellation.abort(new Error('server shutting down'));
    this.#open.clear();
  }
}
