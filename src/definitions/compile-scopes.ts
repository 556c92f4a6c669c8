// A definition's @Scopes as the runtime checks it: scope names validated against the OAuth grammar at boot (they
// go into WWW-Authenticate challenges and the protected resource metadata verbatim), duplicates dropped.
import { readMetadata, SCOPES_METADATA } from '../../decorators/metadata-keys.js';
import type { ScopeRequirement } from '../../decorators/scopes.js';
import type { Constructor } from '../../decorators/types.js';
import type { LintFindings } from './lint/tool-lint.js';

// RFC 6749 §3.3 scope-token: printable ASCII except space, `"` and `\`.
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

export function compileScopes(
  definitionClass: Constructor,
  where: string,
  findings: LintFindings,
): ScopeRequirement | undefined {
  const metadata = readMetadata<ScopeRequirement>(SCOPES_METADATA, definitionClass);
  if (!metadata) return undefined;
  const scopes = [...new Set(metadata.scopes)];
  if (scopes.length === 0) {
    findings.errors.push(`${where}: @Scopes lists no scope; name at least one, or remove the decorator.`);
    return undefined;
  }
  const invalid = scopes.filter((scope) => typeof scope !== 'string' || !SCOPE_TOKEN.test(scope));
  if (invalid.length > 0) {
    findings.errors.push(
      `${where}: @Scopes has invalid scope names ${invalid.map((scope) => JSON.stringify(scope)).join(', ')}: a scope ` +
        'is printable ASCII without spaces, double quotes or backslashes.',
    );
    return undefined;
  }
  return Object.freeze({ mode: metadata.mode, scopes: Object.freeze(scopes) });
}
