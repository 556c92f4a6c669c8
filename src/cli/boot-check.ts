// Boots an app the way createApp does, without serving, and collects what boot found: the errors of a
// KilnBootError and the warnings boot logs. The app's logger is replaced by one that records warning lines instead
// of writing them, so the CLI's output stays its own.
import type { ModuleRef } from '../../decorators/types.js';
import type { KilnApp } from '../app/kiln-app.js';
import { createApp } from '../bootstrap/create-app.js';
import { LOGGER } from '../di/tokens.js';
import { KilnBootError } from '../errors/boot-error.js';
import { createLogger } from '../logging/index.js';

export interface BootFindings {
  readonly errors: readonly string[];
  readonly warnings: readonly string[];
}

/**
 * Compiles `root` and hands the booted app to `use` (skipped when boot fails), then closes it. Anything boot throws
 * besides a KilnBootError (a hook that fails, a provider factory that throws) is reported as an error too.
 */
export async function withBootedApp<T>(
  root: ModuleRef,
  use: (app: KilnApp) => T | Promise<T>,
): Promise<BootFindings & { readonly result?: T }> {
  const logged: string[] = [];
  const logger = createLogger({
    level: 'warning',
    name: 'kiln-cli',
    destination: { write: (line: string) => collectWarning(line, logged) },
  });
  let app: KilnApp;
  try {
    app = await createApp(root, {
      serve: false,
      overrides: new Map([[LOGGER, { provide: LOGGER, useValue: logger }]]),
    });
  } catch (error) {
    if (error instanceof KilnBootError) return { errors: error.problems, warnings: [...error.warnings, ...logged] };
    return { errors: [`Boot failed: ${error instanceof Error ? error.message : String(error)}`], warnings: logged };
  }
  try {
    return { errors: [], warnings: logged, result: await use(app) };
  } finally {
    await app.close();
  }
}

function collectWarning(line: string, into: string[]): void {
  const record = JSON.parse(line) as { level?: string; msg?: string };
  if (record.level === 'warning' && record.msg) into.push(record.msg);
}
