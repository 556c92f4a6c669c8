// Removing expired entry files nobody reads again. The periodic sweep's work is bounded: it reads at most
// `maxFiles` entries per run and the next run resumes after the last one, so a huge root is covered over several runs.
import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { EntryFiles } from './filesystem-entry-files.js';
import { findEntries, type LocatedEntry, TENANT_DIR_NAME } from './filesystem-layout.js';

/** Entry files inspected at once. */
const SWEEP_READ_BATCH = 32;

export interface SweepTally {
  removed: number;
  /** Entries left in place, corrupt ones included: they still take a slot until someone deletes them. */
  remaining: number;
  /** The earliest expiry among the entries left in place, if any has one. */
  nextExpiry: number | undefined;
}

/** Inspects every entry given, removing the expired ones. */
export async function sweepEntries(files: EntryFiles, entries: readonly LocatedEntry[]): Promise<SweepTally> {
  const tally: SweepTally = { removed: 0, remaining: 0, nextExpiry: undefined };
  for (let start = 0; start < entries.length; start += SWEEP_READ_BATCH) {
    const batch = entries.slice(start, start + SWEEP_READ_BATCH);
    for (const found of await Promise.all(batch.map((entry) => files.inspect(entry.path)))) {
      if (found.state === 'removed') tally.removed++;
      if (found.state === 'corrupt' || found.state === 'live') tally.remaining++;
      if (found.state === 'live' && found.exp !== undefined) {
        tally.nextExpiry = Math.min(found.exp, tally.nextExpiry ?? found.exp);
      }
    }
  }
  return tally;
}

function byKey(a: LocatedEntry, b: LocatedEntry): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

export class FilesystemSweeper {
  /** Where the next run starts: a tenant directory name and, part way through it, the last key inspected there. */
  private resumeAt: { tenant: string; afterKey?: string } | undefined;

  constructor(
    private readonly root: string,
    private readonly files: EntryFiles,
    private readonly maxFiles: number,
  ) {}

  /** One bounded run; resolves with the number of entries removed. */
  async sweep(): Promise<number> {
    const from = this.resumeAt;
    const tenants = (await this.tenantNames()).filter((tenant) => !from || tenant >= from.tenant);
    this.resumeAt = undefined;
    let budget = this.maxFiles;
    let removed = 0;
    for (const [index, tenant] of tenants.entries()) {
      let entries = (await findEntries(join(this.root, tenant), '')).sort(byKey);
      const afterKey = tenant === from?.tenant ? from.afterKey : undefined;
      if (afterKey !== undefined) entries = entries.filter((entry) => entry.key > afterKey);
      const slice = entries.slice(0, budget);
      removed += (await sweepEntries(this.files, slice)).removed;
      // A tenant with nothing to read still costs a directory walk, so it uses up budget too.
      budget -= Math.max(1, slice.length);
      const last = slice.at(-1);
      if (slice.length < entries.length && last) {
        this.resumeAt = { tenant, afterKey: last.key };
        return removed;
      }
      const next = tenants[index + 1];
      if (budget <= 0) {
        if (next !== undefined) this.resumeAt = { tenant: next };
        return removed;
      }
    }
    return removed;
  }

  private async tenantNames(): Promise<string[]> {
    let children: Dirent[];
    try {
      children = await readdir(this.root, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    return children
      .filter((child) => child.isDirectory() && TENANT_DIR_NAME.test(child.name))
      .map((child) => child.name)
      .sort();
  }
}
