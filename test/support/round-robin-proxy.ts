// A minimal load balancer for multi-instance tests: each request goes to the next upstream in turn (no stickiness),
// bodies and event streams pass through unchanged, and an upstream that refuses the connection (a killed instance)
// is skipped, as a balancer's passive health check would. Every exchange is logged for assertions.
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { forward } from '../../examples/cluster/forward-request.js';

export interface ProxiedExchange {
  readonly method: string;
  /** Index of the upstream that answered (or -1 when none could). */
  readonly upstream: number;
  /** The parsed JSON body of a POST, when it had one. */
  readonly body: unknown;
}

/** Picks the upstream for one request; undefined leaves it to the rotation. */
export type ProxyRoute = (exchange: { method: string; body: unknown }) => number | undefined;

export interface RoundRobinProxy {
  /** The MCP endpoint through the proxy. */
  readonly endpoint: string;
  readonly exchanges: readonly ProxiedExchange[];
  /** Overrides the rotation for the requests it names (undefined restores plain round robin). */
  route(route: ProxyRoute | undefined): void;
  close(): Promise<void>;
}

export async function startRoundRobinProxy(upstreams: readonly string[], path = '/mcp'): Promise<RoundRobinProxy> {
  const exchanges: ProxiedExchange[] = [];
  let next = 0;
  let route: ProxyRoute | undefined;
  const live = new Set<ServerResponse>();

  const server = createServer(async (req, res) => {
    live.add(res);
    res.once('close', () => live.delete(res));
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const body = parseJson(raw);
    const method = req.method ?? 'GET';
    const chosen = route?.({ method, body });
    const start = chosen ?? next++ % upstreams.length;
    for (let attempt = 0; attempt < upstreams.length; attempt++) {
      const index = (start + attempt) % upstreams.length;
      const forwarded = await forward(upstreams[index] as string, req, res, raw);
      if (forwarded) {
        exchanges.push({ method, upstream: index, body });
        return;
      }
    }
    exchanges.push({ method, upstream: -1, body });
    res.writeHead(502).end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  return {
    endpoint: `http://127.0.0.1:${port}${path}`,
    exchanges,
    route: (value) => {
      route = value;
    },
    close: async () => {
      for (const res of live) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

function parseJson(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return undefined;
  }
}
