// Serves an app on stdio (or any SDK Transport) for both eras: the SDK pins each connection to the era its first
// exchange selects and calls the factory for that connection. Shutdown on stdin EOF, SIGTERM and SIGINT.

import type { Readable, Writable } from 'node:stream';
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

export function serveOverStdio(app: KilnApp, options: StdioServeOptions = {}): ServingHandle {
  const stdin = options.stdin ?? process.stdin;
  const transport = options.transport ?? new StdioServerTransport(stdin, options.stdout ?? process.stdout);
  const handle = serveStdio(({ era }) => app.createServer(era, { exposesSessionId: false }), {
    transport,
    onerror: (error) => app.logger.warning({ err: error }, `stdio transport error: ${error.message}`),
  });
  if (options.transport) return handle;
  if ((stdin as NodeJS.ReadStream).isTTY) {
    // A person started the server in a terminal; stdout is the protocol channel, so the hint goes to stderr.
    process.stderr.write(
      `${app.runtime.serverInfo.name} is serving MCP on stdio. Point an MCP client at this command, or press Ctrl+C to stop.\n`,
    );
  }

  let closing: Promise<void> | undefined;
  const shutdown = (why: string) => {
    closing ??= (async () => {
      app.logger.info(`Shutting down (${why})`);
      await handle.close().catch(() => undefined);
      await app.close();
      if (options.exitProcess ?? true) process.exit(0);
    })();
    return closing;
  };
  const onSignal = (signal: NodeJS.Signals) => void shutdown(signal);
  stdin.once('end', () => void shutdown('stdin closed'));
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  return {
    close: () => {
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
      return shutdown('closed by the app');
    },
  };
}
