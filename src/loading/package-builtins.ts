// The Node built-ins a package the runtime's chunks require loads as it is imported, and how to load each first.
//
// The runtime loader requires the chunks' packages while V8's young generation is held at its first size
// (young-generation.ts), under which Node's built-ins compile from source rather than from the code cache in the node
// binary. A package's own `import 'node:http2'` cannot be told to load outside the hold, so the loader loads what the
// package will, outside it, just before (outsideHold). A name missing here costs a compile from source, never a
// failure: test/integration/builtin-code-cache.test.ts lists what a server compiled so, and fails when it grows.

/** `node:<name>` is required; `global:<name>` is read from globalThis (Node loads undici behind fetch's globals). */
export type BuiltinLoad = `node:${string}` | `global:${string}`;

export const PACKAGE_BUILTINS: Readonly<Record<string, readonly BuiltinLoad[]>> = {
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
};

/** Loads the built-ins `packageId` will load (none for a package not listed), with `nodeRequire` for `node:` ones. */
export function loadBuiltinsOf(packageId: string, nodeRequire: (id: string) => unknown): void {
  for (const load of PACKAGE_BUILTINS[packageId] ?? []) {
    if (load.startsWith('node:')) nodeRequire(load);
    else void (globalThis as Record<string, unknown>)[load.slice('global:'.length)];
  }
}
