// Where 2025 sessions live in Redis. Each session is one hash under its own hash tag, `PREFIX:sess:{ID}`, so every
// change to it is one single-key command or script on one slot. The indexes share one tag, `{sessions}`: a sorted
// set of every session by last seen time (eviction candidates, the cluster-wide count) and one per instance (its
// local count). The channels carry notices about sessions and replies forwarded to one instance.

export interface SessionKeys {
  session(id: string): string;
  /** Every recorded session, scored by when it was last seen. */
  readonly all: string;
  /** The sessions `instance` serves, scored by when it last touched them. */
  instance(instance: string): string;
  /** Notices every instance hears: a session ended, changed, or its event stream moved. */
  readonly notices: string;
  /** Client replies for requests `instance` sent. */
  inbox(instance: string): string;
}

export function sessionKeys(keyPrefix: string): SessionKeys {
  const base = keyPrefix === '' ? '' : `${keyPrefix}:`;
  return {
    session: (id) => `${base}sess:{${id}}`,
    all: `${base}sessions:{sessions}:all`,
    instance: (instance) => `${base}sessions:{sessions}:instance:${instance}`,
    notices: `${base}sessions:notices`,
    inbox: (instance) => `${base}sessions:inbox:${instance}`,
  };
}
