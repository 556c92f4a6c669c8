// createApp: compile the module graph and, unless `serve: false`, serve it the way the configuration says (listen).
// `serve: false` returns the app unserved, for `app.serve(host)` with hosts of your choosing, scripts and tests.
import type { ModuleRef } from '../../decorators/types.js';
import type { CreateAppOptions } from '../app/app-options.js';
import { compileApp } from '../app/compile-app.js';
import { KilnApp } from '../app/kiln-app.js';
import { listen } from './listen.js';

export async function createApp(
  root: ModuleRef,
  options: CreateAppOptions & { serve?: boolean } = {},
): Promise<KilnApp> {
  const app = new KilnApp(await compileApp(root, options), options);
  if (options.serve ?? true) await listen(app);
  return app;
}
