// The other instances serving the same 2025 sessions, and the two things said between them: notices about a session
// (it ended, its replayable state changed, its event stream moved) and client replies that belong to a
// server-to-client request another instance is waiting on. One process alone has no peers.
import { randomUUID } from 'node:crypto';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';

export type SessionNotice =
  | { readonly kind: 'ended'; readonly sessionId: string }
  | { readonly kind: 'changed'; readonly sessionId: string }
  | { readonly kind: 'stream'; readonly sessionId: string; readonly instance: string };

export interface SessionPeerListener {
  notice(notice: SessionNotice): void;
  /** Client messages another instance received for a request this instance sent. */
  messages(sessionId: string, messages: readonly JSONRPCMessage[]): void;
}

export interface SessionPeers {
  /** This instance's id; it tags the ids of the requests it sends to clients. No `:` in it. */
  readonly instanceId: string;
  /** Tells every other instance; at most once, so each notice has a backstop (the registry's revision, or 404). */
  announce(notice: SessionNotice): Promise<void>;
  /** Hands client messages to `instance`; false when it is known that no instance took them. */
  forward(instance: string, sessionId: string, messages: readonly JSONRPCMessage[]): Promise<boolean>;
  /** Hears what other instances announce and forward; returns the function that stops listening. */
  listen(listener: SessionPeerListener): () => void;
  /** True only when it is known that `instance` stopped listening (it crashed or closed); false when unsure. */
  isGone(instance: string): Promise<boolean>;
  /**
   * Whether other instances may serve this instance's sessions (peers over Redis): then shutdown hands each GET
   * stream held here over before it stops storing the session's events. Omitted, there are none.
   */
  readonly spansInstances?: boolean;
}

/** One instance and no one to tell: the default of the in-memory setup. */
export class NoSessionPeers implements SessionPeers {
  readonly instanceId = randomUUID();

  async announce(): Promise<void> {}

  async forward(): Promise<boolean> {
    return false;
  }

  listen(): () => void {
    return () => undefined;
  }

  async isGone(): Promise<boolean> {
    return false;
  }
}
