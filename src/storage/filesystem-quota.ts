// The per-tenant entry limit on a root shared by any number of provider instances. Entry files are counted by
// walking the tenant's directory, so the limit holds across instances; to keep a new key from costing a walk of up to
// the whole limit, each instance keeps the count it last walked and adds its own writes, walking again when that
// count is old or near the limit. Other instances' writes since the last walk can overshoot the limit by what they
// added in that window, which a limit meant to stop unbounded growth can afford.
import type { EntryFiles } from './filesystem-entry-files.js';
import { findEntries } from './filesystem-layout.js';
import { sweepEntries } from './filesystem-sweep.js';

/** How long a walked count is trusted, and how often a tenant found full is read again in case entries expired. */
const RECOUNT_MS = 5000;
/** Tenants whose count is remembered; the least recently walked are forgotten first, and simply walked again. */
const MAX_TRACKED_TENANTS = 1024;

interface TenantCount {
  /** Entry files at the last walk, plus what this instance added and minus what it removed since. */
  files: number;
  walkedAt: number;
  /** Set when the tenant was found full of live entries: before this instant none of them can have expired. */
  fullUntil?: number;
}

export class FilesystemQuota {
  private readonly counts = new Map<string, TenantCount>();

  constructor(
    readonly limit: number,
    private readonly files: EntryFiles,
    private readonly now: () => number,
  ) {}

  /** Whether `added` new entries fit; when they do, they are counted as written. */
  async fits(tenantDir: string, added: number): Promise<boolean> {
    if (added === 0) return true;
    const known = this.counts.get(tenantDir);
    if (known && this.now() - known.walkedAt < RECOUNT_MS && known.files + added <= this.limit) {
      known.files += added;
      return true;
    }
    const entries = await findEntries(tenantDir, '');
    if (entries.length + added <= this.limit) {
      this.remember(tenantDir, entries.length + added);
      return true;
    }
    // Files include expired entries nobody swept yet, so a tenant that looks full has those removed and is counted
    // again; one still full is not read again until an entry can have expired, so retries cost a walk only.
    const fullUntil = known?.fullUntil;
    if (fullUntil !== undefined && this.now() < fullUntil) {
      this.remember(tenantDir, entries.length, fullUntil);
      return false;
    }
    const tally = await sweepEntries(this.files, entries);
    if (tally.remaining + added <= this.limit) {
      this.remember(tenantDir, tally.remaining + added);
      return true;
    }
    this.remember(tenantDir, tally.remaining, Math.min(tally.nextExpiry ?? Infinity, this.now() + RECOUNT_MS));
    return false;
  }

  /** Entries this instance removed, so the room they left is seen without another walk. */
  removed(tenantDir: string, count: number): void {
    const known = this.counts.get(tenantDir);
    if (known) known.files = Math.max(0, known.files - count);
  }

  private remember(tenantDir: string, files: number, fullUntil?: number): void {
    // Re-inserting keeps the Map in walk order, so the first key is always the one to forget.
    this.counts.delete(tenantDir);
    this.counts.set(tenantDir, { files, walkedAt: this.now(), ...(fullUntil === undefined ? {} : { fullUntil }) });
    if (this.counts.size > MAX_TRACKED_TENANTS) {
      const oldest = this.counts.keys().next().value;
      if (oldest !== undefined) this.counts.delete(oldest);
    }
  }
}
