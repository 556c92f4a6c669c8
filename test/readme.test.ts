// The README's TypeScript examples must compile: each ```ts block has to appear, line for line, in a file under
// examples/ or templates/ (indentation aside), which `npm test` type-checks and builds.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');

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

describe('README examples', () => {
  it('has TypeScript examples to check', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(5);
  });

  it.each(blocks.map((block, index) => [index + 1, block] as const))(
    'block %i appears verbatim in examples/ or templates/',
    (_n, block) => {
      const wanted = normalise(block);
      const home = examples.find((example) => example.text.includes(wanted));
      expect(home, `README block not found in any examples/ or templates/ file:\n${wanted}`).toBeDefined();
    },
  );
});
