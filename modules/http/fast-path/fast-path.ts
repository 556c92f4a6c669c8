// The 2026-07-28 fast path (MCP_HTTP_FAST_PATH): requests it owns skip the SDK's per-request entry (a web Request
// and Response, a server built, connected and closed, the body classified twice) and are served by one long-lived
// envelope-era-bound server behind a multiplexing transport. It answers exactly what the SDK path would
// (test/http/fast-path-diff.test.ts); whatever it does not own goes on to the SDK path. The hot calls that cannot
// stream skip even the SDK's dispatch: Kiln runs them itself (direct-calls.ts).
import type { IncomingMessage } from 'node:http';
import { type AuthInfo, classifyInboundRequest, type JSONRPCRequest } from '@modelcontextprotocol/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppPort } from '../../../src/host/index.js';
import { standardHeaders } from '../era-of.js';
import { stampHttpFacts, webRequestOf } from '../request-facts.js';
import { DirectCalls } from './direct-calls.js';
import { claimEnvelopeRequest } from './edge-claim.js';
import { type EdgeAnswer, EnvelopeMuxTransport } from './envelope-mux-transport.js';
import { assertEnvelopeBound, ENVELOPE_REVISION } from './sdk-envelope-binding.js';

export interface FastPath {
  /** The request's JSON-RPC message when the fast path would own it (a plain 2026-07-28 request); else undefined. */
  claim(request: FastifyRequest): JSONRPCRequest | undefined;
  /** Serves a claimed message; false (an id already in flight here) leaves it untouched for the SDK path. */
  serve(message: JSONRPCRequest, request: FastifyRequest, reply: FastifyReply): boolean;
  close(): Promise<void>;
}

export async function openFastPath(app: AppPort, options: { readonly keepAliveMs: number }): Promise<FastPath> {
  const server = app.createServer('envelope', { exposesSessionId: false, envelopeRevisions: [ENVELOPE_REVISION] });
  const transport = new EnvelopeMuxTransport(options.keepAliveMs);
  await server.connect(transport);
  assertEnvelopeBound(server);
  const direct = new DirectCalls(app);
  return {
    claim: (request) => claimEnvelopeRequest(request.body, request.headers),
    serve(message, request, reply) {
      const plan = direct.plan(message);
      if (plan.direct) {
        direct.serve(message, plan, request, reply);
        return true;
      }
      if (transport.isServing(message.id)) return false;
      const authInfo = (request.raw as IncomingMessage & { auth?: AuthInfo }).auth;
      const { learn } = plan;
      const handled = learn === undefined ? undefined : () => direct.learn(learn);
      stampHttpFacts(request);
      transport.dispatch(message, reply, authInfo, webRequestOf(request.raw), () => edgeRejection(request), handled);
      return true;
    },
    close: () => {
      direct.close();
      return server.close();
    },
  };
}

/**
 * The SDK edge's answer when its classifier rejects the request. Run only when the dispatch ladder rejected it, so
 * the common request never pays for the classifier's schema checks, yet an envelope the edge refuses gets the edge's
 * status and error, as on the SDK path.
 */
function edgeRejection(request: FastifyRequest): EdgeAnswer | undefined {
  const { body, headers } = request;
  const outcome = classifyInboundRequest({ httpMethod: 'POST', ...standardHeaders(headers), body });
  if (outcome.kind !== 'reject') return undefined;
  const error = {
    code: outcome.code,
    message: outcome.message,
    ...(outcome.data !== undefined && { data: outcome.data }),
  };
  const { id } = body as { id: string | number };
  return { status: outcome.httpStatus, body: JSON.stringify({ jsonrpc: '2.0', error, id }) };
}
