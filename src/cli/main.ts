#!/usr/bin/env node
// The `kiln` command (package.json `bin`): reads the command name, runs the command, writes what it answered and
// exits with its code. Nothing imports this file; the commands are plain functions a test can call too.
import './compile-cache.js';
import { CliUsageError, type CommandResult, EXIT, MAIN_HELP } from './cli-usage.js';
import { kilnPackage } from './kiln-package.js';

type Command = (args: readonly string[]) => Promise<CommandResult>;

// Loaded on use: lint and inspect pull in the whole runtime, which help, --version and new do not need.
const COMMANDS: Readonly<Record<string, () => Promise<Command>>> = {
  lint: async () => (await import('./lint-command.js')).lintCommand,
  inspect: async () => (await import('./inspect-command.js')).inspectCommand,
  new: async () => (await import('./new-command.js')).newCommand,
  bundle: async () => (await import('./bundle-command.js')).bundleCommand,
  dev: async () => (await import('./dev-command.js')).devCommand,
};

async function run(argv: readonly string[]): Promise<CommandResult> {
  const [command, ...args] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    return { exitCode: command === undefined ? EXIT.usage : EXIT.ok, stdout: MAIN_HELP, stderr: '' };
  }
  if (command === '--version' || command === '-v') {
    return { exitCode: EXIT.ok, stdout: `${kilnPackage().manifest.version}\n`, stderr: '' };
  }
  const load = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!load) {
    return {
      exitCode: EXIT.usage,
      stdout: '',
      stderr: `kiln: unknown command '${command}'. Commands: ${Object.keys(COMMANDS).join(', ')}.\nSee kiln --help.\n`,
    };
  }
  try {
    return await (await load())(args);
  } catch (error) {
    if (error instanceof CliUsageError) return { exitCode: EXIT.usage, stdout: '', stderr: `kiln: ${error.message}\n` };
    throw error;
  }
}

/** Resolves once `text` is handed to the OS, so exiting right after loses nothing on a pipe. */
function write(stream: NodeJS.WriteStream, text: string): Promise<void> {
  return new Promise((done) => (text ? stream.write(text, () => done()) : done()));
}

const result = await run(process.argv.slice(2));
await write(process.stdout, result.stdout);
await write(process.stderr, result.stderr);
// Exit even if a booted app's hooks left a handle open: the command has answered.
process.exit(result.exitCode);
