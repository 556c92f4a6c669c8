// Scope hierarchies (MCP_AUTH_SCOPE_HIERARCHY): `notes:admin>notes:write,notes:write>notes:read` means a token
// granted notes:admin may do what notes:write and notes:read allow. Applied once, when a token is verified, so every
// check downstream (@Scopes, ctx.requireScopes, tools/list) compares plain sets.

/** Each scope and the scopes it directly implies. */
export type ScopeHierarchy = ReadonlyMap<string, readonly string[]>;

/** Parses `parent>child` pairs; returns the problems found instead of throwing, for one boot error listing all. */
export function parseScopeHierarchy(pairs: readonly string[]): { hierarchy: ScopeHierarchy; problems: string[] } {
  const hierarchy = new Map<string, string[]>();
  const problems: string[] = [];
  for (const pair of pairs) {
    const [parent, child, ...rest] = pair.split('>').map((part) => part.trim());
    if (!parent || !child || rest.length > 0 || /\s/.test(parent + child)) {
      problems.push(`"${pair}" is not a parent>child pair of scope names`);
      continue;
    }
    hierarchy.set(parent, [...(hierarchy.get(parent) ?? []), child]);
  }
  return { hierarchy, problems };
}

/** `granted` plus every scope it implies, transitively; each scope once (a cycle stops where it closes). */
export function expandScopes(granted: Iterable<string>, hierarchy: ScopeHierarchy): string[] {
  const held = new Set<string>();
  const visit = (scope: string): void => {
    if (held.has(scope)) return;
    held.add(scope);
    for (const implied of hierarchy.get(scope) ?? []) visit(implied);
  };
  for (const scope of granted) visit(scope);
  return [...held];
}
