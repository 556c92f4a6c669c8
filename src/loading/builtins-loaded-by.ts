// The Node built-ins a module the runtime's chunks require (a package, or a built-in) will load itself, and how to
// load each first.
//
// The runtime loader requires the chunks' packages and built-ins while V8's young generation is held at its first
// size (young-generation.ts), under which Node's built-ins compile from source rather than from the code cache in the
// node binary. A package's own `import 'node:http2'`, or node:net requiring node:cluster on a server's first listen(),
// cannot be told to load outside the hold, so the loader loads what they will, outside it, just before it requires
// the module (outsideHold). A name missing here costs a compile from source, never a failure:
// test/integration/builtin-code-cache.test.ts lists what a server compiled so, and fails when it grows.

import { outsideHold } from './young-generation.js';

/** `node:<name>` is required; `global:<name>` is read from globalThis (Node loads undici behind fetch's globals). */
export type BuiltinLoad = `node:${string}` | `global:${string}`;

export const BUILTINS_LOADED_BY: Readonly<Record<string, readonly BuiltinLoad[]>> = {
  '@modelcontextprotocol/server': ['node:process', 'node:net'],
  // The SDK's Node adapter (Hono's node server): HTTP/2 with TLS, zlib, assert and perf_hooks, and the web Response.
  '@modelcontextprotocol/node': [
    'node:assert',
    'node:tls',
    'node:http2',
    'node:zlib',
    'node:perf_hooks',
    'global:Response',
  ],
  // A server made with it (Fastify's) requires node:cluster, with child_process and dgram, on its first listen().
  'node:http': ['node:cluster'],
};

/**
 * Loads the built-ins `id` will load, outside the young-generation hold, with `nodeRequire` for `node:` ones; nothing
 * (and no flag change) for a module not listed.
 */
export function loadBuiltinsLoadedBy(id: string, nodeRequire: (id: string) => unknown): void {
  const loads = BUILTINS_LOADED_BY[id];
  if (!loads) return;
  outsideHold(() => {
    for (const load of loads) {
      if (load.startsWith('node:')) nodeRequire(load);
      else void (globalThis as Record<string, unknown>)[load.slice('global:'.length)];
    }
  });
}
