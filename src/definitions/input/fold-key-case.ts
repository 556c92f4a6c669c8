// The case-style folding behind `caseStyleAliases`: `max_results`, `Max-Results` and `MAXRESULTS` all fold to
// `maxresults`, so each reaches a declared `maxResults`. Shared by boot (folded key maps) and the alias stage.

export function foldKeyCase(key: string): string {
  return key.replace(/[-_]/g, '').toLowerCase();
}
