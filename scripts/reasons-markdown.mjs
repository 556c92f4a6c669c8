// The reasons reference page (docs/reference/reasons.md), rendered from the reasons table in src/errors/reasons.ts:
// `npm run docs:reference` writes it, test/docs/reference-pages.test.ts fails when the page is not what the table says.

/** @param {Record<string, {code: number, meaning: string, recovery: string}>} reasons @param {(code: number) => string | undefined} codeName */
export function reasonsMarkdown(reasons, codeName) {
  const cell = (text) => text.replaceAll('|', '\\|');
  const rows = Object.entries(reasons).map(
    ([reason, entry]) =>
      `| \`${reason}\` | ${entry.code} ${codeName(entry.code) ?? ''} | ${cell(entry.meaning)} | ${cell(entry.recovery)} |`,
  );
  return [
    '# Error reasons',
    '',
    '<!-- Generated from src/errors/reasons.ts by `npm run docs:reference`; do not edit by hand. -->',
    '',
    "Every error Kiln itself raises carries one of these `data.reason` strings (a tool's own reasons come from its",
    '`@Errors` contract). Clients may match on them: they are pinned by a test and change only deliberately.',
    '`kilnError(reason, message)` from `mcp-kiln/errors` raises one with its code and the hint below as',
    '`data.recovery.hint`, unless the throw site gives a better one.',
    '',
    '| reason | code | meaning | default recovery hint |',
    '| --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
}
