// The per-tenant entry limit on a root shared by any number of provider instances. Entry files are counted rather
// than tracked, so the limit holds across instances; writers adding new keys at the same moment may each see room
// and overshoot it by their number, which a limit meant to stop unbounded growth can afford.
import type { EntryFiles } from './filesystem-entry-files.js';
import { findEntries } from './filesystem-layout.js';
import { sweepEntries } from './filesystem-sweep.js';

/** A tenant found full is counted again at least this often, in case entries written since have expired. */
const FULL_RECHECK_MS = 60_000;

export class FilesystemQuota {
  /** Tenant directories found full of live entries, and the first instant one of those can have expired. */
  private readonly fullUntil = new Map<string, number>();

  constructor(
    readonly limit: number,
    private readonly files: EntryFiles,
    private readonly now: () => number,
  ) {}

  /**
   * Whether `added` new entries fit. Counting files is cheap, but files include expired entries not yet swept, so a
   * tenant that looks full has its expired entries removed and is counted again. A tenant still full is not read
   * again until one of its entries can expire: a caller retrying against a full tenant costs a directory walk only.
   */
  async fits(tenantDir: string, added: number): Promise<boolean> {
    if (added === 0) return true;
    const entries = await findEntries(tenantDir, '');
    if (entries.length + added <= this.limit) {
      this.fullUntil.delete(tenantDir);
      return true;
    }
    const until = this.fullUntil.get(tenantDir);
    if (until !== undefined && this.now() < until) return false;
    const tally = await sweepEntries(this.files, entries);
    if (tally.remaining + added <= this.limit) {
      this.fullUntil.delete(tenantDir);
      return true;
    }
    this.fullUntil.set(tenantDir, Math.min(tally.nextExpiry ?? Number.POSITIVE_INFINITY, this.now() + FULL_RECHECK_MS));
    return false;
  }
}
