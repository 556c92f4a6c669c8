// Strings as bytes whose order is the strings' UTF-16 code unit order, the order the StorageProvider contract lists
// in. Redis compares keys and sorted-set members bytewise; UTF-8 sorts by code point instead, which differs for
// characters above U+FFFF, and it cannot carry a lone surrogate, so two distinct keys could collapse into one.

/** A surrogate's 3-byte form starts with 0xED followed by 0xA0..0xBF; no other encoded unit does. */
const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * Each UTF-16 code unit written as UTF-8 would write that value (surrogates included, as CESU-8 does), so the
 * encoding is UTF-8 itself for any string without surrogates. It never produces the byte 0xFF, which makes
 * `encoded + 0xFF` an upper bound for every string starting with `encoded`.
 */
export function encodeCodeUnits(text: string): Buffer {
  if (!SURROGATE.test(text)) return Buffer.from(text, 'utf8');
  const bytes: number[] = [];
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit < 0x80) {
      bytes.push(unit);
    } else if (unit < 0x800) {
      bytes.push(0xc0 | (unit >> 6), 0x80 | (unit & 0x3f));
    } else {
      bytes.push(0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f));
    }
  }
  return Buffer.from(bytes);
}

function hasSurrogateUnit(bytes: Buffer): boolean {
  for (let index = bytes.indexOf(0xed); index >= 0; index = bytes.indexOf(0xed, index + 1)) {
    const next = bytes[index + 1];
    if (next !== undefined && next >= 0xa0) return true;
  }
  return false;
}

/** The inverse of `encodeCodeUnits`. */
export function decodeCodeUnits(bytes: Buffer): string {
  if (!hasSurrogateUnit(bytes)) return bytes.toString('utf8');
  let text = '';
  for (let index = 0; index < bytes.length; ) {
    const lead = bytes[index] ?? 0;
    if (lead < 0x80) {
      text += String.fromCharCode(lead);
      index += 1;
    } else if (lead < 0xe0) {
      text += String.fromCharCode(((lead & 0x1f) << 6) | ((bytes[index + 1] ?? 0) & 0x3f));
      index += 2;
    } else {
      const unit = ((lead & 0x0f) << 12) | (((bytes[index + 1] ?? 0) & 0x3f) << 6) | ((bytes[index + 2] ?? 0) & 0x3f);
      text += String.fromCharCode(unit);
      index += 3;
    }
  }
  return text;
}
