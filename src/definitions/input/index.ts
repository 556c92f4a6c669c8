// Boot-time half of argument preparation: a tool's input schema compiled once (strict variants, alias tables, the
// server-wide switches), which prepareArguments in src/pipeline/input runs every call's arguments through.
export { findAliasConflicts } from './alias-conflicts.js';
export {
  assembleInput,
  type CompiledInput,
  type CompiledVariant,
  type CompileInputConfig,
  compileInput,
  type InputLayout,
  type InputValidation,
  type ZodCompiledInput,
} from './compile-input.js';
export { foldKeyCase } from './fold-key-case.js';
export { BUILT_IN_IGNORED_KEYS, DEFAULT_INPUT_OPTIONS, type InputOptions } from './input-options.js';
export { compileJsonSchemaInput, type JsonSchemaInputCompilation } from './json-schema-input.js';
export {
  type InputObjectSchema,
  type StrictInput,
  type StrictInputVariant,
  strictenInputSchema,
} from './strict-input.js';
