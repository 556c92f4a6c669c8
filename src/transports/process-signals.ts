// Ends the process cleanly on SIGTERM and SIGINT: close the app (which stops serving and lets requests in flight
// answer), then exit with code 0.
import type { KilnApp } from '../app/kiln-app.js';

export function exitOnSignals(
  app: KilnApp,
  also: { once(event: 'end', listener: () => void): unknown } | undefined = undefined,
): () => void {
  let exiting = false;
  const shutdown = (why: string) => {
    if (exiting) return;
    exiting = true;
    app.logger.info({ inFlight: app.runtime.inFlight.size }, `Shutting down (${why})`);
    void app.close().finally(() => process.exit(0));
  };
  const onSignal = (signal: NodeJS.Signals) => shutdown(signal);
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  also?.once('end', () => shutdown('stdin closed'));
  return () => {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
  };
}
