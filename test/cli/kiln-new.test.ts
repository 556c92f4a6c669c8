// `kiln new` end to end, as a user meets it: the packed mcp-kiln tarball, a scaffolded project that installs it,
// whose own tests pass right away, whose `npm run lint` runs the installed `kiln` binary and whose `npm run bundle`
// writes a bundle that serves. Slow (a pack, an install, a type-check, Vitest, builds, a bundle): about a minute.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectServer } from '../integration/helpers/connected-server.js';
import { ERAS } from '../integration/helpers/eras.js';
import { structured } from '../integration/helpers/tool-results.js';
import { npm, packKiln } from '../support/packed-kiln.js';
import { ephemeralPort } from '../support/redis-servers.js';
import { trackChild } from '../support/tracked-children.js';
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

  it('serves from its sources with npm run dev and restarts on an edit, keeping the last good server', async () => {
    const port = await ephemeralPort();
    const dev = spawn('npm', ['run', 'dev', '--silent'], {
      cwd: project,
      env: { ...projectEnv, MCP_HTTP_HOST: '127.0.0.1', MCP_HTTP_PORT: String(port), MCP_LOG_LEVEL: 'error' },
      detached: true,
    });
    trackChild(dev);
    let output = '';
    dev.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    dev.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const toolFile = join(project, 'src', 'say-hello.tool.ts');
    const original = readFileSync(toolFile, 'utf8');
    const client = new Client(
      { name: 'dev', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    const description = async () => {
      const { tools } = await client.listTools();
      return tools.find((tool) => tool.name === 'say_hello')?.description;
    };
    try {
      await expect.poll(() => output, { timeout: 60_000 }).toContain(`Landing page: http://127.0.0.1:${port}/`);
      expect(output).toMatch(/kiln dev: started: compiled and started in \d+ ms/);
      await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
      expect(await description()).toBe('Greet someone by name; returns the greeting.');

      writeFileSync(toolFile, original.replace('Greet someone by name;', 'Greet someone warmly by name;'));
      await expect
        .poll(description, { timeout: 30_000, interval: 200 })
        .toBe('Greet someone warmly by name; returns the greeting.');
      expect(output).toMatch(/kiln dev: say-hello\.tool\.ts changed: compiled and started in \d+ ms/);

      // A file that does not compile: reported, and the running server goes on serving what it served.
      writeFileSync(toolFile, `${original}\nexport const broken = ;\n`);
      await expect
        .poll(() => output, { timeout: 30_000 })
        .toMatch(/does not compile; the running server keeps serving/);
      expect(await description()).toBe('Greet someone warmly by name; returns the greeting.');
    } finally {
      writeFileSync(toolFile, original);
      await client.close();
      process.kill(-(dev.pid as number), 'SIGINT');
      await once(dev, 'exit');
    }
  }, 180_000);
});
