// What every `kiln` command answers (text for stdout and stderr, and an exit code), the exit codes CI relies on, the
// usage error a command raises before it can do its work, and the help texts.
import { parseArgs } from 'node:util';

/** 0: nothing to fix; 1: the app has problems (boot errors, or warnings under --strict); 2: the command could not run. */
export const EXIT = { ok: 0, findings: 1, usage: 2 } as const;

export interface CommandResult {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** A command line the CLI cannot act on: a missing or unloadable entry, a bad flag, an unknown command. */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
}

export const MAIN_HELP = `Usage: kiln <command> [options]

Commands:
  lint <entry>      Boot the app's module graph without serving and report every definition error and warning
  inspect <entry>   Print what the app serves: tools with their input and output schemas, resources, prompts
  new <name>        Create a project directory <name> set up for Kiln: a module, a tool, its test, scripts
  bundle <entry>    Bundle a built server entry into one file (and a chunk per optional part) for a fast cold start
  dev [entry]       Run the server from its TypeScript sources and restart it whenever a source file changes

Options:
  -h, --help        Show help (kiln <command> --help for a command)
  -v, --version     Print the mcp-kiln version

For lint and inspect, <entry> is a built JavaScript file that exports the root module (its default export, the
only exported module, or the export named by --module): the module file, not the file that calls createApp.
`;

export const LINT_HELP = `Usage: kiln lint <entry> [--module <name>] [--json] [--strict]

Compiles the module graph the way createApp does (configuration, dependency and scope checks, every tool, resource
and prompt definition and its lint), without serving, then closes it. Boot hooks run; configuration comes from the
environment.

Options:
  --module <name>   The export of <entry> that is the root module (default: the default export or the only module)
  --json            Print {"entry", "module", "ok", "errors", "warnings"} as JSON
  --strict          Exit 1 on warnings too
  -h, --help        Show this help

Exit codes: 0 no errors (warnings allowed unless --strict), 1 errors found, 2 the entry could not be linted.
`;

export const INSPECT_HELP = `Usage: kiln inspect <entry> [--module <name>] [--json]

Boots the module graph without serving and prints its catalogue, as the HTTP landing page shows it: every tool with
its parameters and output fields (disabled tools marked), every resource and template, every prompt and its
arguments.

Options:
  --module <name>   The export of <entry> that is the root module (default: the default export or the only module)
  --json            Print the catalogue (app.catalog(): JSON Schemas included) as JSON
  -h, --help        Show this help

Exit codes: 0 printed, 1 the app does not boot (its errors are printed), 2 the entry could not be loaded.
`;

export const NEW_HELP = `Usage: kiln new <name> [--dir <parent>] [--kiln <version-or-path>]

Creates <parent>/<name> (default: ./<name>) with package.json, tsconfig.json, tsconfig.build.json, vitest.config.ts,
a module, a service, a tool and its test, and a README. Then: cd <name> && npm install && npm test.

Options:
  --dir <parent>    Where to create the project directory (default: the current directory)
  --kiln <spec>     The mcp-kiln dependency: a version range, or a path to a packed tarball or a checkout
                    (default: ^ the version of this CLI)
  -h, --help        Show this help
`;

export const DEV_HELP = `Usage: kiln dev [entry] [--watch <dir>]

Runs the server from its TypeScript sources: compiles <entry> (default: src/main.ts, the file calling createApp) and
the project files it imports with rolldown (decorators and their metadata as the tests compile them; packages stay
imports from node_modules), starts it with node --enable-source-maps, and recompiles and restarts it within a second
or two of any change under <dir>. The port stays the same. A file that does not compile is reported and the running
server keeps serving until the next change compiles. Serves over HTTP unless MCP_TRANSPORT_TYPE says otherwise, on
MCP_HTTP_HOST:MCP_HTTP_PORT as configured. Stop it with Ctrl-C. Needs rolldown (npm install --save-dev rolldown).

Options:
  --watch <dir>     The directory to watch (default: the entry's directory)
  -h, --help        Show this help
`;

export const BUNDLE_HELP = `Usage: kiln bundle <entry> [--out-dir <dir>] [--external <packages>]

Bundles <entry>, the built file that starts the server (the one calling createApp), with everything it imports
into <dir>/<name>.mjs, plus one chunk per part Kiln loads on use (the HTTP host, auth, Redis). Node then reads a
handful of files at start instead of hundreds: a stdio server that clients spawn per session, or an HTTP server
scaled out, answers its first call sooner. The files are minified (names of functions and classes kept) with
source maps beside them; node --enable-source-maps shows stack traces at the sources. Needs rolldown
(npm install --save-dev rolldown).

Keep the bundle inside the project when the app declares raw JSON Schemas: Ajv is still loaded from node_modules,
on first use.

Options:
  --out-dir <dir>         Where to write the bundle (default: ./bundle)
  --external <packages>   Comma-separated packages to leave as imports (native addons, packages read from disk)
  -h, --help              Show this help
`;

type OptionSpec = Readonly<Record<string, { readonly type: 'string' | 'boolean'; readonly short?: string }>>;
type OptionValues<T extends OptionSpec> = { [K in keyof T]?: T[K]['type'] extends 'string' ? string : boolean };

/** util.parseArgs (strict, positionals allowed) with its errors turned into usage errors naming the command's help. */
export function parseCommandArgs<const T extends OptionSpec>(
  command: string,
  args: readonly string[],
  options: T,
): { values: OptionValues<T>; positionals: string[] } {
  try {
    const parsed = parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
    return { values: parsed.values as OptionValues<T>, positionals: parsed.positionals };
  } catch (error) {
    throw new CliUsageError(`${(error as Error).message}\nSee kiln ${command} --help.`);
  }
}

/** The one positional argument a command takes. */
export function onePositional(command: string, what: string, positionals: readonly string[]): string {
  if (positionals.length === 1) return positionals[0] as string;
  const problem = positionals.length === 0 ? `kiln ${command} needs ${what}` : `kiln ${command} takes one ${what}`;
  throw new CliUsageError(`${problem}.\nSee kiln ${command} --help.`);
}
