// Finds the root module a command works on: imports the entry file and picks the export that is a Kiln module (a
// class with @Module, or a dynamic module `{ module, ... }`). The entry must be JavaScript Node can import, so a
// TypeScript project points at its build output: the decorator metadata Kiln reads is emitted by the compiler.
import { existsSync, statSync } from 'node:fs';
import { extname, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MODULE_METADATA, readMetadata } from '../../decorators/metadata-keys.js';
import type { ModuleRef } from '../../decorators/types.js';
import { isDynamicModule } from '../di/module-scanner.js';
import { CliUsageError } from './cli-usage.js';

export interface RootModule {
  /** The entry as given, for messages. */
  readonly entry: string;
  /** The export the module came from (`default` for the default export). */
  readonly exportName: string;
  /** The module class's name. */
  readonly moduleName: string;
  readonly module: ModuleRef;
}

const TYPESCRIPT_EXTENSIONS = new Set(['.ts', '.mts', '.cts', '.tsx']);

export async function loadRootModule(entry: string, exportName: string | undefined): Promise<RootModule> {
  const path = resolve(entry);
  if (!existsSync(path) || !statSync(path).isFile()) {
    throw new CliUsageError(`Entry ${entry} not found (looked for ${path}).`);
  }
  const exports = await importEntry(entry, path);
  const [name, module] = pickModule(entry, exports, exportName);
  const moduleClass = isDynamicModule(module) ? module.module : module;
  return { entry, exportName: name, moduleName: moduleClass.name, module };
}

async function importEntry(entry: string, path: string): Promise<Record<string, unknown>> {
  try {
    return (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ERR_UNKNOWN_FILE_EXTENSION' || TYPESCRIPT_EXTENSIONS.has(extname(path))) {
      throw new CliUsageError(
        `Entry ${entry} is TypeScript, which Node cannot load with decorator metadata. Build the project (tsc) and ` +
          `point at the compiled file, for example ${suggestBuilt(path)}.`,
      );
    }
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    throw new CliUsageError(`Entry ${entry} failed to load:\n${detail}`);
  }
}

function suggestBuilt(path: string): string {
  const relativePath = relative(process.cwd(), path).replace(/^src\//, '');
  return `dist/${relativePath.replace(/\.[mc]?tsx?$/, '.js')}`;
}

function pickModule(
  entry: string,
  exports: Record<string, unknown>,
  exportName: string | undefined,
): [string, ModuleRef] {
  if (exportName !== undefined) {
    if (!(exportName in exports)) {
      throw new CliUsageError(`Entry ${entry} has no export named ${exportName} (it exports ${listNames(exports)}).`);
    }
    const value = exports[exportName];
    if (!isModuleRef(value)) {
      throw new CliUsageError(`Export ${exportName} of ${entry} is not a Kiln module (no @Module() on it).`);
    }
    return [exportName, value];
  }
  if (isModuleRef(exports.default)) return ['default', exports.default];
  const modules = Object.entries(exports).filter((pair): pair is [string, ModuleRef] => isModuleRef(pair[1]));
  if (modules.length === 1) return modules[0] as [string, ModuleRef];
  if (modules.length === 0) {
    throw new CliUsageError(
      `Entry ${entry} exports no Kiln module (it exports ${listNames(exports)}). Export the root module class, ` +
        'with @Module() on it, from the entry.',
    );
  }
  throw new CliUsageError(
    `Entry ${entry} exports several modules (${modules.map(([name]) => name).join(', ')}); name the root one ` +
      'with --module <name>.',
  );
}

function isModuleRef(value: unknown): value is ModuleRef {
  const moduleClass = isDynamicModule(value) ? value.module : value;
  return typeof moduleClass === 'function' && readMetadata(MODULE_METADATA, moduleClass as never) !== undefined;
}

function listNames(exports: Record<string, unknown>): string {
  const names = Object.keys(exports);
  return names.length > 0 ? names.join(', ') : 'nothing';
}
