// How tenants and keys map onto paths for the filesystem provider. Names are hex of the UTF-8 bytes, so any tenant
// id or key is a safe name and the key is recoverable from its path; long keys are split into nested directories
// because a single file name is limited to 255 bytes on common filesystems.

import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { nodeCrypto } from '../platform/lazy-builtins.js';

/** Hex characters per path segment: comfortably under the 255-byte name limit once `.json` is appended. */
const SEGMENT_LENGTH = 200;
const ENTRY_SUFFIX = '.json';
const ENTRY_FILE = /^([0-9a-f]*)\.json$/;
const SEGMENT_DIR = new RegExp(`^[0-9a-f]{${SEGMENT_LENGTH}}$`);

/** Temp files live in one directory beside the tenants so a rename into place never crosses filesystems. */
export const TEMP_DIR_NAME = '.tmp';

/** Names `tenantDirectory` gives; anything else under the root (the temp directory, strays) is not a tenant. */
export const TENANT_DIR_NAME = /^[thuv]_[0-9a-f]+$/;

export interface LocatedEntry {
  key: string;
  path: string;
}

/** With the `u` flag a surrogate pair is one code point, so this matches only a surrogate standing alone. */
const LONE_SURROGATE = /\p{Surrogate}/u;

function toHex(text: string): string {
  return Buffer.from(text, 'utf8').toString('hex');
}

/**
 * The tenant's directory: hex of the id, or a SHA-256 of it when the hex would not fit in one name. A tenant id that
 * is not well-formed UTF-16 (a lone surrogate, say from a token's `tid` claim) has no UTF-8 form of its own: UTF-8
 * would turn it into U+FFFD and so into another tenant's directory. Its code units name it instead, under `u_`.
 */
export function tenantDirectory(root: string, tenantId: string): string {
  const wellFormed = !LONE_SURROGATE.test(tenantId);
  const bytes = wellFormed ? Buffer.from(tenantId, 'utf8') : Buffer.from(tenantId, 'utf16le');
  const hex = bytes.toString('hex');
  if (hex.length <= SEGMENT_LENGTH) return join(root, `${wellFormed ? 't' : 'u'}_${hex}`);
  return join(root, `${wellFormed ? 'h' : 'v'}_${nodeCrypto().createHash('sha256').update(bytes).digest('hex')}`);
}

/** The file holding `key`: every full segment but the last becomes a directory, the rest names the file. */
export function entryPath(tenantDir: string, key: string): string {
  const hex = toHex(key);
  const segments: string[] = [];
  for (let start = 0; start < hex.length; start += SEGMENT_LENGTH) {
    segments.push(hex.slice(start, start + SEGMENT_LENGTH));
  }
  const fileName = `${segments.pop() ?? ''}${ENTRY_SUFFIX}`;
  return join(tenantDir, ...segments, fileName);
}

/**
 * Every entry file under the tenant directory whose key starts with `prefix`, unsorted. Directories whose path
 * cannot lead to a matching key are not read, and names that are not ours (temp files, strays) are ignored.
 */
export async function findEntries(tenantDir: string, prefix: string): Promise<LocatedEntry[]> {
  const prefixHex = toHex(prefix);
  const found: LocatedEntry[] = [];
  await walk(tenantDir, '', prefixHex, found);
  return found.filter((entry) => entry.key.startsWith(prefix));
}

async function walk(dir: string, pathHex: string, prefixHex: string, found: LocatedEntry[]): Promise<void> {
  let children: Dirent[];
  try {
    children = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const descents: Promise<void>[] = [];
  for (const child of children) {
    if (child.isDirectory() && SEGMENT_DIR.test(child.name)) {
      const nextHex = pathHex + child.name;
      if (nextHex.startsWith(prefixHex) || prefixHex.startsWith(nextHex)) {
        descents.push(walk(join(dir, child.name), nextHex, prefixHex, found));
      }
      continue;
    }
    const match = child.isFile() ? ENTRY_FILE.exec(child.name) : null;
    const tailHex = match?.[1];
    if (tailHex === undefined || tailHex.length > SEGMENT_LENGTH || tailHex.length % 2 !== 0) continue;
    // Only the empty key is stored as a bare `.json`, and only at the tenant's top level.
    if (tailHex === '' && pathHex !== '') continue;
    const keyHex = pathHex + tailHex;
    if (keyHex.startsWith(prefixHex)) {
      found.push({ key: Buffer.from(keyHex, 'hex').toString('utf8'), path: join(dir, child.name) });
    }
  }
  await Promise.all(descents);
}
