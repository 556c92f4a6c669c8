// `kiln new <name>`: a project directory set up the way docs/guide/new-project.md describes, copied from
// the package's templates/new-project. package.json is written here: it pins mcp-kiln and the zod, TypeScript,
// Vitest and Vite versions this release of Kiln is built and tested with.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { CliUsageError, type CommandResult, EXIT, NEW_HELP, onePositional, parseCommandArgs } from './cli-usage.js';
import { type KilnManifest, kilnPackage } from './kiln-package.js';

/** A package name npm accepts that is also a plain folder name. */
const PROJECT_NAME = /^[a-z0-9][a-z0-9._-]*$/;
const MAX_NAME_LENGTH = 214;
/** npm leaves `.gitignore` out of packed packages, so the template ships it without the dot. */
const RENAMED = new Map([['gitignore', '.gitignore']]);
const DEV_DEPENDENCIES = ['@types/node', 'rolldown', 'typescript', 'vite', 'vitest'] as const;

export async function newCommand(args: readonly string[]): Promise<CommandResult> {
  const { values, positionals } = parseCommandArgs('new', args, {
    dir: { type: 'string' },
    kiln: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return { exitCode: EXIT.ok, stdout: NEW_HELP, stderr: '' };
  const name = onePositional('new', 'a project name', positionals);
  if (!PROJECT_NAME.test(name) || name.length > MAX_NAME_LENGTH) {
    throw new CliUsageError(
      `Project name '${name}' is not a valid npm package name: use lowercase letters, digits, '.', '_' and '-', ` +
        'starting with a letter or digit.',
    );
  }
  const target = resolve(values.dir ?? '.', name);
  if (existsSync(target) && readdirSync(target).length > 0) {
    throw new CliUsageError(`${target} already exists and is not empty; choose another name or --dir.`);
  }
  const { root, manifest } = kilnPackage();
  const kilnSpec = dependencySpec(values.kiln, manifest);

  const written = copyTemplate(join(root, 'templates', 'new-project'), target, { '{{name}}': name });
  writeFileSync(
    join(target, 'package.json'),
    `${JSON.stringify(projectManifest(name, kilnSpec, manifest), null, 2)}\n`,
  );
  written.push('package.json');

  const shown = relative(process.cwd(), target) || '.';
  const stdout = [
    `Created ${shown} with mcp-kiln ${kilnSpec}:`,
    ...written.sort().map((file) => `  ${file}`),
    '',
    'Next:',
    `  cd ${shown}`,
    '  npm install',
    '  npm test',
    '',
  ].join('\n');
  return { exitCode: EXIT.ok, stdout, stderr: '' };
}

/** A version range or tag as given; a path to a tarball or a checkout as a `file:` dependency. */
function dependencySpec(given: string | undefined, manifest: KilnManifest): string {
  if (given === undefined) return `^${manifest.version}`;
  const path = resolve(given);
  if (existsSync(path)) return `file:${path}`;
  if (/^[./\\]|\.tgz$/.test(given)) throw new CliUsageError(`--kiln ${given}: no such file or directory.`);
  return given;
}

function projectManifest(name: string, kilnSpec: string, kiln: KilnManifest) {
  return {
    name,
    version: '0.1.0',
    private: true,
    type: 'module',
    engines: { node: '^20.19.0 || >=22.12.0' },
    scripts: {
      build: 'tsc -p tsconfig.build.json',
      start: 'node dist/main.js',
      dev: 'kiln dev src/main.ts',
      test: 'tsc -p tsconfig.json --noEmit && vitest run',
      lint: 'npm run build && kiln lint dist/app.module.js',
      inspect: 'npm run build && kiln inspect dist/app.module.js',
      bundle: 'npm run build && kiln bundle dist/main.js --out-dir bundle',
    },
    dependencies: { 'mcp-kiln': kilnSpec, zod: pinned(kiln.dependencies, 'zod') },
    devDependencies: Object.fromEntries(DEV_DEPENDENCIES.map((dev) => [dev, pinned(kiln.devDependencies, dev)])),
  };
}

function pinned(versions: Readonly<Record<string, string>> | undefined, name: string): string {
  const version = versions?.[name];
  if (!version) throw new Error(`mcp-kiln's package.json names no version of ${name} to pin.`);
  return version;
}

/** Copies every template file, renaming where npm needs it and filling placeholders; returns the paths written. */
function copyTemplate(from: string, to: string, placeholders: Readonly<Record<string, string>>, at = ''): string[] {
  return readdirSync(join(from, at)).flatMap((entry) => {
    const source = join(from, at, entry);
    const path = join(at, RENAMED.get(entry) ?? entry);
    if (statSync(source).isDirectory()) return copyTemplate(from, to, placeholders, join(at, entry));
    let text = readFileSync(source, 'utf8');
    for (const [placeholder, value] of Object.entries(placeholders)) text = text.replaceAll(placeholder, value);
    mkdirSync(dirname(join(to, path)), { recursive: true });
    writeFileSync(join(to, path), text);
    return [path.split('\\').join('/')];
  });
}
