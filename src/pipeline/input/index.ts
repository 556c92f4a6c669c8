// Argument preparation for the tool pipeline: compile a tool's input schema once at boot (compileInput), then run
// every call's arguments through it (prepareArguments).
export { findAliasConflicts } from './alias-conflicts.js';
export type { KeyRewrite } from './apply-key-aliases.js';
export { type CompiledInput, type CompiledVariant, type CompileInputConfig, compileInput } from './compile-input.js';
export { formatIssuePath } from './format-issue-path.js';
export { BUILT_IN_IGNORED_KEYS, DEFAULT_INPUT_OPTIONS, type InputOptions } from './input-options.js';
export type { InputRejection } from './input-rejection.js';
export { type InputEvents, type PreparedArguments, type PreparedInput, prepareArguments } from './prepare-arguments.js';
export {
  type InputObjectSchema,
  type StrictInput,
  type StrictInputVariant,
  strictenInputSchema,
} from './strict-input.js';
