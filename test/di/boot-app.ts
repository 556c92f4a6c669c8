// Test helper: boots decorated fixtures through the testing kit (createTestingModule, the real module wiring),
// without serving, and collects what boot rejected.
import { createTestingModule, type TestingApp, type TestingCompileOptions } from 'mcp-kiln/testing';
import { expect } from 'vitest';
import { Module } from '../../decorators/module.js';
import type { Constructor, ModuleMetadata, ModuleRef } from '../../decorators/types.js';
import type { KilnApp } from '../../src/app/kiln-app.js';
import { LOGGER, STORAGE } from '../../src/di/tokens.js';
import { KilnBootError } from '../../src/errors/boot-error.js';
import { createLogger, type Logger } from '../../src/logging/index.js';
import type { StorageService } from '../../src/storage/index.js';
import { type CapturedLines, captureDestination } from '../logging/capture-destination.js';

/** Quiet configuration: boot logs only errors (the testing kit's default too). */
export const QUIET_ENV = { MCP_LOG_LEVEL: 'error' } as const;

/** createApp's options as the testing kit takes them, and the framework providers a test replaces. */
export interface BootOptions extends Omit<TestingCompileOptions, 'logger'> {
  /** Replaces the LOGGER provider (not createApp's `logger` option). */
  readonly logger?: Logger;
  readonly storage?: StorageService;
}

const opened: TestingApp[] = [];

export async function bootApp(root: ModuleRef, options: BootOptions = {}): Promise<KilnApp> {
  const { logger, storage, ...compileOptions } = options;
  const builder = createTestingModule({ imports: [root] });
  if (logger) builder.overrideProvider(LOGGER).useValue(logger);
  if (storage) builder.overrideProvider(STORAGE).useValue(storage);
  const testing = await builder.compile(compileOptions);
  opened.push(testing);
  return testing.app;
}

/** Boot options that send the app's log to memory instead of stderr, and the lines it wrote. */
export function capturedLog(): { readonly options: BootOptions; readonly lines: CapturedLines['lines'] } {
  const destination = captureDestination();
  const logger = createLogger({ level: 'debug', name: 'kiln', destination });
  return { options: { logger }, lines: destination.lines };
}

/** The warnings boot logged for a module carrying `metadata` (boot must succeed). */
export async function bootWarnings(metadata: ModuleMetadata, options: BootOptions = {}): Promise<string[]> {
  const log = capturedLog();
  await bootApp(fixtureModule(metadata), { ...options, ...log.options });
  return log.lines.filter((line) => line.level === 'warning').map((line) => String(line.msg));
}

/** Closes every app booted so far; call from afterEach so singletons and storage never outlive their test. */
export async function closeBootedApps(): Promise<void> {
  await Promise.all(opened.splice(0).map((app) => app.close()));
}

/** Every problem boot reported for `root`; fails the test when boot succeeds or throws something else. */
export async function bootProblems(root: ModuleRef, options: BootOptions = {}): Promise<readonly string[]> {
  const error = await bootApp(root, options).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(KilnBootError);
  return (error as KilnBootError).problems;
}

/** The one problem boot reported; fails the test when boot reported none or several. */
export async function bootProblem(root: ModuleRef, options: BootOptions = {}): Promise<string> {
  const problems = await bootProblems(root, options);
  expect(problems).toHaveLength(1);
  return problems[0] as string;
}

/** A module class named `name` carrying `metadata`, for fixtures that need no module of their own. */
export function fixtureModule(metadata: ModuleMetadata, name = 'FixtureModule'): Constructor {
  const named = { [name]: class {} }[name] as Constructor;
  Module(metadata)(named);
  return named;
}
