// `kiln dev [entry]`: the development loop. Compile the server from its TypeScript sources (dev-build.ts), run it
// (dev-server-process.ts), and on every change under the watched directory compile again: a build that fails is
// reported and the running server keeps serving; one that succeeds replaces the server, on the same port.
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { CliUsageError, type CommandResult, DEV_HELP, EXIT, parseCommandArgs } from './cli-usage.js';
import { buildForDev, describeBuildError } from './dev-build.js';
import { DevServerProcess } from './dev-server-process.js';
import { SourceWatcher } from './dev-watch.js';

/** Changes within this long of each other are one edit (an editor's save writes a file more than once). */
const SETTLE_MS = 100;

export async function devCommand(args: readonly string[]): Promise<CommandResult> {
  const { values, positionals } = parseCommandArgs('dev', args, {
    watch: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return { exitCode: EXIT.ok, stdout: DEV_HELP, stderr: '' };
  if (positionals.length > 1) throw new CliUsageError('kiln dev takes one entry file.\nSee kiln dev --help.');
  const cwd = process.cwd();
  const entry = resolve(positionals[0] ?? 'src/main.ts');
  if (!existsSync(entry))
    throw new CliUsageError(`${relative(cwd, entry)} does not exist: name the file that calls createApp.`);
  const watched = resolve(values.watch ?? dirname(entry));
  await import('rolldown').catch(() => {
    throw new CliUsageError(
      'kiln dev needs rolldown, an optional peer dependency of mcp-kiln: npm install --save-dev rolldown',
    );
  });
  const outDir = join(cwd, 'node_modules', '.kiln-dev');
  mkdirSync(outDir, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env, MCP_TRANSPORT_TYPE: process.env.MCP_TRANSPORT_TYPE ?? 'http' };
  const say = (line: string) => process.stderr.write(`kiln dev: ${line}\n`);

  // The server prints its landing page and endpoint itself once it listens.
  let server: DevServerProcess | undefined;
  let generation = 0;
  const start = async (reason: string): Promise<void> => {
    const started = performance.now();
    const dir = join(outDir, String(++generation));
    let file: string;
    try {
      file = await buildForDev(entry, dir);
    } catch (error) {
      say(
        `${reason}: it does not compile${server ? '; the running server keeps serving' : ''}.\n${describeBuildError(error, cwd)}`,
      );
      return;
    }
    await server?.stop();
    server = new DevServerProcess(file, env);
    const running = server;
    void running.exited.then((code) => {
      if (server === running && code !== null && code !== 0)
        say(`the server exited with code ${code}; fix the code and save to start it again.`);
    });
    rmSync(join(outDir, String(generation - 2)), { recursive: true, force: true });
    say(`${reason}: compiled and started in ${Math.round(performance.now() - started)} ms`);
  };

  say(`watching ${relative(cwd, watched) || '.'} for changes; Ctrl-C stops.`);
  await start('started');
  let timer: NodeJS.Timeout | undefined;
  let queue = Promise.resolve();
  const watcher = new SourceWatcher(watched, (file) => {
    if (!/\.(ts|mts|cts|tsx|js|mjs|json)$/.test(file)) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      queue = queue.then(() => start(`${file} changed`));
    }, SETTLE_MS);
  });
  await new Promise<void>((resolveStop) => {
    const stop = () => resolveStop();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  watcher.close();
  clearTimeout(timer);
  await queue;
  await server?.stop();
  return { exitCode: EXIT.ok, stdout: '', stderr: '' };
}
