// `kiln bundle <entry>`: a built server entry and everything it imports as one ES module file (plus a chunk for each
// part Kiln loads on use: the HTTP host, auth, Redis), for a fast cold start. On Node 20 most of a server's start is
// spent resolving and reading hundreds of module files; a bundle reads a handful. rolldown, an optional peer
// dependency, does the bundling.
import { existsSync, statSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { BUNDLE_OUTPUT } from './bundle-output.js';
import { BUNDLE_HELP, CliUsageError, type CommandResult, EXIT, onePositional, parseCommandArgs } from './cli-usage.js';

export async function bundleCommand(args: readonly string[]): Promise<CommandResult> {
  const { values, positionals } = parseCommandArgs('bundle', args, {
    'out-dir': { type: 'string' },
    external: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return { exitCode: EXIT.ok, stdout: BUNDLE_HELP, stderr: '' };
  const entry = resolve(onePositional('bundle', 'an entry file', positionals));
  if (!existsSync(entry)) throw new CliUsageError(`${entry} does not exist: build the project first.`);
  const outDir = resolve(values['out-dir'] ?? 'bundle');
  const kept = (values.external ?? '').split(',').filter(Boolean);
  const { build } = await loadRolldown();
  const warnings: string[] = [];
  const output = await build({
    input: entry,
    // Node's built-in modules stay imports; so do the packages named by --external (native addons, for instance).
    platform: 'node',
    external: (id) => kept.some((name) => id === name || id.startsWith(`${name}/`)),
    onLog: (level, log) => {
      if (level === 'warn') warnings.push(log.message);
    },
    output: {
      ...BUNDLE_OUTPUT,
      dir: outDir,
      // .mjs: the bundle is an ES module whatever the nearest package.json says.
      entryFileNames: '[name].mjs',
      chunkFileNames: '[name]-[hash].mjs',
    },
  });
  const files = output.output.filter((file) => file.type === 'chunk');
  const main = files.find((file) => file.isEntry);
  const shown = (file: string) => relative(process.cwd(), resolve(outDir, file)) || file;
  const lines = files.map((file) => {
    const kib = statSync(resolve(outDir, file.fileName)).size / 1024;
    return `  ${shown(file.fileName)} (${kib.toFixed(0)} KiB${file.isEntry ? ', entry' : ''})`;
  });
  const stdout = [
    `Bundled ${relative(process.cwd(), entry) || entry} into ${shown('')}:`,
    ...lines,
    '',
    `Start it with: node ${main ? shown(main.fileName) : shown('')}`,
    '',
  ].join('\n');
  const stderr = warnings.map((warning) => `kiln bundle: warning: ${warning}\n`).join('');
  return { exitCode: EXIT.ok, stdout, stderr };
}

async function loadRolldown(): Promise<typeof import('rolldown')> {
  try {
    return await import('rolldown');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new CliUsageError(
      'kiln bundle needs rolldown, an optional peer dependency of mcp-kiln: npm install --save-dev rolldown',
    );
  }
}
