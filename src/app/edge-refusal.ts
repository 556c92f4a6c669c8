// What a host tells the audit trail about a call it refused itself, before any protocol server saw it.
import type { AuthInfo } from '@modelcontextprotocol/server';

/** A call a host refused before any protocol server saw it (a bad token, missing scopes, its caller's share). */
export interface EdgeRefusal {
  /** The reason the host answered with (`invalid_token`, `insufficient_scope`, `in_flight_limit`, ...). */
  readonly reason: string;
  /** The JSON-RPC method and what it named, when the host had read the body. */
  readonly method?: string;
  readonly target?: string;
  /** The JSON-RPC id, when the host had read the body. */
  readonly requestId?: string;
  /** The verified token, when there was one. */
  readonly authInfo?: AuthInfo;
  readonly address?: string;
}
