// @Tool(name, options): declares a class as an MCP tool. The class's `handle(input, ctx)` is type-checked against
// the input and output schemas here, so a handler that cannot accept the parsed input does not compile.
import type { z } from 'zod';
import { defineMetadata, TOOL_METADATA } from './metadata-keys.js';

export interface ToolAnnotations {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

export type ToolInputSchema = z.ZodObject | z.ZodDiscriminatedUnion;

export interface ToolOptions<
  I extends ToolInputSchema = ToolInputSchema,
  O extends z.ZodObject | undefined = undefined,
> {
  readonly title?: string;
  /** One cohesive paragraph telling the model when and how to use the tool. */
  readonly description: string;
  readonly annotations?: ToolAnnotations;
  readonly input: I;
  /** The success payload, mirrored as `structuredContent`. Omit for content-only tools. */
  readonly output?: O;
  readonly icons?: readonly { src: string; mimeType?: string; sizes?: string[] }[];
  readonly _meta?: Record<string, unknown>;
}

export interface ToolMetadata {
  readonly name: string;
  readonly options: ToolOptions<ToolInputSchema, z.ZodObject | undefined>;
}

type MaybePromise<T> = T | Promise<T>;

/** What a content-only tool (no `output`) may return. */
export type ToolContentReturn = string | readonly { type: string }[];

type HandleReturn<O> = O extends z.ZodObject ? z.input<O> : ToolContentReturn;

/**
 * The instance shape a tool class must have for these schemas. Function-typed properties, not methods: TypeScript
 * checks method parameters bivariantly, which would accept a `handle` demanding fields the schema never parses.
 */
export interface ToolInstance<I extends ToolInputSchema, O extends z.ZodObject | undefined> {
  readonly handle: (input: z.output<I>, ctx: never) => MaybePromise<HandleReturn<O>>;
  readonly format?: (result: O extends z.ZodObject ? z.output<O> : never) => string | readonly { type: string }[];
}

export function Tool<I extends ToolInputSchema, O extends z.ZodObject | undefined = undefined>(
  name: string,
  options: ToolOptions<I, O>,
): (target: new (...args: never[]) => ToolInstance<I, O>) => void {
  return (target) => defineMetadata(TOOL_METADATA, { name, options } satisfies ToolMetadata, target);
}
