// Input fields whose zod type JSON Schema cannot express. Kiln converts with `unrepresentable: 'any'`, so such a
// field is advertised with no type at all and no JSON argument can ever parse into it (a z.date() wants a Date
// object, and JSON has none): the tool would boot and never be callable. Boot names each one with its fix.
import { z } from 'zod';
import { formatSchemaPath } from './schema-path.js';

export interface UnrepresentableField {
  /** Field path as the other lint findings spell it (`when`, `filter.since`, `ids[]`). */
  readonly path: string;
  /** The zod declaration, as an author wrote it (`z.date()`). */
  readonly declared: string;
  /** What to declare instead. */
  readonly fix: string;
}

const GENERIC_FIX = 'declare the JSON type the caller sends and convert it in the handler';

/** zod def type → how it is written and what to declare instead. */
const UNREPRESENTABLE: Readonly<Record<string, { declared: string; fix: string }>> = {
  date: { declared: 'z.date()', fix: 'declare z.iso.datetime() (or z.iso.date()) and build the Date in the handler' },
  bigint: {
    declared: 'z.bigint()',
    fix: 'declare z.int(), or a digit string (z.string().regex(/^-?\\d+$/)) converted with BigInt() in the handler',
  },
  map: { declared: 'z.map()', fix: 'declare z.record(keySchema, valueSchema)' },
  set: { declared: 'z.set()', fix: 'declare z.array(itemSchema) and de-duplicate in the handler' },
  symbol: { declared: 'z.symbol()', fix: GENERIC_FIX },
  function: { declared: 'z.function()', fix: GENERIC_FIX },
  promise: { declared: 'z.promise()', fix: 'declare the awaited type itself' },
  undefined: { declared: 'z.undefined()', fix: 'make the field .optional() instead' },
  void: { declared: 'z.void()', fix: 'make the field .optional() instead' },
  nan: { declared: 'z.nan()', fix: 'declare z.number() (JSON has no NaN)' },
  custom: { declared: 'z.custom() or z.instanceof()', fix: GENERIC_FIX },
  transform: {
    declared: 'a bare z.transform()',
    fix: 'start from the type the caller sends, then transform it (z.string().transform(...))',
  },
};

export function unrepresentableInputFields(input: z.ZodType): UnrepresentableField[] {
  const found = new Map<string, UnrepresentableField>();
  z.toJSONSchema(input, {
    io: 'input',
    unrepresentable: 'any',
    override: ({ zodSchema, path }) => {
      const def = zodSchema._zod.def;
      const known = def.type === 'literal' ? literalProblem(def as z.core.$ZodLiteralDef<never>) : undefined;
      const entry = known ?? UNREPRESENTABLE[def.type];
      if (!entry) return;
      const field = formatSchemaPath(path);
      // A schema reused in two places is converted once, so it is reported at its first path.
      found.set(`${field}\0${entry.declared}`, { path: field, ...entry });
    },
  });
  return [...found.values()];
}

function literalProblem(def: z.core.$ZodLiteralDef<never>): { declared: string; fix: string } | undefined {
  const values = def.values as readonly unknown[];
  if (values.some((value) => value === undefined)) return UNREPRESENTABLE.undefined;
  if (values.some((value) => typeof value === 'bigint'))
    return { declared: 'a bigint z.literal()', fix: 'declare a number literal' };
  return undefined;
}
