// Where an authorization server's documents and keys may come from: HTTPS, or plain HTTP on a loopback address for
// local development and tests. Keys fetched over plain HTTP from elsewhere could be swapped in transit.

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The URL, when `value` is an absolute https URL or an http one on a loopback host; undefined otherwise. */
export function secureUrl(value: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.protocol === 'https:') return url;
  return url.protocol === 'http:' && LOOPBACK.has(url.hostname) ? url : undefined;
}
