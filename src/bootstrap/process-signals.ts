// Ends the process cleanly on SIGTERM, SIGINT and (stdio) stdin EOF: close the app, which turns readiness off, serves
// on through the ready grace, stops accepting and lets requests in flight answer, then exit with code 0. A second
// signal while that runs exits at once, with code 1.
import type { Readable } from 'node:stream';
import type { KilnApp } from '../app/kiln-app.js';

export function exitOnSignals(app: KilnApp, stdin?: Readable): void {
  let exiting = false;
  const shutdown = (why: string) => {
    if (exiting) {
      app.logger.warning({ inFlight: app.inFlight }, `${why} again while shutting down: exiting without waiting`);
      process.exit(1);
    }
    exiting = true;
    app.logger.info({ inFlight: app.inFlight }, `Shutting down (${why})`);
    void app.close(why).finally(() => process.exit(0));
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  stdin?.once('end', () => shutdown('stdin closed'));
}
