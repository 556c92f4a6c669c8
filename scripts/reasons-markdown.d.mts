// Types of reasons-markdown.mjs, for the test that checks the generated page.
export function reasonsMarkdown(
  reasons: Readonly<Record<string, { readonly code: number; readonly meaning: string; readonly recovery: string }>>,
  codeName: (code: number) => string | undefined,
): string;
