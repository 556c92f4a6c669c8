// `kilnFastify`: the MCP endpoint as a Fastify plugin, for an app of yours that already serves HTTP.
//
//   await fastify.register(kilnFastify, { app, prefix: '/mcp' });
//
// It mounts the endpoint (both eras, 2025 sessions, the fast path, SSE and resumability, the bearer gate) at `prefix`
// with its own hooks, body parser and error handler kept to its routes; the RFC 9728 metadata at the server's root;
// the landing page for a browser that visits the endpoint, with its playground script at `<prefix>/playground.js`;
// and the health route at `<prefix>/healthz`. Your instance's options, plugins (CORS, Helmet, rate limits, under
// pressure), hooks and other routes stay in force. The endpoint is served until the app closes or your instance does
// (its `preClose`), whichever comes first.
import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import type { HttpConfig, KilnApp } from '../../src/index.js';
import type { BearerAuthOptions } from '../auth/index.js';
import { type MountedEndpoint, mountEndpoint } from './mount-endpoint.js';
import type { HandshakeLegOptions } from './sessions/handshake-session-leg.js';

export interface KilnFastifyOptions extends HandshakeLegOptions {
  /** The app to serve (`createApp(Root, { serve: false })`). */
  readonly app: KilnApp;
  /** The endpoint's path; `/mcp` by default. */
  readonly prefix?: string;
  /** Bearer tokens on the endpoint, as for `http()`: `authFromEnv()` from mcp-kiln/auth, or your own verifier. */
  readonly auth?: BearerAuthOptions;
  /** Settings over the app's own MCP_HTTP_* ones that apply to the endpoint (body and JSON limits, sessions, …). */
  readonly config?: Partial<HttpConfig>;
  /** The landing page (and its playground, when MCP_PLAYGROUND is on) for browsers visiting the endpoint; on by default. */
  readonly landingPage?: boolean;
  /** The liveness and readiness routes at `<prefix>/healthz` and `<prefix>/readyz`; on by default. */
  readonly health?: boolean;
  /**
   * Host header names the endpoint accepts, against DNS rebinding: `loopback` (the default) checks connections that
   * reached a loopback address against localhost names; a list allows those names everywhere; `any` checks none.
   */
  readonly allowedHosts?: readonly string[] | 'loopback' | 'any';
}

async function kilnFastifyPlugin(fastify: FastifyInstance, options: KilnFastifyOptions): Promise<void> {
  const { app, prefix = '/mcp' } = options;
  if (typeof app?.serve !== 'function') {
    throw new TypeError('kilnFastify needs { app }: a Kiln app, from createApp(Root, { serve: false }).');
  }
  if (!/^\/[\w\-./]*$/.test(prefix) || prefix === '/' || prefix.endsWith('/')) {
    throw new TypeError(`kilnFastify: prefix ${JSON.stringify(prefix)} is not a path such as /mcp.`);
  }
  let mounted: MountedEndpoint | undefined;
  const serving = await app.serve({
    start: async (port) => {
      mounted = await mountEndpoint(fastify, port, {
        ...options,
        config: { ...port.config.http, ...options.config },
        endpoint: prefix,
        allowedHosts: options.allowedHosts ?? 'loopback',
        landingPage: options.landingPage ?? true,
        landingPath: undefined,
        scriptPath: `${prefix}/playground.js`,
        healthPath: (options.health ?? true) ? `${prefix}/healthz` : undefined,
        readyPath: (options.health ?? true) ? `${prefix}/readyz` : undefined,
      });
      return mounted;
    },
  });
  // Before the server stops taking connections: in-flight calls finish and event streams end, so close() completes.
  fastify.addHook('preClose', async () => {
    await serving.close();
  });
}

/** The Fastify plugin serving a Kiln app's MCP endpoint; see the file's opening comment. */
export const kilnFastify = fastifyPlugin(kilnFastifyPlugin, { fastify: '5.x', name: 'mcp-kiln' });
