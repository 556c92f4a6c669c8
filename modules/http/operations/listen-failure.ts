// What a server that cannot open its port says: the address, the reason in words and what to change, instead of
// Node's bare `listen EADDRINUSE` with a stack through node:net.
import { KilnBootError } from '../../../src/errors/index.js';

const REASONS: Readonly<Record<string, string>> = {
  EADDRINUSE: 'another process is listening there; stop it, or set MCP_HTTP_PORT to a free port (0 picks one)',
  EACCES:
    'this user may not listen on that port (ports below 1024 need privileges); set MCP_HTTP_PORT to 1024 or above',
  EADDRNOTAVAIL: 'no network interface of this machine has that address; set MCP_HTTP_HOST to one it has',
};

/** `error` from listening on `address` (host:port), as a KilnBootError when its reason is one a setting fixes. */
export function listenFailure(error: unknown, address: string): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const reason = code === undefined ? undefined : REASONS[code];
  if (reason === undefined) return error;
  return Object.assign(new KilnBootError(`Cannot serve HTTP on ${address}: ${reason} (${code}).`), { cause: error });
}
