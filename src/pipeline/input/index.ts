// Request-time half of argument preparation: every call's arguments run through the tool's compiled input
// (src/definitions/input) in the order add-tool.md fixes: drop → alias → parse → repair.

export { formatIssuePath } from '../../definitions/input/format-issue-path.js';
export type { KeyRewrite } from './apply-key-aliases.js';
export type { InputRejection } from './input-rejection.js';
export { type InputEvents, type PreparedArguments, type PreparedInput, prepareArguments } from './prepare-arguments.js';
