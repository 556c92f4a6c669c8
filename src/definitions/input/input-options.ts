// The server-wide switches of the input edge (`createApp({ input })`) and the client-added keys the drop stage
// knows without being told. There is no per-tool switch: a client artifact looks the same to every tool.

export interface InputOptions {
  /** Extra client-added root keys to drop, on top of the built-in list; `false` turns the drop stage off. */
  readonly ignoreKeys: readonly string[] | false;
  /** Rewrite an undeclared key whose case-folded form names exactly one declared key (`max_results` → `maxResults`). */
  readonly caseStyleAliases: boolean;
  /** Repair a stringified array/object or an integer sent for a string, at the paths a failed parse names. */
  readonly coerce: boolean;
}

/** Keys clients are known to put inside `arguments` that the model never wrote and cannot remove. */
export const BUILT_IN_IGNORED_KEYS: readonly string[] = Object.freeze(['_meta', 'tool_call_description', 'toolCallId']);

export const DEFAULT_INPUT_OPTIONS: InputOptions = Object.freeze({
  ignoreKeys: Object.freeze([]),
  caseStyleAliases: true,
  coerce: true,
});
