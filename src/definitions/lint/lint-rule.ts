// The lint rules boot runs on definitions, and how one finding is worded: the definition, what is wrong and what to
// do, then the rule id in brackets, the way `kiln lint` prints it and the rules table of docs/concepts/modules-and-di.md names it.

/** Findings that refuse boot (KilnBootError). */
export type LintErrorRule =
  | 'tool-name'
  | 'description-empty'
  | 'field-description'
  | 'reserved-error-key'
  | 'enrichment-output-overlap'
  | 'duplicate-error-reason'
  | 'recovery-too-short'
  | 'enrichment-trailer-render'
  | 'input-unrepresentable';

/** Findings boot logs as warnings; `kiln lint --strict` fails on them too. */
export type LintWarningRule =
  | 'capped-list-no-truncation'
  | 'schema-root-meta-carried'
  | 'schema-root-oneof-portability'
  | 'format-parity'
  | 'tool-name-shape'
  | 'description-shape'
  | 'disabled-tool-reference';

export type LintRule = LintErrorRule | LintWarningRule;

export function lintFinding(where: string, message: string, rule: LintRule): string {
  return `${where}: ${message} [${rule}]`;
}
