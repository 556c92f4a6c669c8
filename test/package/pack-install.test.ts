// What a user installs: `npm pack`, then `npm install <tarball>` into an empty project.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import semver from 'semver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKilnProcess } from '../support/kiln-process.js';
import { npm, type PackResult, packKiln, REPO } from '../support/packed-kiln.js';

const run = promisify(execFile);

interface Condition {
  readonly types: string;
  readonly default: string;
}
type ExportTarget = string | { readonly import: Condition; readonly require: Condition };
interface Manifest {
  readonly name: string;
  readonly files: readonly string[];
  readonly exports: Readonly<Record<string, ExportTarget>>;
  readonly engines: { readonly node: string };
}

const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as Manifest;
const entries = Object.entries(manifest.exports).map(([subpath, target]) => ({
  specifier: subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`,
  targets:
    typeof target === 'string'
      ? [target]
      : [target.import.types, target.import.default, target.require.types, target.require.default],
  code: typeof target === 'string' ? (target.endsWith('.js') ? target : undefined) : target.import.default,
}));

let work: string;
let packed: PackResult;
/** The work tree npm packed (its prepack built it): what a developer has after `npm pack`. */
let tree: string;
let installed: string;
let installLog: string;

/** `files` globs as npm reads them: `**` any folders, `*` within one name. */
function globMatches(glob: string, path: string): boolean {
  const pattern = glob
    .split('**/')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*'))
    .join('(?:.*/)?');
  return new RegExp(`^${pattern}$`).test(path);
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

/** Every package.json of the installed tree, nested node_modules and scopes included. */
function installedPackages(nodeModules: string): string[] {
  if (!existsSync(nodeModules)) return [];
  return readdirSync(nodeModules).flatMap((name) => {
    if (name.startsWith('.')) return [];
    const path = join(nodeModules, name);
    if (name.startsWith('@')) return installedPackages(path);
    const manifestPath = join(path, 'package.json');
    return existsSync(manifestPath) ? [manifestPath, ...installedPackages(join(path, 'node_modules'))] : [];
  });
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiln-pack-'));
  packed = await packKiln(work);
  tree = join(work, 'tree');

  const project = join(work, 'project');
  cpSync(join(work, packed.filename), join(project, packed.filename));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'kiln-user', private: true, type: 'module' }));
  // The dependencies are in npm's cache from this repo's own install; the registry is asked only for what is not.
  const install = await npm(
    ['install', `./${packed.filename}`, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=warn'],
    project,
  );
  installLog = `${install.stderr}\n${install.stdout}`;
  installed = join(project, 'node_modules', manifest.name);
}, 300_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the npm package', () => {
  it("ships Kiln's own code only: no tests, examples, bench, conformance runner or Vitest config", () => {
    const paths = packed.files.map((file) => file.path);
    // The `kiln new` template is a project of its own, Vitest config and test included.
    const runtime = paths.filter((path) => !path.startsWith('templates/new-project/'));
    expect(runtime.filter((path) => /(^|\/)(test|examples|bench|conformance)\/|vitest\.config/.test(path))).toEqual([]);
    const allowed = (path: string) =>
      ['package.json', 'README.md', 'LICENSE'].includes(path) ||
      manifest.files.some((entry) =>
        entry.includes('*') ? globMatches(entry, path) : path === entry || path.startsWith(`${entry}/`),
      );
    expect(paths.filter((path) => !allowed(path))).toEqual([]);
    // The runtime ships as its two builds (dist/pkg); beside them only tsc's declarations, never a third copy.
    expect(runtime.filter((path) => /\.js(\.map)?$/.test(path) && !path.startsWith('dist/pkg/'))).toEqual([]);
    expect(runtime.filter((path) => path.endsWith('.d.ts')).length).toBeGreaterThan(50);
    for (const { targets } of entries) {
      for (const target of targets) expect(paths, `exports target ${target}`).toContain(target.slice(2));
    }
  });

  it('requires every entry from a CommonJS script, and gets the same names as an import', async () => {
    const specifiers = entries.flatMap((entry) => (entry.code ? [entry.specifier] : []));
    const script = `
      const names = {};
      for (const specifier of ${JSON.stringify(specifiers)}) names[specifier] = Object.keys(require(specifier)).sort();
      console.log(JSON.stringify(names));`;
    const imported = `
      const names = {};
      for (const specifier of ${JSON.stringify(specifiers)}) names[specifier] = Object.keys(await import(specifier)).sort();
      console.log(JSON.stringify(names));`;
    const cwd = dirname(dirname(installed));
    const required = await run(process.execPath, ['-e', script], { cwd, timeout: 60_000 });
    const asModules = await run(process.execPath, ['--input-type=module', '-e', imported], { cwd, timeout: 60_000 });
    const requiredNames = JSON.parse(required.stdout) as Record<string, string[]>;
    expect(requiredNames[manifest.name]).toContain('createApp');
    expect(requiredNames).toEqual(JSON.parse(asModules.stdout));
  }, 60_000);

  it('imports every entry in package.json exports from the installed package', async () => {
    const specifiers = entries.flatMap((entry) => (entry.code ? [entry.specifier] : []));
    expect(specifiers).toContain(manifest.name);
    const script = `
      const names = {};
      for (const specifier of ${JSON.stringify(specifiers)}) names[specifier] = Object.keys(await import(specifier));
      console.log(JSON.stringify(names));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: dirname(dirname(installed)),
      timeout: 60_000,
    });
    const names = JSON.parse(stdout) as Record<string, string[]>;
    for (const specifier of specifiers) expect(names[specifier], specifier).not.toEqual([]);
    for (const { targets } of entries) {
      for (const target of targets) expect(existsSync(join(installed, target)), target).toBe(true);
    }
  }, 60_000);

  it('installs the kiln command, which runs', async () => {
    const bin = join(dirname(dirname(installed)), 'node_modules', '.bin', 'kiln');
    const { stdout } = await run(bin, ['--version'], { timeout: 30_000 });
    expect(stdout.trim()).toBe(JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')).version);
    expect(packed.files.map((file) => file.path)).toContain('templates/new-project/vitest.config.ts');
  });

  it('serves MCP over HTTP with the Fastify npm installed beside it', async () => {
    const project = dirname(dirname(installed));
    // Fastify, pino and tsyringe are ordinary dependencies: in the user's tree and lockfile, for npm audit and overrides.
    const packages = installedPackages(join(project, 'node_modules'));
    for (const name of ['fastify', 'pino', 'tsyringe', 'reflect-metadata']) {
      expect(
        packages.some((path) => path.endsWith(`/node_modules/${name}/package.json`)),
        name,
      ).toBe(true);
    }
    // Plain JavaScript: the decorators applied as the functions they are.
    writeFileSync(
      join(project, 'server.mjs'),
      `import { createApp, Module, Tool } from 'mcp-kiln';
import { z } from 'zod';
class Echo { handle(input) { return input.text; } }
Tool('echo', { description: 'Echo the text back.', input: z.object({ text: z.string().describe('Text to echo') }) })(Echo);
class EchoModule {}
Module({ tools: [Echo] })(EchoModule);
await createApp(EchoModule, { name: 'installed-echo', version: '1.0.0' });
`,
    );
    const server = await startKilnProcess(join(project, 'server.mjs'), { MCP_LOG_LEVEL: 'error' });
    try {
      const client = new Client({ name: 'pack-install', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(server.endpoint)));
      const result = await client.callTool({ name: 'echo', arguments: { text: 'from the tarball' } });
      expect(result.content).toEqual([{ type: 'text', text: 'from the tarball' }]);
      await client.close();
    } finally {
      await server.stop();
    }
  }, 60_000);

  it('leaves the packed work tree runnable: npm start serves after npm pack', async () => {
    // prepack builds without deleting anything the development build wrote.
    expect(existsSync(join(tree, 'dist', 'src', 'index.js'))).toBe(true);
    const server = await startKilnProcess(join(tree, 'dist', 'examples', 'notes', 'main.js'), {
      MCP_LOG_LEVEL: 'error',
    });
    try {
      const client = new Client({ name: 'after-pack', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(server.endpoint)));
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('notes_create_note');
      await client.close();
    } finally {
      await server.stop();
    }
  }, 60_000);

  it('has source maps whose sources resolve: inline content or a shipped file', () => {
    const shipped = filesUnder(installed);
    const maps = shipped.filter((path) => path.endsWith('.js.map'));
    expect(maps.length).toBeGreaterThan(0);
    const unresolved = maps.flatMap((mapPath) => {
      const map = JSON.parse(readFileSync(mapPath, 'utf8')) as {
        sources: string[];
        sourceRoot?: string;
        sourcesContent?: (string | null)[];
      };
      return map.sources.flatMap((source, index) => {
        const inline = typeof map.sourcesContent?.[index] === 'string';
        const onDisk = existsSync(resolve(dirname(mapPath), map.sourceRoot ?? '', source));
        return inline || onDisk ? [] : [`${relative(installed, mapPath)} → ${source}`];
      });
    });
    expect(unresolved).toEqual([]);
    const unmapped = shipped.flatMap((path) => {
      if (!path.endsWith('.js')) return [];
      const reference = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(readFileSync(path, 'utf8'))?.[1];
      return reference && !existsSync(join(dirname(path), reference)) ? [relative(installed, path)] : [];
    });
    expect(unmapped).toEqual([]);
  });

  it(`claims the Node versions its dependencies accept (engines.node ${manifest.engines.node})`, () => {
    const claimed = manifest.engines.node;
    const narrower = installedPackages(dirname(installed)).flatMap((path) => {
      const { name, version, engines } = JSON.parse(readFileSync(path, 'utf8')) as {
        name: string;
        version: string;
        engines?: { node?: string };
      };
      const wanted = engines?.node;
      if (wanted === undefined) return [];
      const accepts = semver.validRange(wanted) !== null && semver.subset(claimed, wanted);
      return accepts ? [] : [`${name}@${version} wants node ${wanted}`];
    });
    expect(narrower).toEqual([]);
    expect(installLog).not.toContain('EBADENGINE');
  });
});
