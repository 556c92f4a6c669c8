// Serves an app on stdio (or any SDK Transport) for both eras: the SDK pins each connection to the era its first
// exchange selects and calls the factory for that connection. Stopping lets requests in flight answer first; the
// app wires stdin EOF and signals to it (process-signals.ts).

import type { Readable, Writable } from 'node:stream';
import type { AuthInfo, Server, Transport } from '@modelcontextprotocol/server';
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import type { KilnApp } from '../app/kiln-app.js';
import { serverSink } from '../server/server-sink.js';
import { StdioLineGuard } from './stdio-line-guard.js';

export interface StdioServeOptions {
  readonly stdin?: Readable;
  readonly stdout?: Writable;
  /** Serve over this transport instead of stdio (in-memory clients, tests). */
  readonly transport?: Transport;
  /**
   * Who the connection runs as: attached as `authInfo` to every message its server receives, as an HTTP host attaches
   * a verified token. The SDK's stdio entry forwards no transport `extra`, so it is attached on the server's side.
   */
  readonly authInfo?: AuthInfo;
}

export interface ServingHandle {
  close(): Promise<void>;
}

/** How long shutdown waits for requests in flight before closing anyway. */
export const SHUTDOWN_DRAIN_MS = 10_000;

export function serveOverStdio(app: KilnApp, options: StdioServeOptions = {}): ServingHandle {
  if (options.transport)
    return serveStdio(serverFactory(app, options.authInfo), { transport: options.transport, onerror: reportTo(app) });

  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  // The SDK transport closes, dropping every unsent response, the moment its stdin ends. It reads from this guard
  // instead, which ends only after the requests in flight at EOF have answered (and answers bad lines itself).
  const wire = new StdioLineGuard({
    maxLineBytes: app.config.stdio.maxLineBytes,
    onRejected: ({ code, message, answer }) => {
      app.logger.notice({ code, reason: message }, 'Answered a stdin line that is not a JSON-RPC message');
      stdout.write(answer);
    },
  });
  stdin.on('data', (chunk) => wire.write(chunk));
  const handle = serveStdio(serverFactory(app), {
    // The guard forwards one whole line per chunk, so the SDK never buffers more than one line: its cap follows the
    // guard's, and a raised limit cannot reach the SDK's overflow, which closes the transport for good.
    transport: new StdioServerTransport(wire, stdout, { maxBufferSize: wire.maxLineBytes + 1 }),
    onerror: reportTo(app),
  });
  if ((stdin as NodeJS.ReadStream).isTTY) {
    // A person started the server in a terminal; stdout is the protocol channel, so the hint goes to stderr.
    process.stderr.write(
      `${app.runtime.serverInfo.name} is serving MCP on stdio. Point an MCP client at this command, or press Ctrl+C to stop.\n`,
    );
  }

  // Stopping lets requests in flight answer, then closes the wire. EOF and signals are wired by the app
  // (exitOnSignals), which stops serving through this handle before it exits.
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      if (!(await app.runtime.inFlight.drained(SHUTDOWN_DRAIN_MS))) {
        app.logger.warning(`Requests still running after ${SHUTDOWN_DRAIN_MS} ms were abandoned.`);
      }
      wire.end();
      await handle.close().catch(() => undefined);
    })();
    return stopping;
  };
  return { close: stop };
}

/** One protocol server per stdio connection, attached to the app's notifier for as long as it is open. */
function serverFactory(app: KilnApp, authInfo?: AuthInfo) {
  return ({ era }: { era: 'legacy' | 'modern' }) => {
    const server = app.createServer(era, { exposesSessionId: false });
    if (authInfo) actAs(server, authInfo);
    const detach = app.runtime.notifier.attach(serverSink(server, era));
    const previous = server.onclose;
    server.onclose = () => {
      detach();
      previous?.();
    };
    return server;
  };
}

/** Every message `server` receives carries `authInfo`, which the SDK surfaces to handlers as `ctx.http.authInfo`. */
function actAs(server: Server, authInfo: AuthInfo): void {
  const connect = server.connect.bind(server);
  server.connect = async (transport) => {
    await connect(transport);
    const receive = transport.onmessage;
    transport.onmessage = (message, extra) => receive?.(message, { ...extra, authInfo });
  };
}

function reportTo(app: KilnApp) {
  return (error: Error) => app.logger.warning({ err: error }, `stdio transport error: ${error.message}`);
}
