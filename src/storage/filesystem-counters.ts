// Policy counters on the filesystem provider's root: one small JSON file per counter under `.counters/`, named by a
// hash of tenant and key. A change holds the counter's lock file (created exclusively, so across processes too) while
// it reads, changes and renames the new content into place.
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { nodeCrypto } from '../platform/lazy-builtins.js';
import type { CounterChange, CounterRecord, CounterRecords } from './counters.js';
import { DIRECTORY_MODE, ENTRY_FILE_MODE } from './filesystem-entry-files.js';

const COUNTER_DIR = '.counters';
/** A lock older than this was left by a process that died holding it. */
const STALE_LOCK_MS = 10_000;
/** How long a change waits for another one's lock before giving up. */
const LOCK_WAIT_MS = 5_000;

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

export class FilesystemCounters implements CounterRecords {
  private readonly dir: string;

  constructor(root: string) {
    this.dir = join(root, COUNTER_DIR);
  }

  async read(tenantId: string, key: string, now: number): Promise<CounterRecord | undefined> {
    return this.readFile(this.pathOf(tenantId, key), now);
  }

  async update<T>(
    tenantId: string,
    key: string,
    now: number,
    change: (current: CounterRecord | undefined) => CounterChange<T>,
  ): Promise<T> {
    const path = this.pathOf(tenantId, key);
    await mkdir(this.dir, { recursive: true, mode: DIRECTORY_MODE });
    const release = await this.lock(`${path}.lock`);
    try {
      const { next, answer } = change(await this.readFile(path, now));
      if (next) {
        const temp = `${path}.${nodeCrypto().randomBytes(6).toString('hex')}.tmp`;
        await writeFile(temp, JSON.stringify(next), { mode: ENTRY_FILE_MODE, flag: 'wx' });
        await rename(temp, path);
      }
      return answer;
    } finally {
      await release();
    }
  }

  /** Removes expired counters; resolves with how many. */
  async sweep(now: number): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return 0;
      throw error;
    }
    let removed = 0;
    for (const name of names) {
      if (!name.endsWith('.json')) continue;
      const path = join(this.dir, name);
      const record = await this.readFile(path, Number.NEGATIVE_INFINITY);
      if (record && record.expiresAt <= now) {
        // Under the lock, so a change in progress is not undone.
        const release = await this.lock(`${path}.lock`);
        try {
          const again = await this.readFile(path, Number.NEGATIVE_INFINITY);
          if (again && again.expiresAt <= now) {
            await rm(path, { force: true });
            removed++;
          }
        } finally {
          await release();
        }
      }
    }
    return removed;
  }

  private pathOf(tenantId: string, key: string): string {
    const name = nodeCrypto().createHash('sha256').update(tenantId).update('\u0000').update(key).digest('hex');
    return join(this.dir, `${name}.json`);
  }

  private async readFile(path: string, now: number): Promise<CounterRecord | undefined> {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return undefined;
      throw error;
    }
    const record = JSON.parse(text) as CounterRecord;
    return record.expiresAt <= now ? undefined : record;
  }

  private async lock(path: string): Promise<() => Promise<void>> {
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (let wait = 1; ; wait = Math.min(wait * 2, 20)) {
      try {
        const handle = await open(path, 'wx', ENTRY_FILE_MODE);
        await handle.close();
        return () => rm(path, { force: true });
      } catch (error) {
        if (errorCode(error) !== 'EEXIST') throw error;
      }
      const held = await stat(path).catch(() => undefined);
      if (held && Date.now() - held.mtimeMs > STALE_LOCK_MS) {
        await rm(path, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`Timed out waiting for the counter lock ${path}`);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}
