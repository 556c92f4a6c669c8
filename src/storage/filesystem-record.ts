// The on-disk form of one filesystem entry, `{ v, exp? }` as JSON, and the error for a file that is not one. That
// error names the path for the log; the provider turns it into a client-facing `storage_corrupt` without it.

export interface EntryRecord {
  v: string;
  exp?: number;
}

export class CorruptEntryFile extends Error {
  constructor(
    readonly path: string,
    problem: string,
    options?: { cause?: unknown },
  ) {
    super(`Corrupt storage entry ${path}: ${problem}`, options);
    this.name = 'CorruptEntryFile';
  }
}

export function encodeRecord(value: string, exp: number | undefined): string {
  const record: EntryRecord = exp === undefined ? { v: value } : { v: value, exp };
  return JSON.stringify(record);
}

/** The record a file holds; throws CorruptEntryFile when the text is not one. */
export function decodeRecord(text: string, path: string): EntryRecord {
  let record: unknown;
  try {
    record = JSON.parse(text);
  } catch (error) {
    throw new CorruptEntryFile(path, 'not JSON', { cause: error });
  }
  const candidate = record as Partial<EntryRecord> | null;
  if (
    typeof candidate !== 'object' ||
    candidate === null ||
    typeof candidate.v !== 'string' ||
    (candidate.exp !== undefined && typeof candidate.exp !== 'number')
  ) {
    throw new CorruptEntryFile(path, 'expected { v: string, exp?: number }');
  }
  return { v: candidate.v, ...(candidate.exp === undefined ? {} : { exp: candidate.exp }) };
}
