// A project compiled the way `nest new` compiles, with the packed Kiln installed: CommonJS (no "type" in package.json),
// `module: commonjs` (so TypeScript resolves the node10 way, through typesVersions), decorators with metadata. Its
// tsc must read Kiln's CommonJS declarations, its compiled output must run with node, and its own Vitest test must
// pass.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { promisify, stripVTControlCharacters } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKilnProcess } from '../support/kiln-process.js';
import { npm, packKiln, REPO } from '../support/packed-kiln.js';

const run = promisify(execFile);

const repoManifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

const compilerOptions = {
  module: 'commonjs',
  target: 'ES2023',
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  strict: true,
  skipLibCheck: true,
  outDir: 'dist',
};

/** The project as its author wrote it: a module, a service, a tool that injects it, an entry and a test. */
const PROJECT: Readonly<Record<string, string>> = {
  'package.json': JSON.stringify({ name: 'commonjs-consumer', version: '1.0.0', private: true }, null, 2),
  'tsconfig.json': JSON.stringify({ compilerOptions, include: ['src'] }, null, 2),
  'tsconfig.build.json': JSON.stringify({ extends: './tsconfig.json', exclude: ['src/**/*.test.ts'] }, null, 2),
  // The same project read the nodenext way: a CommonJS package, so the exports' `require` condition and its types.
  'tsconfig.nodenext.json': JSON.stringify(
    { compilerOptions: { ...compilerOptions, module: 'nodenext', noEmit: true }, include: ['src'] },
    null,
    2,
  ),
  'vitest.config.ts': `import { defineConfig } from 'vitest/config';

export default defineConfig({
  oxc: { decorator: { legacy: true, emitDecoratorMetadata: true } },
  test: { include: ['src/**/*.test.ts'] },
});
`,
  'src/word-counter.service.ts': `import { Injectable } from 'mcp-kiln';

@Injectable()
export class WordCounter {
  count(text: string): number {
    return text.split(/\\s+/).filter(Boolean).length;
  }
}
`,
  'src/count-words.tool.ts': `import { type HandlerContext, Tool } from 'mcp-kiln';
import { z } from 'zod';
import { WordCounter } from './word-counter.service';

const Input = z.object({ text: z.string().describe('The text to count') });
const Output = z.object({ words: z.number().int().describe('How many words') });

@Tool('count_words', { description: 'Count the words of a text.', input: Input, output: Output })
export class CountWordsTool {
  constructor(private readonly counter: WordCounter) {}

  handle(input: z.output<typeof Input>, ctx: HandlerContext) {
    ctx.log.info('Counting', { length: input.text.length });
    return { words: this.counter.count(input.text) };
  }
}
`,
  'src/app.module.ts': `import { Module } from 'mcp-kiln';
import { CountWordsTool } from './count-words.tool';
import { WordCounter } from './word-counter.service';

@Module({ providers: [WordCounter], tools: [CountWordsTool] })
export class AppModule {}
`,
  // No top-level await in CommonJS: the entry starts the app and lets a failure end the process.
  'src/main.ts': `import { createApp } from 'mcp-kiln';
import { AppModule } from './app.module';

void createApp(AppModule, { name: 'commonjs-consumer', version: '1.0.0' });
`,
  'src/count-words.tool.test.ts': `import { createTestingModule } from 'mcp-kiln/testing';
import { describe, expect, it } from 'vitest';
import { AppModule } from './app.module';
import { WordCounter } from './word-counter.service';

describe('count_words', () => {
  it('counts through the injected service', async () => {
    const app = await createTestingModule({ imports: [AppModule] }).compile();
    const result = await app.callTool('count_words', { text: 'one two  three' });
    expect(result.structuredContent).toEqual({ words: 3 });
    await app.close();
  });

  it('counts with the service replaced', async () => {
    const app = await createTestingModule({ imports: [AppModule] })
      .overrideProvider(WordCounter)
      .useValue({ count: () => 42 })
      .compile();
    const result = await app.callTool('count_words', { text: 'anything' });
    expect(result.structuredContent).toEqual({ words: 42 });
    await app.close();
  });
});
`,
};

let work: string;
let project: string;

