// Ends the process cleanly on SIGTERM, SIGINT and (stdio) stdin EOF: close the app, which stops serving and lets
// requests in flight answer, then exit with code 0.
import type { Readable } from 'node:stream';
import type { KilnApp } from '../app/kiln-app.js';

export function exitOnSignals(app: KilnApp, stdin?: Readable): void {
  let exiting = false;
  const shutdown = (why: string) => {
    if (exiting) return;
    exiting = true;
    app.logger.info({ inFlight: app.inFlight }, `Shutting down (${why})`);
    void app.close(why).finally(() => process.exit(0));
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
  stdin?.once('end', () => shutdown('stdin closed'));
}
