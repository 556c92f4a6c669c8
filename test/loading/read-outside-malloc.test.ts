// Reading the loader's files outside malloc: the bytes and text come back as readFileSync gives them, in a buffer V8
// maps itself (a resizable ArrayBuffer), whatever the file's size.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readAsciiOutsideMalloc, readOutsideMalloc } from '../../src/loading/read-outside-malloc.js';

const scratch = mkdtempSync(join(tmpdir(), 'kiln-read-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function file(name: string, content: string | Uint8Array): string {
  const path = join(scratch, name);
  writeFileSync(path, content);
  return path;
}

describe('readOutsideMalloc', () => {
  it('reads a file larger than the mmap threshold byte for byte into a resizable ArrayBuffer', () => {
    const path = file('cache.bin', randomBytes(300 * 1024 + 7));
    const bytes = readOutsideMalloc(path);
    expect(bytes.buffer).toBeInstanceOf(ArrayBuffer);
    expect((bytes.buffer as ArrayBuffer).resizable).toBe(true);
    expect(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).equals(readFileSync(path))).toBe(true);
  });

  it('reads an empty file as no bytes', () => {
    expect(readOutsideMalloc(file('empty.bin', '')).byteLength).toBe(0);
  });

  it('fails as readFileSync does on a file that is not there', () => {
    expect(() => readOutsideMalloc(join(scratch, 'absent.bin'))).toThrow(/ENOENT/);
  });
});

describe('readAsciiOutsideMalloc', () => {
  it('gives the text of an ASCII file as reading it as UTF-8 does', () => {
    const text = `${'export const x = "kiln";\n'.repeat(8000)}/* \\u00e9 escaped */\n`;
    const path = file('chunk.js', text);
    expect(readAsciiOutsideMalloc(path)).toBe(readFileSync(path, 'utf8'));
    expect(readAsciiOutsideMalloc(path)).toBe(text);
  });
});
