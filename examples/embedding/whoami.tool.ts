// Embedding example (docs/embedding.md): a tool reading the HTTP request that carried its call.
import { type Context, Tool } from 'mcp-kiln';
import { z } from 'zod';

@Tool('audit_whoami', { description: 'Who is calling, from where.', input: z.object({}) })
export class WhoAmITool {
  handle(_input: object, ctx: Context) {
    const http = ctx.http;
    return JSON.stringify({ address: http?.remoteAddress, url: http?.url, agent: http?.headers['user-agent'] });
  }
}
