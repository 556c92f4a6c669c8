// The stdio host (`stdio()`), also serving any SDK Transport (in-memory pairs, custom pipes) for both eras: the SDK
// pins each connection to the era its first exchange selects and calls the factory for that connection. The app
// drains requests in flight before it closes the wire (KilnApp.close); EOF and signals are wired by `listen`.
import type { Readable, Writable } from 'node:stream';
import type { AuthInfo, McpRequestContext, Server, Transport } from '@modelcontextprotocol/server';
import type { AppPort, HostHandle, KilnHost } from '../app/app-port.js';
import { eraOfSdk } from '../context/protocol-era.js';
import { principalOf } from '../protocol/principal.js';
import { StdioDirectCalls } from './stdio-direct-calls.js';
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

type SdkStdio = typeof import('@modelcontextprotocol/server/stdio');

/** Serves the app on stdin/stdout, or on `options.transport`. */
export function stdio(options: StdioServeOptions = {}): KilnHost {
  // The SDK's stdio entry loads with the stdio host, so a server that never serves stdio never reads it.
  return { start: async (app) => serveOverStdio(await import('@modelcontextprotocol/server/stdio'), app, options) };
}

function serveOverStdio(
  { serveStdio, StdioServerTransport }: SdkStdio,
  app: AppPort,
  options: StdioServeOptions,
): HostHandle {
  if (options.transport) {
    return serveStdio(serverFactory(app, options.authInfo), { transport: options.transport, onerror: reportTo(app) });
  }
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  // The SDK transport closes, dropping every unsent response, the moment its stdin ends. It reads from this guard
  // instead, which ends only after the app drained the requests in flight (and answers bad lines itself).
  const direct = app.config.stdio.fastPath
    ? new StdioDirectCalls(app, {
        write: (line) => stdout.write(line),
        dispatch: (message) => wire.dispatch(message),
        authInfo: options.authInfo,
      })
    : undefined;
  const wire = new StdioLineGuard({
    maxLineBytes: app.config.stdio.maxLineBytes,
    intercept: direct && ((message) => direct.take(message)),
    onRejected: ({ code, message, answer }) => {
      app.logger.notice({ code, reason: message }, 'Answered a stdin line that is not a JSON-RPC message');
      stdout.write(answer);
    },
  });
  stdin.on('data', (chunk) => wire.write(chunk));
  const handle = serveStdio(serverFactory(app, options.authInfo, direct), {
    // The guard forwards one whole line per chunk, so the SDK never buffers more than one line: its cap follows the
    // guard's, and a raised limit cannot reach the SDK's overflow, which closes the transport for good.
    transport: new StdioServerTransport(wire, stdout, { maxBufferSize: wire.maxLineBytes + 1 }),
    onerror: reportTo(app),
  });
  if ((stdin as NodeJS.ReadStream).isTTY) {
    // A person started the server in a terminal; stdout is the protocol channel, so the hint goes to stderr.
    process.stderr.write(
      `${app.serverInfo.name} is serving MCP on stdio. Point an MCP client at this command, or press Ctrl+C to stop.\n`,
    );
  }
  return {
    close: async () => {
      wire.end();
      await handle.close().catch(() => undefined);
    },
  };
}

/** One protocol server per connection, hearing the app's change events for as long as it is open. */
function serverFactory(app: AppPort, authInfo?: AuthInfo, direct?: StdioDirectCalls) {
  return (context: Pick<McpRequestContext, 'era'>) => {
    const era = eraOfSdk(context.era);
    const server = app.createServer(era, { exposesSessionId: false });
    if (authInfo) actAs(server, authInfo);
    // A 2025 connection's plain calls run directly; a 2026-07-28 one is served by its server alone.
    if (era === 'handshake') direct?.attach(server);
    // A connection that acts as a principal hears its own tenant's resource events only.
    const detach = app.onChange(app.sinkFor(server, era, authInfo && { tenantId: principalOf(authInfo).tenantId }));
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

function reportTo(app: AppPort) {
  return (error: Error) => app.logger.warning({ err: error }, `stdio transport error: ${error.message}`);
}
