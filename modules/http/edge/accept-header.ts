// What the endpoint requires of Accept (spec §2.1), checked by Kiln so a refusal is Kiln's JSON-RPC error and comes
// before any session or protocol server exists. The 2025 transport of the SDK demands both media types by name,
// so `*/*` is refused there; the 2026-07-28 handler does not check Accept, so `*/*` is enough on that era.
import { edgeError, jsonRpcErrorResponse } from '../../../src/errors/index.js';

export function acceptsPostResponses(accept: string | undefined, handshake: boolean): boolean {
  if (!accept) return false;
  if (!handshake && accept.includes('*/*')) return true;
  return accept.includes('application/json') && accept.includes('text/event-stream');
}

/** The SDK's GET stream demands text/event-stream by name. */
export function acceptsEventStream(accept: string | undefined): boolean {
  return accept?.includes('text/event-stream') ?? false;
}

/** A browser's GET: it asks for HTML and not for an event stream. */
export function prefersHtml(accept: string | undefined): boolean {
  return accept?.includes('text/html') === true && !accept.includes('text/event-stream');
}

export function notAcceptable(types: string) {
  return jsonRpcErrorResponse(
    null,
    edgeError('not_acceptable', `Not Acceptable: the Accept header must list ${types}.`),
  );
}
