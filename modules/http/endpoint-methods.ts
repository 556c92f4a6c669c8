// The MCP endpoint serves POST, GET and DELETE (spec §2.1, §2.2). Any other method gets 405 with `Allow`, decided in
// onRequest so that the body of a PUT or PATCH is never parsed only to be refused.
import { edgeError } from '../../src/errors/index.js';
import { EdgeRejection } from './edge-rejection.js';

const ALLOWED = new Set(['GET', 'POST', 'DELETE']);
const ALLOW = 'GET, POST, DELETE';

/** An onRequest hook for the whole server: refuses other methods on `endpoint` and leaves every other path alone. */
export function refuseOtherMethods(endpoint: string) {
  return async (request: { readonly method: string; readonly url: string }): Promise<void> => {
    if (ALLOWED.has(request.method) || pathOf(request.url) !== endpoint) return;
    throw new EdgeRejection(
      405,
      edgeError(
        'method_not_allowed',
        `Method ${request.method} is not allowed on ${endpoint}: use POST for messages, GET for the 2025 event ` +
          'stream and DELETE to end a 2025 session.',
        { allow: ALLOW },
      ),
      { allow: ALLOW },
    );
  };
}

function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}
