// The MCP endpoint serves POST, GET and DELETE (spec §2.1, §2.2). Any other method gets 405 with `Allow`, decided in
// onRequest so that the body of a PUT or PATCH is never parsed only to be refused.
import { edgeError } from '../../../src/errors/index.js';
import { EdgeRejection } from './edge-rejection.js';

const ALLOWED = new Set(['GET', 'POST', 'DELETE']);
const ALLOW = 'GET, POST, DELETE';

/** The 405 for another method on `endpoint`; undefined for an allowed one, and for every other path. */
export function methodRejection(
  request: { readonly method: string; readonly url: string },
  endpoint: string,
): EdgeRejection | undefined {
  if (ALLOWED.has(request.method) || pathOf(request.url) !== endpoint) return undefined;
  return new EdgeRejection(
    405,
    edgeError(
      'method_not_allowed',
      `Method ${request.method} is not allowed on ${endpoint}: use POST for messages, GET for the 2025 event ` +
        'stream and DELETE to end a 2025 session.',
      { allow: ALLOW },
    ),
    { allow: ALLOW },
  );
}

function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}
