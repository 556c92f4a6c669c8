// One spelling for an argument path, shared by the rejection message, the coerced-path events and output checks:
// `filters.status`, `ids[0]`; the root is the empty string.

export function formatIssuePath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else text += text === '' ? String(segment) : `.${String(segment)}`;
  }
  return text;
}
