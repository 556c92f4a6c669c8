// createApp: compile the module graph and serve it on the configured transport. `serve: false` returns the app
// without serving (scripts, the testing kit).
import type { ModuleRef } from '../../decorators/types.js';
import type { CreateAppOptions } from '../app/app-options.js';
import { compileApp } from '../app/compile-app.js';
import { KilnApp } from '../app/kiln-app.js';

export async function createApp(
  root: ModuleRef,
  options: CreateAppOptions & { serve?: boolean } = {},
): Promise<KilnApp> {
  const app = new KilnApp(await compileApp(root, options));
  if (options.serve ?? true) await app.listen();
  return app;
}
