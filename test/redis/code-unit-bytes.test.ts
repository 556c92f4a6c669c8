// The byte form of keys and tenant ids: lossless for every JS string, bytewise order equal to UTF-16 order, and
// never a 0xFF byte (the listing's upper bound relies on it).
import { describe, expect, it } from 'vitest';
import { decodeCodeUnits, encodeCodeUnits } from '../../modules/redis/code-unit-bytes.js';

/** Deterministic strings mixing ASCII, 2- and 3-byte units, surrogate pairs and lone surrogates. */
function sampleStrings(count: number): string[] {
  let seed = 42;
  const next = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed;
  };
  const units = [0x61, 0x7f, 0x80, 0xe9, 0x7ff, 0x800, 0xd7ff, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xe000, 0xfffd, 0xffff];
  return Array.from({ length: count }, () =>
    String.fromCharCode(...Array.from({ length: next() % 6 }, () => units[next() % units.length] as number)),
  );
}

function compareBytes(left: Buffer, right: Buffer): number {
  return Math.sign(Buffer.compare(left, right));
}

function compareUnits(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

describe('encodeCodeUnits', () => {
  const samples = sampleStrings(400);

  it('round-trips every string, lone surrogates included', () => {
    for (const text of samples) expect(decodeCodeUnits(encodeCodeUnits(text))).toBe(text);
  });

  it('orders bytes exactly as JavaScript orders the strings', () => {
    for (let index = 1; index < samples.length; index++) {
      const [left, right] = [samples[index - 1] as string, samples[index] as string];
      expect(compareBytes(encodeCodeUnits(left), encodeCodeUnits(right))).toBe(compareUnits(left, right));
    }
  });

  it('is UTF-8 for strings without surrogates and never emits 0xFF', () => {
    expect(encodeCodeUnits('ü/ä-\uFFFF')).toEqual(Buffer.from('ü/ä-\uFFFF', 'utf8'));
    for (const text of samples) expect(encodeCodeUnits(text).includes(0xff)).toBe(false);
  });
});
