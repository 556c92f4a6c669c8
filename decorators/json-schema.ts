// Raw JSON Schema 2020-12 for a tool's `inputSchema` / `outputSchema`, and the handler types Kiln reads off a schema
// literal. Inference covers the plain vocabulary (type, properties, required, items, enum, const); anything it cannot
// read (a `$ref`, composition, a schema not written as a literal) types as `unknown`, never as something narrower.

/** A JSON Schema document as a plain object. Kiln validates it against the 2020-12 meta-schema at boot. */
export interface JsonSchemaObject {
  readonly [keyword: string]: unknown;
}

/** A tool's raw input schema: the spec requires an object root (`type: "object"`). */
export interface JsonInputSchema extends JsonSchemaObject {
  readonly type: 'object';
}

/** A tool's raw output schema: an object root, so Kiln's `{ error }` envelope can sit beside the success fields. */
export interface JsonOutputSchema extends JsonSchemaObject {
  readonly type: 'object';
}

/**
 * The value a JSON Schema literal describes. Write the schema inline in `@Tool(...)` (the decorator reads it as a
 * literal) or with `as const`; a widened schema (`type: string`) reads as `unknown`.
 */
export type FromJsonSchema<S> = S extends { readonly const: infer C }
  ? C
  : S extends { readonly enum: readonly (infer E)[] }
    ? E
    : S extends { readonly type: infer T }
      ? T extends readonly (infer U)[]
        ? FromTypeName<U, S>
        : FromTypeName<T, S>
      : unknown;

type FromTypeName<T, S> = T extends 'string'
  ? string
  : T extends 'integer' | 'number'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'null'
        ? null
        : T extends 'array'
          ? S extends { readonly items: infer I }
            ? FromJsonSchema<I>[]
            : unknown[]
          : T extends 'object'
            ? FromObjectSchema<S>
            : unknown;

type FromObjectSchema<S> = S extends { readonly properties: infer P }
  ? ObjectOf<P, RequiredKeys<S>>
  : Record<string, unknown>;

// A widened `required` (string[]) names no key for certain: every property is then optional.
type RequiredKeys<S> = S extends { readonly required: readonly (infer R)[] } ? (string extends R ? never : R) : never;

type ObjectOf<P, R> = Simplify<
  { -readonly [K in keyof P as K extends R ? K : never]: FromJsonSchema<P[K]> } & {
    -readonly [K in keyof P as K extends R ? never : K]?: FromJsonSchema<P[K]>;
  }
>;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** An object-rooted schema's value: the inferred object, or any object when nothing is inferable. */
export type JsonSchemaValue<S> = FromJsonSchema<S> extends infer T extends object ? T : Record<string, unknown>;
