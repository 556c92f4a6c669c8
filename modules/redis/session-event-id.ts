// Event ids of the Redis session event store: `<xid>_<streamId>`, the Stream entry id Redis assigned followed by the
// SSE stream the frame belongs to, so a resume point names its stream even after its frame is gone. A frame Redis
// could not store gets `unstored_<streamId>`: a valid resume point that replays nothing.

const UNSTORED = 'unstored';
/** Only the canonical form XADD returns: no sign, no leading zeros, no exponent. */
const XID = /^(0|[1-9]\d*)-(0|[1-9]\d*)$/;

export interface StreamEntryId {
  readonly xid: string;
  readonly ms: bigint;
  readonly seq: bigint;
}

export type ParsedEventId =
  | { readonly kind: 'stored'; readonly entry: StreamEntryId; readonly streamId: string }
  | { readonly kind: 'unstored'; readonly streamId: string };

export const storedEventId = (xid: string, streamId: string): string => `${xid}_${streamId}`;
export const unstoredEventId = (streamId: string): string => `${UNSTORED}_${streamId}`;

export function parseStreamEntryId(xid: string): StreamEntryId | undefined {
  const match = XID.exec(xid);
  if (!match) return undefined;
  const entry = { xid, ms: BigInt(match[1] as string), seq: BigInt(match[2] as string) };
  // XADD never assigns 0-0, so it names no frame.
  return entry.ms === 0n && entry.seq === 0n ? undefined : entry;
}

/** The parts of an id this store issued, or undefined for anything else (no resume point). */
export function parseEventId(id: string): ParsedEventId | undefined {
  const separator = id.indexOf('_');
  if (separator <= 0) return undefined;
  const head = id.slice(0, separator);
  const streamId = id.slice(separator + 1);
  if (head === UNSTORED) return { kind: 'unstored', streamId };
  const entry = parseStreamEntryId(head);
  return entry ? { kind: 'stored', entry, streamId } : undefined;
}

/** Negative, zero or positive as `a` sorts before, with or after `b` in a Stream. */
export function compareEntryIds(a: StreamEntryId, b: StreamEntryId): number {
  if (a.ms !== b.ms) return a.ms < b.ms ? -1 : 1;
  return a.seq === b.seq ? 0 : a.seq < b.seq ? -1 : 1;
}
