import type { McpRequestContext } from '@modelcontextprotocol/server';

// Which protocol revision family a request is served on, named after how a client states its revision:
// 'handshake' (2025-11-25 and earlier: the revision is agreed once by `initialize`, on a session or not) or
// 'envelope' (2026-07-28 on: each request carries its revision and capabilities in its `_meta` envelope). A later
// revision of either kind belongs to the same family, so it needs no new name.
export type ProtocolEra = 'handshake' | 'envelope';

/** The era the SDK's server factory names ('legacy' or 'modern') in Kiln's terms. */
export function eraOfSdk(sdkEra: McpRequestContext['era']): ProtocolEra {
  return sdkEra === 'legacy' ? 'handshake' : 'envelope';
}
