// Serves an app the way its configuration says (MCP_TRANSPORT_TYPE), and ends the process cleanly on SIGTERM,
// SIGINT and stdin EOF. The HTTP host is loaded by its public entry only when selected, so a stdio server never
// loads Fastify.
import type { Readable, Writable } from 'node:stream';
import type { Serving } from '../app/app-port.js';
import type { KilnApp } from '../app/kiln-app.js';
import { stdio } from '../transports/stdio-transport.js';
import { exitOnSignals } from './process-signals.js';

export interface ListenOptions {
  readonly stdin?: Readable;
  readonly stdout?: Writable;
  /** Wire SIGTERM, SIGINT (and stdin EOF on stdio) to a clean exit; default true. */
  readonly exitOnSignals?: boolean;
}

export async function listen(app: KilnApp, options: ListenOptions = {}): Promise<Serving> {
  const handleSignals = options.exitOnSignals ?? true;
  if (app.config.transportType === 'http') {
    const { http } = await import('mcp-kiln/http');
    const serving = await app.serve(http());
    process.stdout.write(
      `${app.serverInfo.name} is serving MCP over HTTP.\n  Landing page: ${serving.url}\n  MCP endpoint: ${serving.endpointUrl}\n`,
    );
    app.logger.info({ url: serving.url, endpoint: serving.endpointUrl }, 'Serving MCP over HTTP');
    if (handleSignals) exitOnSignals(app);
    return serving;
  }
  const serving = await app.serve(stdio({ stdin: options.stdin, stdout: options.stdout }));
  if (handleSignals) exitOnSignals(app, options.stdin ?? process.stdin);
  return serving;
}
