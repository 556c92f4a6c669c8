// Makes a tool's input root reject unknown keys: `.strict()` on a z.object root, per variant on a discriminated
// union. A silently stripped key turns a caller's typo into a wrong answer, so the stored schema is the strict one.
import { z } from 'zod';

/** A z.object of any shape and unknown-key mode. */
export type InputObjectSchema = z.ZodObject<z.core.$ZodShape, z.core.$ZodObjectConfig>;

export interface StrictInputVariant {
  /** The variant as stored: strictened, or the author's own schema when it was already strict or opened. */
  readonly schema: InputObjectSchema;
  /** Declared keys, in declaration order. */
  readonly keys: readonly string[];
  /** The author declared `.passthrough()` / `.loose()` / `.catchall(x)`: unknown keys are wanted, not errors. */
  readonly authorOpened: boolean;
  /** The discriminator values that select this variant (empty for an object root). */
  readonly discriminatorValues: readonly unknown[];
}

export interface StrictInput {
  readonly schema: z.ZodType;
  readonly root: 'object' | 'discriminatedUnion';
  readonly discriminator: string | undefined;
  /** One entry for an object root; one per option, in order, for a discriminated union. */
  readonly variants: readonly StrictInputVariant[];
  /**
   * Where `.describe()` / `.meta()` sat on an instance that strictening replaced (`'root'`, `'variant 1'`). Zod keys
   * metadata to the instance, so `.strict()` alone would discard it; it was copied onto the strict clone. Reported
   * so the linter can still advise declaring `.strict()` before `.describe()` (schema-root-meta-discarded).
   */
  readonly metaCarried: readonly string[];
}

/** @throws TypeError when the root is neither z.object nor z.discriminatedUnion of z.object variants. */
export function strictenInputSchema(schema: z.ZodType): StrictInput {
  if (schema instanceof z.ZodObject) {
    const variant = strictenObject(schema as InputObjectSchema, []);
    return {
      schema: variant.schema,
      root: 'object',
      discriminator: undefined,
      variants: [variant],
      metaCarried: variant.carried ? ['root'] : [],
    };
  }
  if (schema instanceof z.ZodDiscriminatedUnion) {
    return strictenUnion(schema);
  }
  if (schema instanceof z.ZodUnion) {
    throw new TypeError(
      'Input root must be z.object(...) or z.discriminatedUnion(...); a bare z.union has no discriminator for the model to choose a branch by',
    );
  }
  throw new TypeError(
    `Input root must be z.object(...) or z.discriminatedUnion(...); got a ${schema._zod.def.type} schema, which has no named arguments`,
  );
}

function strictenUnion(union: z.ZodDiscriminatedUnion): StrictInput {
  const def = union._zod.def;
  const metaCarried: string[] = [];
  const variants = def.options.map((option, index) => {
    if (!(option instanceof z.ZodObject)) {
      throw new TypeError(
        `Each variant of a discriminated-union input root must be z.object(...); variant ${index} is a ${option._zod.def.type} schema`,
      );
    }
    const values = option._zod.propValues?.[def.discriminator];
    const variant = strictenObject(option as InputObjectSchema, values ? [...values] : []);
    if (variant.carried) metaCarried.push(`variant ${index}`);
    return variant;
  });
  const changed = variants.some((variant, index) => variant.schema !== def.options[index]);
  let rebuilt: z.ZodType = union;
  if (changed) {
    // Cloning the def (not calling z.discriminatedUnion again) keeps the union's own checks and error settings.
    rebuilt = union.clone({ ...def, options: variants.map((variant) => variant.schema) } as typeof def);
    if (carryMeta(union, rebuilt)) metaCarried.unshift('root');
  }
  return {
    schema: rebuilt,
    root: 'discriminatedUnion',
    discriminator: def.discriminator,
    variants: variants.map(({ carried: _carried, ...variant }) => variant),
    metaCarried,
  };
}

function strictenObject(
  schema: InputObjectSchema,
  discriminatorValues: readonly unknown[],
): StrictInputVariant & { carried: boolean } {
  const catchall = schema._zod.def.catchall;
  const keys = Object.keys(schema._zod.def.shape);
  // undefined is zod's default strip mode; a ZodNever catchall is `.strict()` already.
  if (catchall !== undefined) {
    const authorOpened = !(catchall instanceof z.ZodNever);
    return { schema, keys, authorOpened, discriminatorValues, carried: false };
  }
  const strict = schema.strict() as InputObjectSchema;
  const carried = carryMeta(schema, strict);
  return { schema: strict, keys, authorOpened: false, discriminatorValues, carried };
}

/** Registers `from`'s metadata on the fresh clone `to`; reports whether there was any to carry. */
function carryMeta(from: z.ZodType, to: z.ZodType): boolean {
  const meta = z.globalRegistry.get(from);
  if (meta === undefined) return false;
  z.globalRegistry.add(to, { ...meta });
  return true;
}
