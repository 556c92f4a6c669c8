// `kiln new` end to end, as a user meets it: the packed mcp-kiln tarball, a scaffolded project that installs it,
// whose own tests pass right away, whose `npm run lint` runs the installed `kiln` binary and whose `npm run bundle`
// writes a bundle that serves. Slow (a pack, an install, a type-check, Vitest, builds, a bundle): about a minute.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectServer } from '../integration/helpers/connected-server.js';
import { ERAS } from '../integration/helpers/eras.js';
import { structured } from '../integration/helpers/tool-results.js';
import { npm, packKiln } from '../support/packed-kiln.js';
import { runKiln } from './run-kiln.js';

let work: string;
let project: string;
let created: string;
/** Without the parent Vitest's variables, which would make the project's Vitest think it is one of our workers. */
const projectEnv = {
  ...Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(VITEST|TEST$|NODE_ENV$|FORCE_COLOR$)/.test(name)),
  ),
  NO_COLOR: '1',
};

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiln-new-'));
  const packed = await packKiln(work);
  const scaffold = await runKiln(['new', 'demo', '--dir', work, '--kiln', join(work, packed.filename)], work);
  if (scaffold.exitCode !== 0) throw new Error(`kiln new failed:\n${scaffold.stderr}`);
  created = scaffold.stdout;
  project = join(work, 'demo');
  // The dependencies are in npm's cache from this repo's own install; the registry is asked only for what is not.
  await npm(['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=warn'], project, projectEnv);
}, 300_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('kiln new demo', () => {
  it('lists what it wrote and what to run next', () => {
    expect(created).toContain('Created demo with mcp-kiln file:');
    for (const file of ['package.json', 'tsconfig.json', 'vitest.config.ts', 'src/app.module.ts', 'README.md']) {
      expect(created).toContain(`  ${file}\n`);
    }
    expect(created).toContain('Next:\n  cd demo\n  npm install\n  npm test\n');
  });

  it('names the project in package.json and README, and depends on the given mcp-kiln', () => {
    const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({ name: 'demo', type: 'module', private: true });
    expect(manifest.dependencies['mcp-kiln']).toMatch(/^file:.*mcp-kiln-.*\.tgz$/);
    expect(readFileSync(join(project, 'README.md'), 'utf8')).toMatch(/^# demo\n/);
    expect(readFileSync(join(project, 'src', 'main.ts'), 'utf8')).toContain("name: 'demo'");
  });

  it('passes its own tests right after install: type-check, then Vitest', async () => {
    const { stdout } = await npm(['test'], project, projectEnv);
    expect(stdout).toContain('src/say-hello.tool.test.ts');
    expect(stdout).toMatch(/Tests +3 passed \(3\)/);
  }, 180_000);

  it('lints and inspects itself with the installed kiln binary', async () => {
    const lint = await npm(['run', 'lint', '--silent'], project, projectEnv);
    expect(lint.stdout).toBe('AppModule (dist/app.module.js): no problems found\n');
    const inspect = await npm(['run', 'inspect', '--silent'], project, projectEnv);
    expect(inspect.stdout).toMatch(/^app 0\.0\.0\n/);
    expect(inspect.stdout).toMatch(/ {6}name +string +required +Who to greet \(min length 1\)/);
  }, 180_000);

  it('bundles itself with the installed kiln binary, and the bundle serves its tool over stdio', async () => {
    const bundle = await npm(['run', 'bundle', '--silent'], project, projectEnv);
    expect(bundle.stdout).toMatch(/Start it with: node \S*bundle\/main\.mjs\n/);
    const server = await connectServer(join(project, 'bundle', 'main.mjs'), ERAS[0]!, { MCP_TRANSPORT_TYPE: 'stdio' });
    try {
      const result = await server.client.callTool({ name: 'say_hello', arguments: { name: 'Ada' } });
      expect(structured(result)).toEqual({ greeting: expect.stringContaining('Ada') });
    } finally {
      await server.close();
    }
  }, 180_000);
});