/** A command in the project; a failure throws with what the command printed (tsc reports on stdout). */
async function inProject(command: string, args: readonly string[]): Promise<string> {
  // Nested Vitest must not take this run's worker settings for its own.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'NODE_OPTIONS'),
  );
  try {
    const { stdout } = await run(command, [...args], {
      cwd: project,
      env: { ...env, CI: 'true' },
      timeout: 120_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed:\n${stdout ?? ''}\n${stderr ?? ''}`, { cause: error });
  }
}

interface Resolution {
  readonly name: string;
  readonly from: string;
  readonly to: string | undefined;
}

/** Every module resolution in tsc's --traceResolution output: what was asked for, by which file, and what it got. */
function resolutionsIn(trace: string): Resolution[] {
  const found: Resolution[] = [];
  let asked: { name: string; from: string } | undefined;
  for (const line of trace.split('\n')) {
    const start = /^======== Resolving module '(.+)' from '(.+)'\. ========$/.exec(line);
    if (start) asked = { name: start[1] as string, from: start[2] as string };
    const end = /^======== Module name '(.+)' was (?:successfully resolved to '([^']+)'|not resolved)/.exec(line);
    if (end && asked && asked.name === end[1]) {
      found.push({ ...asked, to: end[2] });
      asked = undefined;
    }
  }
  return found;
}

/** Type-checks with one of the project's configs and returns how each module was resolved. */
async function typeCheck(config: string): Promise<Resolution[]> {
  const tsc = join(project, 'node_modules', 'typescript', 'bin', 'tsc');
  const trace = await inProject(process.execPath, [tsc, '-p', config, '--noEmit', '--traceResolution']);
  return resolutionsIn(trace).map((resolution) => ({
    name: resolution.name,
    from: relative(project, resolution.from),
    to: resolution.to && relative(project, resolution.to),
  }));
}

const KILN_TYPES = 'node_modules/mcp-kiln/dist/pkg/cjs/types/';
const builtins = new Set(builtinModules);

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiln-commonjs-'));
  const packed = await packKiln(work);
  project = join(work, 'project');
  for (const [path, text] of Object.entries(PROJECT)) {
    mkdirSync(dirname(join(project, path)), { recursive: true });
    writeFileSync(join(project, path), text);
  }
  // What `nest new` installs beside Kiln, at the versions this repository is tested with; npm's cache from this
  // repository's own install answers most of it.
  const versions = { ...repoManifest.dependencies, ...repoManifest.devDependencies };
  await npm(
    [
      'install',
      join(work, packed.filename),
      ...['zod', 'typescript', 'vitest', 'vite', '@types/node'].map((name) => `${name}@${versions[name]}`),
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--loglevel=warn',
    ],
    project,
  );
}, 300_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('a CommonJS TypeScript project using the packed Kiln', () => {
  it.each([
    ['module: commonjs (node10, through typesVersions)', 'tsconfig.json'],
    ['module: nodenext (the require condition)', 'tsconfig.nodenext.json'],
  ])(
    'type-checks with %s against the CommonJS declarations',
    async (_, config) => {
      const resolutions = await typeCheck(config);
      const ownImports = resolutions.filter(
        (resolution) => resolution.from.startsWith('src/') && resolution.name.startsWith('mcp-kiln'),
      );
      expect(Object.fromEntries(ownImports.map((resolution) => [resolution.name, resolution.to]))).toEqual({
        'mcp-kiln': `${KILN_TYPES}src/index.d.ts`,
        'mcp-kiln/testing': `${KILN_TYPES}src/testing/index.d.ts`,
      });
      // skipLibCheck hides an import a declaration cannot resolve; everything typed through it would be any.
      const fromKiln = resolutions.filter((resolution) => resolution.from.startsWith(KILN_TYPES));
      expect(fromKiln.length).toBeGreaterThan(0);
      const unresolved = fromKiln.filter(
        (resolution) => resolution.to === undefined && !builtins.has(resolution.name.replace(/^node:/, '')),
      );
      expect(unresolved.map((resolution) => `${resolution.from} → ${resolution.name}`)).toEqual([]);
    },
    120_000,
  );

  describe('compiled with tsc', () => {
    beforeAll(async () => {
      const tsc = join(project, 'node_modules', 'typescript', 'bin', 'tsc');
      await inProject(process.execPath, [tsc, '-p', 'tsconfig.build.json']);
    }, 120_000);

    it('requires the CommonJS build', async () => {
      expect(readFileSync(join(project, 'dist', 'count-words.tool.js'), 'utf8')).toContain('require("mcp-kiln")');
      const resolved = await inProject(process.execPath, ['-p', "require.resolve('mcp-kiln')"]);
      expect(relative(project, resolved.trim())).toBe('node_modules/mcp-kiln/dist/pkg/cjs/index.js');
    });

    it('runs with node and answers a tool call over stdio', async () => {
      const client = new Client({ name: 'commonjs-consumer-test', version: '1.0.0' });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [join(project, 'dist', 'main.js')],
          env: { ...(process.env as Record<string, string>), MCP_TRANSPORT_TYPE: 'stdio', MCP_LOG_LEVEL: 'error' },
        }),
      );
      try {
        const result = await client.callTool({ name: 'count_words', arguments: { text: 'from a CommonJS app' } });
        expect(result.structuredContent).toEqual({ words: 4 });
      } finally {
        await client.close();
      }
    }, 60_000);

    it('runs with node and serves over HTTP, the host Kiln requires on use', async () => {
      const server = await startKilnProcess(join(project, 'dist', 'main.js'), { MCP_LOG_LEVEL: 'error' });
      try {
        const client = new Client({ name: 'commonjs-consumer-test', version: '1.0.0' });
        await client.connect(new StreamableHTTPClientTransport(new URL(server.endpoint)));
        const result = await client.callTool({ name: 'count_words', arguments: { text: 'over HTTP' } });
        expect(result.structuredContent).toEqual({ words: 2 });
        await client.close();
      } finally {
        await server.stop();
      }
    }, 60_000);
  });

  it("passes the project's own Vitest test", async () => {
    const stdout = await inProject(join(project, 'node_modules', '.bin', 'vitest'), ['run']);
    expect(stripVTControlCharacters(stdout)).toMatch(/Tests\s+2 passed \(2\)/);
  }, 120_000);
});
