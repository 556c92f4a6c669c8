// Serves an app on stdio (or any SDK Transport) for both eras: the SDK pins each connection to the era its first
// exchange selects and calls the factory for that connection. Shutdown on stdin EOF, SIGTERM and SIGINT.

import { PassThrough, type Readable, type Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/server';
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import type { KilnApp } from '../app/kiln-app.js';

export interface StdioServeOptions {
  readonly stdin?: Readable;
  readonly stdout?: Writable;
  /** Serve over this transport instead of stdio (in-memory clients, tests). */
  readonly transport?: Transport;
  /** Stop the process once shut down (default true for real stdio). */
  readonly exitProcess?: boolean;
}

export interface ServingHandle {
  close(): Promise<void>;
}

/** How long shutdown waits for requests in flight before closing anyway. */
export const SHUTDOWN_DRAIN_MS = 10_000;

export function serveOverStdio(app: KilnApp, options: StdioServeOptions = {}): ServingHandle {
  if (options.transport)
    return serveStdio(serverFactory(app), { transport: options.transport, onerror: reportTo(app) });

  const stdin = options.stdin ?? process.stdin;
  // The SDK transport closes, dropping every unsent response, the moment its stdin ends. It reads from this pipe
  // instead, which ends only after the requests in flight at EOF have answered.
  const wire = new PassThrough();
  stdin.on('data', (chunk) => wire.write(chunk));
  const handle = serveStdio(serverFactory(app), {
    transport: new StdioServerTransport(wire, options.stdout ?? process.stdout),
    onerror: reportTo(app),
  });
  if ((stdin as NodeJS.ReadStream).isTTY) {
    // A person started the server in a terminal; stdout is the protocol channel, so the hint goes to stderr.
    process.stderr.write(
      `${app.runtime.serverInfo.name} is serving MCP on stdio. Point an MCP client at this command, or press Ctrl+C to stop.\n`,
    );
  }

  // Stopping serves what is in flight, then closes the wire. The app owns this handle, so app.close() stops it;
  // EOF and signals close the app (which stops serving) and then end the process.
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
      if (!(await app.runtime.inFlight.drained(SHUTDOWN_DRAIN_MS))) {
        app.logger.warning(`Requests still running after ${SHUTDOWN_DRAIN_MS} ms were abandoned.`);
      }
      wire.end();
      await handle.close().catch(() => undefined);
    })();
    return stopping;
  };
  const shutdown = async (why: string) => {
    app.logger.info({ inFlight: app.runtime.inFlight.size }, `Shutting down (${why})`);
    await app.close();
    if (options.exitProcess ?? true) process.exit(0);
  };
  const onSignal = (signal: NodeJS.Signals) => void shutdown(signal);
  stdin.once('end', () => void shutdown('stdin closed'));
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  return { close: stop };
}

function serverFactory(app: KilnApp) {
  return ({ era }: { era: 'legacy' | 'modern' }) => app.createServer(era, { exposesSessionId: false });
}

function reportTo(app: KilnApp) {
  return (error: Error) => app.logger.warning({ err: error }, `stdio transport error: ${error.message}`);
}
