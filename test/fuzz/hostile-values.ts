// Values an agent or an attacker can put in any argument slot: wrong JSON types, huge and exotic strings, numbers at
// the edges, deep structures and objects whose keys name prototype members. All JSON-representable, as on the wire.
import fc from 'fast-check';

/** Keys that reach Object.prototype when code assigns them naively (`target[key] = value`). */
export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf'];

/** Marks a prototype polluted by a call: a property no code should ever find on `{}`. */
export const POLLUTION_MARK = 'kilnFuzzPolluted';

/** Strings that stress decoding, rendering and size limits. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  // Lone surrogates: valid in a JS string and in JSON text, not in UTF-8.
  fc.string({ unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)), maxLength: 8 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\r\n',
    '\u202e',
    'null',
    '{}',
    '%s%n',
    '$' + '{x}',
    '<script>',
    '🦀🦀',
    'e\u0301',
  ),
  fc.integer({ min: 10_000, max: 200_000 }).map((length) => 'x'.repeat(length)),
  fc.integer({ min: 1_000, max: 20_000 }).map((length) => '𝄞'.repeat(length)),
);

export const edgeNumber: fc.Arbitrary<number> = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -1, 1, 0.5, 2 ** 53, -(2 ** 53), Number.MAX_VALUE, Number.MIN_VALUE, 1e308),
);

export const keyName: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...PROTOTYPE_KEYS),
  fc.string({ minLength: 0, maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
);

/** Any JSON value, with the hostile strings and numbers above mixed in. */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    edgeNumber,
    hostileString,
    fc.array(tie('value'), { maxLength: 4 }),
    objectWithKeys(tie('value')),
  ),
})).value;

/** An object whose keys may include prototype member names, set as own properties (as JSON.parse would). */
export function objectWithKeys(values: fc.Arbitrary<unknown>, names: fc.Arbitrary<string> = keyName) {
  return fc.array(fc.tuple(names, values), { maxLength: 4 }).map((entries) => Object.fromEntries(entries));
}

/** A payload that would pollute Object.prototype if merged naively. */
export const pollutingObject: fc.Arbitrary<unknown> = fc
  .constantFrom('__proto__', 'constructor', 'prototype')
  .map((key) =>
    key === 'constructor'
      ? Object.fromEntries([[key, { prototype: { [POLLUTION_MARK]: true } }]])
      : Object.fromEntries([[key, { [POLLUTION_MARK]: true }]]),
  );

/** Nesting `depth` arrays or objects deep. */
export const deepValue: fc.Arbitrary<unknown> = fc
  .tuple(fc.integer({ min: 16, max: 400 }), fc.boolean())
  .map(([depth, arrays]) => {
    let value: unknown = 'bottom';
    for (let level = 0; level < depth; level++) value = arrays ? [value] : { nested: value };
    return value;
  });
