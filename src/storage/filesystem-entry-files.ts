// The atomic file steps behind the filesystem provider: write by rename, claim by rename, put back by link. They
// throw raw fs errors and CorruptEntryFile; what a client is told is decided by the provider.

import { link, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { nodeCrypto } from '../platform/lazy-builtins.js';
import { isExpired } from './entry-expiry.js';
import { TEMP_DIR_NAME } from './filesystem-layout.js';
import { CorruptEntryFile, decodeRecord, type EntryRecord } from './filesystem-record.js';

/** Stored values may hold anything a handler keeps, so only the server's own user may read them. */
export const ENTRY_FILE_MODE = 0o600;
export const DIRECTORY_MODE = 0o700;

/** What a sweep found at one path. `live` carries the expiry, if any, of the record left in place. */
export type InspectedEntry = { state: 'absent' | 'removed' | 'corrupt' } | { state: 'live'; exp: number | undefined };

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

export class EntryFiles {
  private readonly tempDir: string;

  constructor(
    root: string,
    private readonly now: () => number,
  ) {
    this.tempDir = join(root, TEMP_DIR_NAME);
  }

  /** The file's text, or null when there is none. */
  async readText(path: string): Promise<string | null> {
    try {
      return await readFile(path, 'utf8');
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return null;
      throw error;
    }
  }

  async exists(path: string): Promise<boolean> {
    try {
      await stat(path);
      return true;
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return false;
      throw error;
    }
  }

  /** The live record at `path`, or null; an expired record found here is purged. */
  async readLive(path: string): Promise<EntryRecord | null> {
    const text = await this.readText(path);
    if (text === null) return null;
    const record = decodeRecord(text, path);
    if (!isExpired(record.exp, this.now())) return record;
    await this.purgeExpired(path);
    return null;
  }

  /** Readers see either the old file or the new one, never a partial write: the bytes go to a temp file first. */
  async write(path: string, text: string): Promise<void> {
    const temp = this.tempPath();
    try {
      await this.stage(temp, path, text);
      await rename(temp, path);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  /** Like `write`, but only where no file is: false when one already was (`link` will not replace it). */
  async create(path: string, text: string): Promise<boolean> {
    const temp = this.tempPath();
    try {
      await this.stage(temp, path, text);
      await link(temp, path);
      return true;
    } catch (error) {
      if (errorCode(error) === 'EEXIST') return false;
      throw error;
    } finally {
      await rm(temp, { force: true });
    }
  }

  /** Takes the entry out of place and returns its text, or null when there was none: the atomic step of a take. */
  async claim(path: string): Promise<string | null> {
    const temp = await this.moveAside(path);
    if (temp === null) return null;
    try {
      return await readFile(temp, 'utf8');
    } finally {
      await rm(temp, { force: true });
    }
  }

  /**
   * Removes an entry seen expired. Between that read and the removal another writer may have stored a fresh value, so the claimed file is checked again and a live (or
   * unreadable) one is put back, unless a newer one already took its place.
   */
  async purgeExpired(path: string): Promise<'removed' | 'kept' | 'absent'> {
    const temp = await this.moveAside(path);
    if (temp === null) return 'absent';
    try {
      let expired: boolean;
      try {
        expired = isExpired(decodeRecord(await readFile(temp, 'utf8'), path).exp, this.now());
      } catch (error) {
        if (!(error instanceof CorruptEntryFile)) throw error;
        expired = false;
      }
      if (expired) return 'removed';
      await this.restore(temp, path);
      return 'kept';
    } finally {
      await rm(temp, { force: true });
    }
  }

  /** What a sweep needs to know of one entry, purging it when expired; a corrupt file is left for a person. */
  async inspect(path: string): Promise<InspectedEntry> {
    const text = await this.readText(path);
    if (text === null) return { state: 'absent' };
    let record: EntryRecord;
    try {
      record = decodeRecord(text, path);
    } catch (error) {
      if (error instanceof CorruptEntryFile) return { state: 'corrupt' };
      throw error;
    }
    if (!isExpired(record.exp, this.now())) return { state: 'live', exp: record.exp };
    const outcome = await this.purgeExpired(path);
    // A write that landed mid-purge is put back; its expiry is unknown here, which only makes a quota wait longer.
    return outcome === 'kept' ? { state: 'live', exp: undefined } : { state: outcome };
  }

  /** Writes `text` to the temp file, and makes sure the entry's directory exists for it to move into. */
  private async stage(temp: string, path: string, text: string): Promise<void> {
    await mkdir(this.tempDir, { recursive: true, mode: DIRECTORY_MODE });
    await writeFile(temp, text, { encoding: 'utf8', mode: ENTRY_FILE_MODE, flag: 'wx' });
    await mkdir(dirname(path), { recursive: true, mode: DIRECTORY_MODE });
  }

  private tempPath(): string {
    return join(this.tempDir, `${nodeCrypto().randomUUID()}.tmp`);
  }

  /**
   * Renames the entry file to a fresh temp name and returns that name, or null when there was no file. Rename is
   * atomic, so when several callers (in any process) race for one file, exactly one succeeds; the rest see ENOENT.
   */
  private async moveAside(path: string): Promise<string | null> {
    const temp = this.tempPath();
    try {
      await mkdir(this.tempDir, { recursive: true, mode: DIRECTORY_MODE });
      await rename(path, temp);
      return temp;
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return null;
      throw error;
    }
  }

  /** `link` fails with EEXIST instead of overwriting, so a value written meanwhile is never clobbered. */
  private async restore(temp: string, path: string): Promise<void> {
    try {
      await link(temp, path);
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
    }
  }
}
