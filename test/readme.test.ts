// The TypeScript examples of the README and the documentation must compile: each ```ts block has to appear, line for
// line, in a file under examples/ or templates/ (indentation aside), which `npm test` type-checks and builds.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

/** The README and every page of the docs site (the generated API pages aside). */
function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name.startsWith('.') || name === 'api' ? [] : markdownFiles(path);
    return path.endsWith('.md') ? [path] : [];
  });
}

const pages = [join(root, 'README.md'), ...markdownFiles(join(root, 'docs'))];
const blocks = pages.flatMap((page) =>
  [...readFileSync(page, 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map(
    (match) => [relative(root, page), match[1] ?? ''] as const,
  ),
);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

const normalise = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.trim() !== '')
    .join('\n');

const examples = ['examples', 'templates']
  .flatMap((folder) => sourceFiles(join(root, folder)))
  .map((path) => ({
    path,
    text: normalise(readFileSync(path, 'utf8')),
  }));

describe('README and docs examples', () => {
  it('has TypeScript examples to check', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(30);
    expect(pages.map((page) => relative(root, page))).toContain('docs/guide/tools.md');
  });

  it.each(blocks.map(([page, block], index) => [page, index + 1, block] as const))(
    '%s: block %i appears verbatim in examples/ or templates/',
    (page, _n, block) => {
      const wanted = normalise(block);
      const home = examples.find((example) => example.text.includes(wanted));
      expect(home, `${page}: block not found in any examples/ or templates/ file:\n${wanted}`).toBeDefined();
    },
  );
});
