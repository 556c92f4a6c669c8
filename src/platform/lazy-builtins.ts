// Node built-ins the runtime uses on some paths only, loaded on first use instead of with the runtime: a stdio server
// answering plain calls never needs node:crypto, whose load (with the internal modules it pulls in) costs a few
// milliseconds of a cold start.

type NodeCrypto = typeof import('node:crypto');

let crypto: NodeCrypto | undefined;

/** node:crypto, loaded on the first call. */
export function nodeCrypto(): NodeCrypto {
  crypto ??= process.getBuiltinModule('node:crypto');
  return crypto;
}
