// Reads the loader's large files (the chunks, up to 320 KB, and their code caches, up to 450 KB) into memory V8 maps
// itself, so that reading them leaves the C library's allocator as Node's own loading leaves it.
//
// glibc's malloc serves a block over its mmap threshold (128 KB at first) with a mapping of its own, and when such a
// block is freed it raises the threshold to that block's size, and the size of free heap it keeps resident instead
// of giving back to twice that. Read through readFileSync, a chunk (which Node reads into a string that doubles as it
// grows, to 516 KB for the HTTP host's) and a cache each raised it past what loading the SDK does (340 KB): from then
// on every block under 516 KB came from the heap, and up to 1 MB of it freed stayed resident, about 0.6 MB of an HTTP
// server's RSS after boot. A resizable ArrayBuffer's memory is reserved and committed by V8's page allocator, outside
// malloc, and unmapped when the buffer is collected.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** The bytes of the file at `path`, in a buffer V8 maps (not malloc). */
export function readOutsideMalloc(path: string): Uint8Array {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const bytes = new Uint8Array(new ArrayBuffer(size, { maxByteLength: size }));
    let read = 0;
    while (read < size) {
      const got = readSync(fd, bytes, read, size - read, read);
      if (got === 0) break; // the file shrank since fstat
      read += got;
    }
    return read === size ? bytes : bytes.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/** The text of an ASCII file (Latin-1 reads it as UTF-8 would), read outside malloc as `readOutsideMalloc` does. */
export function readAsciiOutsideMalloc(path: string): string {
  const bytes = readOutsideMalloc(path);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}
