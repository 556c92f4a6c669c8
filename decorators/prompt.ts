// @Prompt(name, options): a prompt template. `handle(args, ctx)` returns its messages (a string is one user text
// message); an optional `complete(argument, value, context)` feeds `completion/complete`.
import type { z } from 'zod';
import { defineMetadata, PROMPT_METADATA } from './metadata-keys.js';

export interface PromptOptions<A extends z.ZodObject | undefined = undefined> {
  readonly title?: string;
  readonly description: string;
  /** String arguments; each field needs `.describe()`. */
  readonly args?: A;
}

export interface PromptMetadata {
  readonly name: string;
  readonly options: PromptOptions<z.ZodObject | undefined>;
}

export interface PromptMessage {
  readonly role: 'user' | 'assistant';
  readonly content:
    | { readonly type: 'text'; readonly text: string }
    | { readonly type: 'image' | 'audio'; readonly data: string; readonly mimeType: string }
    | {
        readonly type: 'resource';
        readonly resource: { uri: string; mimeType?: string; text?: string; blob?: string };
      };
}

export type PromptReturn =
  | string
  | readonly PromptMessage[]
  | { readonly description?: string; readonly messages: readonly PromptMessage[] };

type MaybePromise<T> = T | Promise<T>;

// Function-typed properties, not methods: TypeScript checks them strictly (see ToolInstance).
export interface PromptInstance<A extends z.ZodObject | undefined> {
  readonly handle: (
    args: A extends z.ZodObject ? z.output<A> : Record<string, never>,
    ctx: never,
  ) => MaybePromise<PromptReturn>;
  complete?(
    argument: string,
    value: string,
    context: { arguments: Record<string, string> },
  ): MaybePromise<readonly string[]>;
}

export function Prompt<A extends z.ZodObject | undefined = undefined>(
  name: string,
  options: PromptOptions<A>,
): (target: new (...args: never[]) => PromptInstance<A>) => void {
  return (target) => defineMetadata(PROMPT_METADATA, { name, options } satisfies PromptMetadata, target);
}
