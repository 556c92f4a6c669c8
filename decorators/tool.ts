// @Tool(name, options): declares a class as an MCP tool. The class's `handle(input, ctx)` is type-checked against
// the input and output schemas here, so a handler that cannot accept the parsed input does not compile. The input is
// zod (`input`) or raw JSON Schema 2020-12 (`inputSchema`), and so is the output (`output` / `outputSchema`).
import type { z } from 'zod';
import type { JsonInputSchema, JsonOutputSchema, JsonSchemaValue } from './json-schema.js';
import { defineMetadata, TOOL_METADATA } from './metadata-keys.js';
import type { ToolUiOptions } from './ui-resource.js';

export interface ToolAnnotations {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

export type ToolInputSchema = z.ZodObject | z.ZodDiscriminatedUnion;

export interface ToolOptions<
  I extends ToolInputSchema | undefined = ToolInputSchema,
  O extends z.ZodObject | undefined = undefined,
  J extends JsonInputSchema | undefined = undefined,
  K extends JsonOutputSchema | undefined = undefined,
> {
  readonly title?: string;
  /** One cohesive paragraph telling the model when and how to use the tool. */
  readonly description: string;
  readonly annotations?: ToolAnnotations;
  /** The arguments as zod, strictened and advertised as JSON Schema. Declare this or `inputSchema`, not both. */
  readonly input?: I;
  /**
   * The arguments as a raw JSON Schema 2020-12 object schema, advertised verbatim and validated with Ajv. Written
   * inline (or `as const`), it also types the handler's input.
   */
  readonly inputSchema?: J;
  /** The success payload, mirrored as `structuredContent`. Omit both output options for content-only tools. */
  readonly output?: O;
  /** The success payload as a raw JSON Schema 2020-12 object schema; advertised widened by the `{ error }` envelope. */
  readonly outputSchema?: K;
  readonly icons?: readonly { src: string; mimeType?: string; sizes?: string[] }[];
  /**
   * The MCP Apps view hosts render for this tool: a `ui://` URI some module serves with `uiResource(...)`, or that
   * URI with the tool's visibility. Advertised as `_meta.ui` to clients that declare the extension.
   */
  readonly ui?: string | ToolUiOptions;
  readonly _meta?: Record<string, unknown>;
  /**
   * Runs the call as a task (the 2026-07-28 Tasks extension) for clients that declare it: `'optional'` serves other
   * clients synchronously, `'required'` refuses them with -32021. The names are the extension's
   * `execution.taskSupport` values. See {@link ToolTaskOptions} for a handler that starts the task itself.
   */
  readonly task?: ToolTaskSupport | ToolTaskOptions;
  /**
   * Lets callers retry the tool safely with an idempotency key (`_meta["mcp-kiln/idempotency-key"]`): the first call
   * with a key runs, its result is stored per tenant, caller and key for `ttlMs` (24 h by default) on the app's
   * storage backend, and every retry with the key gets that result without running the handler again, on any
   * instance. A call without a key runs as usual. Not for task tools.
   */
  readonly idempotent?: boolean | { readonly ttlMs?: number };
  /**
   * The most bytes (UTF-8, as the blocks are sent) the result's content[] may carry; beyond it the content is cut
   * and a block says so, rather than megabytes reaching a model. structuredContent, bound by the output schema, is
   * sent whole. Overrides createApp's `maxResultBytes`; 1024 to 67108864.
   */
  readonly maxResultBytes?: number;
}

/** The extension's `execution.taskSupport` values a tool can declare. */
export type ToolTaskSupport = 'optional' | 'required';

export interface ToolTaskOptions {
  readonly support: ToolTaskSupport;
  /**
   * When the task is created: `'call'` (the default) before the handler runs; `'handler'` when the handler calls
   * `await ctx.startTask()`, so it can first ask for input in ordinary rounds and return at once when there is no
   * long work to do.
   */
  readonly start?: 'call' | 'handler';
}

export interface ToolMetadata {
  readonly name: string;
  readonly options: ToolOptions<
    ToolInputSchema | undefined,
    z.ZodObject | undefined,
    JsonInputSchema | undefined,
    JsonOutputSchema | undefined
  >;
}

type MaybePromise<T> = T | Promise<T>;

/** What a content-only tool (no `output`) may return. */
export type ToolContentReturn = string | readonly { type: string }[];

/** What the handler receives: zod's parsed output, or the value a raw schema describes. */
type InputOf<I, J> = I extends ToolInputSchema ? z.output<I> : J extends JsonInputSchema ? JsonSchemaValue<J> : never;

type HandleReturn<O, K> = O extends z.ZodObject
  ? z.input<O>
  : K extends JsonOutputSchema
    ? JsonSchemaValue<K>
    : ToolContentReturn;

type FormatInput<O, K> = O extends z.ZodObject ? z.output<O> : K extends JsonOutputSchema ? JsonSchemaValue<K> : never;

/**
 * The instance shape a tool class must have for these schemas. Function-typed properties, not methods: TypeScript
 * checks method parameters bivariantly, which would accept a `handle` demanding fields the schema never parses.
 */
export interface ToolInstance<I, O, J = undefined, K = undefined> {
  readonly handle: (input: InputOf<I, J>, ctx: never) => MaybePromise<HandleReturn<O, K>>;
  readonly format?: (result: FormatInput<O, K>) => string | readonly { type: string }[];
}

/** Neither `input` nor `inputSchema` given: ask for one of them (declaring both is caught at boot). */
type DeclaresInput<I, J> = [I, J] extends [undefined, undefined]
  ? { readonly input: ToolInputSchema } | { readonly inputSchema: JsonInputSchema }
  : unknown;

export function Tool<
  I extends ToolInputSchema | undefined = undefined,
  O extends z.ZodObject | undefined = undefined,
  const J extends JsonInputSchema | undefined = undefined,
  const K extends JsonOutputSchema | undefined = undefined,
>(
  name: string,
  options: ToolOptions<I, O, J, K> & DeclaresInput<I, J>,
): (target: new (...args: never[]) => ToolInstance<I, O, J, K>) => void {
  return (target) => defineMetadata(TOOL_METADATA, { name, options } satisfies ToolMetadata, target);
}
