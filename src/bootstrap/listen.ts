// Serves an app the way its configuration says (MCP_TRANSPORT_TYPE), and ends the process cleanly on SIGTERM,
// SIGINT and stdin EOF. The HTTP host is loaded by its public entry only when selected, so a stdio server never
// loads Fastify; with MCP_AUTH_MODE=jwt or oauth the auth module reads its settings and the host requires tokens.
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
  /** Where the auth module reads its settings (MCP_AUTH_SECRET_KEY, OAUTH_*, ...); defaults to process.env. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export async function listen(app: KilnApp, options: ListenOptions = {}): Promise<Serving> {
  const handleSignals = options.exitOnSignals ?? true;
  const { mode } = app.config.auth;
  if (app.config.transportType === 'http') {
    const { http } = await import('mcp-kiln/http');
    const auth = mode === 'none' ? undefined : (await import('mcp-kiln/auth')).authFromEnv(options.env ?? process.env);
    const serving = await app.serve(http(auth ? { auth } : {}));
    process.stdout.write(
      `${app.serverInfo.name} is serving MCP over HTTP.\n  Landing page: ${serving.url}\n  MCP endpoint: ${serving.endpointUrl}\n`,
    );
    app.logger.info({ url: serving.url, endpoint: serving.endpointUrl }, 'Serving MCP over HTTP');
    if (handleSignals) exitOnSignals(app);
    return serving;
  }
  if (mode !== 'none') {
    // The MCP authorization spec covers HTTP only; a stdio server runs as the user who started it.
    app.logger.warning(`MCP_AUTH_MODE=${mode} applies to HTTP; stdio serves without authentication.`);
  }
  const serving = await app.serve(stdio({ stdin: options.stdin, stdout: options.stdout }));
  if (handleSignals) exitOnSignals(app, options.stdin ?? process.stdin);
  return serving;
}
