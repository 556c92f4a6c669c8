// Compiles an input schema the way boot would, with the default switches unless a test overrides one.
import type { z } from 'zod';
import {
  compileInput,
  DEFAULT_INPUT_OPTIONS,
  type InputOptions,
  type ZodCompiledInput,
} from '../../../src/definitions/input/index.js';

export interface TestCompileOptions {
  readonly aliases?: Record<string, string>;
  readonly options?: Partial<InputOptions>;
}

export function compileForTest<TSchema extends z.ZodType>(
  schema: TSchema,
  { aliases, options }: TestCompileOptions = {},
): ZodCompiledInput<z.output<TSchema>> {
  return compileInput(schema, { toolName: 'search', aliases, options: { ...DEFAULT_INPUT_OPTIONS, ...options } });
}
