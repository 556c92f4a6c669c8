// Cache hints (2026-07-28 `ttlMs` / `cacheScope`) checked at boot, so a bad hint stops boot instead of producing
// results a client's cache rejects.
import type { CacheHint } from '../../decorators/resource.js';
import type { LintFindings } from './lint/tool-lint.js';

export function cacheHintProblem(hint: CacheHint): string | undefined {
  if (hint.ttlMs !== undefined && !(Number.isSafeInteger(hint.ttlMs) && hint.ttlMs >= 0)) {
    return `ttlMs must be a non-negative integer number of milliseconds (got ${hint.ttlMs})`;
  }
  if (hint.cacheScope !== undefined && hint.cacheScope !== 'public' && hint.cacheScope !== 'private') {
    return `cacheScope must be 'public' or 'private' (got ${JSON.stringify(hint.cacheScope)})`;
  }
  return undefined;
}

export function checkedCacheHint(
  hint: CacheHint | undefined,
  where: string,
  findings: LintFindings,
): CacheHint | undefined {
  if (!hint) return undefined;
  const problem = cacheHintProblem(hint);
  if (problem) findings.errors.push(`${where}: cacheHint ${problem}.`);
  return hint;
}
