// Server-side records behind the requestState of the multi-round fixtures. The client only ever holds a record id;
// a retry takes (reads and deletes) the record, so a replayed, forged or cross-fixture state finds nothing.
import { randomUUID } from 'node:crypto';
import { type Context, Injectable } from 'mcp-kiln';
import type { z } from 'zod';

const PREFIX = 'input-rounds/';
const TTL_SECONDS = 600;
const RECORD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

@Injectable()
export class RoundRecords {
  /** Stores a record for the next round and returns the id to send as requestState. */
  async mint(ctx: Context, record: unknown): Promise<string> {
    const id = randomUUID();
    await ctx.state.set(PREFIX + id, record, { ttl: TTL_SECONDS });
    return id;
  }

  /** The record this round's requestState names, consumed; null when there is none or it fails the schema. */
  async redeem<T>(ctx: Context, schema: z.ZodType<T>): Promise<T | null> {
    const id = ctx.inputs.state<string>();
    if (typeof id !== 'string' || !RECORD_ID.test(id)) return null;
    return ctx.state.take(PREFIX + id, schema);
  }
}
