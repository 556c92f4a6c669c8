// What Kiln knows about each 2025 session, kept serialisable so a shared (Redis) registry can replace the
// in-memory one. The live transport and protocol server stay in the process that owns the session.

export interface SessionRecord {
  readonly id: string;
  readonly createdAt: number;
  lastSeenAt: number;
}

export interface SessionRegistry {
  add(record: SessionRecord): Promise<void>;
  get(id: string): Promise<SessionRecord | undefined>;
  touch(id: string, at: number): Promise<void>;
  remove(id: string): Promise<void>;
  count(): Promise<number>;
  /** Sessions last seen before `cutoff`. */
  staleSince(cutoff: number): Promise<string[]>;
}

export class InMemorySessionRegistry implements SessionRegistry {
  private readonly records = new Map<string, SessionRecord>();

  async add(record: SessionRecord): Promise<void> {
    this.records.set(record.id, { ...record });
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    const record = this.records.get(id);
    return record && { ...record };
  }

  async touch(id: string, at: number): Promise<void> {
    const record = this.records.get(id);
    if (record) record.lastSeenAt = at;
  }

  async remove(id: string): Promise<void> {
    this.records.delete(id);
  }

  async count(): Promise<number> {
    return this.records.size;
  }

  async staleSince(cutoff: number): Promise<string[]> {
    return [...this.records.values()].filter((r) => r.lastSeenAt < cutoff).map((r) => r.id);
  }
}
