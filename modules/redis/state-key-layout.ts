// Where ctx.state lives in Redis: `PREFIX:st:{tTENANT}:v:KEY` per value and `PREFIX:st:{tTENANT}:i`, a sorted set
// of the tenant's keys for ordered listing. The hash tag puts a tenant in one Cluster slot, so MULTI and multi-key
// commands work for it; a hot tenant is therefore a hot shard.
import { encodeCodeUnits } from './code-unit-bytes.js';

/** Appended to an encoded prefix it bounds every member starting with it: encoded keys never contain 0xFF. */
const ABOVE_EVERY_KEY = Buffer.from([0xff]);
const INCLUSIVE = Buffer.from('[');
const EXCLUSIVE = Buffer.from('(');

export interface TenantKeys {
  /** The tenant's sorted set of members (encoded keys), all scored 0 so ZRANGEBYLEX orders them bytewise. */
  readonly index: Buffer;
  member(key: string): Buffer;
  valueKey(member: Buffer): Buffer;
  /** A call-policy counter of the tenant (rate, quota, usage): outside the index, so never listed or counted. */
  counterKey(key: string): Buffer;
}

/**
 * The tenant goes into the hash tag base64url-encoded (with a leading `t`, since an empty `{}` is no tag at all),
 * so `{`, `}` and `:` in a tenant id cannot end the tag early or collide with another tenant's keys.
 */
export function tenantKeys(keyPrefix: string, tenantId: string): TenantKeys {
  const tag = `t${encodeCodeUnits(tenantId).toString('base64url')}`;
  const base = `${keyPrefix === '' ? '' : `${keyPrefix}:`}st:{${tag}}:`;
  const valuePrefix = Buffer.from(`${base}v:`);
  const counterPrefix = Buffer.from(`${base}c:`);
  return {
    counterKey: (key) => Buffer.concat([counterPrefix, encodeCodeUnits(key)]),
    index: Buffer.from(`${base}i`),
    member: encodeCodeUnits,
    valueKey: (member) => Buffer.concat([valuePrefix, member]),
  };
}

/** ZRANGEBYLEX bounds for keys starting with `prefix` and, when given, strictly after `after`. */
export function listRange(prefix: string, after: string | undefined): { min: Buffer; max: Buffer } {
  const encodedPrefix = encodeCodeUnits(prefix);
  const max = Buffer.concat([INCLUSIVE, encodedPrefix, ABOVE_EVERY_KEY]);
  // An `after` below the prefix excludes nothing the prefix does not already exclude.
  if (after === undefined || after < prefix) return { min: Buffer.concat([INCLUSIVE, encodedPrefix]), max };
  return { min: Buffer.concat([EXCLUSIVE, encodeCodeUnits(after)]), max };
}

/** The bound that continues a listing after `member`, the last one already read. */
export function exclusiveBound(member: Buffer): Buffer {
  return Buffer.concat([EXCLUSIVE, member]);
}
