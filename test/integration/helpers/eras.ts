// The two protocol eras every integration test runs in: the 2025 `initialize` handshake (the SDK client's default)
// and the 2026-07-28 per-request envelope, pinned so a fallback to the old handshake cannot pass unnoticed.
import type { ClientOptions } from '@modelcontextprotocol/client';

export interface EraCase {
  readonly era: 'handshake' | 'envelope';
  /** What the SDK client's getProtocolEra() says for it. */
  readonly sdkEra: 'legacy' | 'modern';
  readonly protocolVersion: string;
  readonly clientOptions: ClientOptions | undefined;
}

export const ERAS: readonly EraCase[] = [
  { era: 'handshake', sdkEra: 'legacy', protocolVersion: '2025-11-25', clientOptions: undefined },
  {
    era: 'envelope',
    sdkEra: 'modern',
    protocolVersion: '2026-07-28',
    clientOptions: { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  },
];

/** The request `_meta` key that carries a 2026-07-28 request's log level (logging/setLevel is gone there). */
export const LOG_LEVEL_META = 'io.modelcontextprotocol/logLevel';
