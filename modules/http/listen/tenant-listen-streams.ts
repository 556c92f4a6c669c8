// The 2026-07-28 subscriptions/listen streams of an authenticated server, one SDK handler per tenant that has a
// stream open, each listening to its tenant's view of the bus (tenant-events.ts). A tenant's handler is made for its
// first stream and closed when its last stream ends, so idle tenants cost nothing.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import type { McpHttpHandler, ServerEventBus } from '@modelcontextprotocol/server';
import { tenantView } from './tenant-events.js';

interface TenantStreams {
  readonly handler: McpHttpHandler;
  readonly serve: ReturnType<typeof toNodeHandler>;
  open: number;
}

export class TenantListenStreams {
  private readonly tenants = new Map<string | undefined, TenantStreams>();

  constructor(
    private readonly bus: ServerEventBus,
    /** An SDK handler serving listens from `bus`. */
    private readonly createHandler: (bus: ServerEventBus) => McpHttpHandler,
    private readonly maxBodyBytes: number,
  ) {}

  /** Serves one listen request of `tenantId` (undefined: an authenticated caller without a tenant). */
  serve(tenantId: string | undefined, req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    let streams = this.tenants.get(tenantId);
    if (!streams) {
      const handler = this.createHandler(tenantView(this.bus, tenantId));
      streams = { handler, serve: toNodeHandler(handler, { maxRequestBodySize: this.maxBodyBytes }), open: 0 };
      this.tenants.set(tenantId, streams);
    }
    const current = streams;
    current.open++;
    res.once('close', () => {
      current.open--;
      if (current.open > 0 || this.tenants.get(tenantId) !== current) return;
      this.tenants.delete(tenantId);
      void current.handler.close().catch(() => undefined);
    });
    return current.serve(req, res, body);
  }

  /** Tenants with a stream open now. */
  get liveTenants(): number {
    return this.tenants.size;
  }

  async close(): Promise<void> {
    const open = [...this.tenants.values()];
    this.tenants.clear();
    await Promise.allSettled(open.map((streams) => streams.handler.close()));
  }
}
