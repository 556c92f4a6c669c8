// The guide "A project of your own" (docs/guide/new-project.md) and `kiln new` describe one setup: the tsconfig.json
// and vitest.config.ts the guide shows are the template's files, and the scaffold has the scripts and files it names.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newCommand } from '../../src/cli/new-command.js';

const root = join(import.meta.dirname, '..', '..');
const template = (file: string) => readFileSync(join(root, 'templates', 'new-project', file), 'utf8');
const section = readFileSync(join(root, 'docs', 'guide', 'new-project.md'), 'utf8');
const block = (language: string) => new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``).exec(section)?.[1];
const scratch = mkdtempSync(join(tmpdir(), 'kiln-starter-'));

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('Starting your own project', () => {
  it('shows the tsconfig.json kiln new writes', () => {
    expect(JSON.parse(block('json') ?? 'null')).toEqual(JSON.parse(template('tsconfig.json')));
  });

  it('shows the vitest.config.ts kiln new writes, with the Oxc decorator options this repository uses', () => {
    expect(block('ts')).toBe(template('vitest.config.ts'));
    expect(template('vitest.config.ts')).toContain('oxc: { decorator: { legacy: true, emitDecoratorMetadata: true } }');
    expect(readFileSync(join(root, 'vitest.config.ts'), 'utf8')).toContain(
      'oxc: { decorator: { legacy: true, emitDecoratorMetadata: true } }',
    );
  });

  it('names the scripts and files the scaffold has', async () => {
    const result = await newCommand(['starter', '--dir', scratch]);
    expect(result.exitCode).toBe(0);
    const project = join(scratch, 'starter');
    const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
    expect(Object.keys(manifest.scripts)).toEqual(['build', 'start', 'dev', 'test', 'lint', 'inspect', 'bundle']);
    for (const script of Object.keys(manifest.scripts)) expect(section).toContain(`\`${script}\``);
    for (const file of ['tsconfig.json', 'tsconfig.build.json', 'vitest.config.ts', 'README.md', '.gitignore']) {
      expect(existsSync(join(project, file)), file).toBe(true);
    }
    expect(Object.keys(manifest.devDependencies)).toEqual(['@types/node', 'rolldown', 'typescript', 'vite', 'vitest']);
    expect(manifest.dependencies).toEqual({ 'mcp-kiln': expect.stringMatching(/^\^/), zod: expect.any(String) });
  });
});
