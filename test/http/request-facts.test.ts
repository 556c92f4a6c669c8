// ctx.http: a tool reads the headers, the caller's address and the URL of the HTTP request that carried its call, on
// every path a call takes (2026-07-28 direct and through the SDK's dispatch, a 2025 session's direct path and its
// server, a stateless 2025 request), with credentials left out; undefined without HTTP. Forwarded headers count only
// from a proxy MCP_HTTP_TRUST_PROXY trusts, and a client cannot forge the host's own stamps.
import { type HandlerContext, Module, Tool } from 'mcp-kiln';
import { createTestingModule } from 'mcp-kiln/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectClient, type Era, type RunningServer, startHttpServer } from './helpers/http-server.js';

const Facts = z.object({
  present: z.boolean().describe('Whether ctx.http was set'),
  remoteAddress: z.string().nullable().describe('ctx.http.remoteAddress'),
  url: z.string().nullable().describe('ctx.http.url'),
  headers: z.record(z.string(), z.unknown()).describe('ctx.http.headers'),
});

@Tool('probe_http', {
  description: 'Reports the HTTP facts of the request that carried this call.',
  annotations: { readOnlyHint: true },
  input: z.object({}),
  output: Facts,
})
class HttpProbeTool {
  async handle(_input: Record<string, never>, ctx: HandlerContext) {
    await ctx.progress(1, 1);
    const { http } = ctx;
    return {
      present: http !== undefined,
      remoteAddress: http?.remoteAddress ?? null,
      url: http?.url ?? null,
      headers: { ...http?.headers },
    };
  }
}

@Module({ tools: [HttpProbeTool] })
class HttpProbeModule {}

/** What every request of these tests sends besides the client's own headers: a header of its own, and forgeries. */
const SENT = {
  'x-probe': 'yes',
  cookie: 'session=secret',
  'x-mcp-kiln-caller-address': '6.6.6.6',
  'x-mcp-kiln-request-url': 'http://forged.example/mcp',
  'x-forwarded-for': '203.0.113.9',
  'x-forwarded-host': 'public.example',
  'x-forwarded-proto': 'https',
};

const withHeaders: typeof fetch = (input, init) => {
  const headers = new Headers(init?.headers);
  for (const [name, value] of Object.entries(SENT)) headers.set(name, value);
  return fetch(input, { ...init, headers });
};

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function probe(env: Record<string, string>, era: Era, { progress }: { progress: boolean }) {
  server = await startHttpServer(env, {}, HttpProbeModule);
  const { client } = await connectClient(server.endpoint, era, { fetch: withHeaders });
  try {
    const progressed: number[] = [];
    const result = await client.callTool(
      { name: 'probe_http', arguments: {} },
      progress ? { onprogress: (update) => progressed.push(update.progress) } : undefined,
    );
    // The progress path is the one under test: the call must have streamed.
    expect(progressed).toEqual(progress ? [1] : []);
    return Facts.parse(result.structuredContent);
  } finally {
    await client.close();
  }
}

const PATHS = [
  { name: '2026-07-28, direct', era: 'envelope', env: {}, progress: false },
  { name: '2026-07-28, through the SDK server (progress)', era: 'envelope', env: {}, progress: true },
  { name: "2026-07-28, the SDK's handler", era: 'envelope', env: { MCP_HTTP_FAST_PATH: 'off' }, progress: false },
  { name: '2025 session, direct', era: 'handshake', env: {}, progress: false },
  { name: "2025 session, the session's server (progress)", era: 'handshake', env: {}, progress: true },
  { name: '2025 stateless', era: 'handshake', env: { MCP_SESSION_MODE: 'stateless' }, progress: false },
] as const;

describe('ctx.http', () => {
  it.each(PATHS)('shows the request as it arrived, forwarded headers untrusted ($name)', async (path) => {
    const facts = await probe(path.env, path.era, { progress: path.progress });
    const { port } = new URL(server!.endpoint);
    expect(facts).toMatchObject({
      present: true,
      remoteAddress: '127.0.0.1',
      url: `http://127.0.0.1:${port}/mcp`,
    });
    expect(facts.headers).toMatchObject({ 'x-probe': 'yes', 'x-forwarded-host': 'public.example' });
    expect(facts.headers['mcp-protocol-version']).toBeDefined();
    // Credentials and the host's own stamps never reach a tool.
    for (const hidden of ['cookie', 'authorization', 'x-mcp-kiln-caller-address', 'x-mcp-kiln-request-url']) {
      expect(facts.headers).not.toHaveProperty(hidden);
    }
  });

  it.each(PATHS)('takes the client and URL a trusted proxy forwarded ($name)', async (path) => {
    const facts = await probe({ ...path.env, MCP_HTTP_TRUST_PROXY: '127.0.0.1' }, path.era, {
      progress: path.progress,
    });
    expect(facts).toMatchObject({
      present: true,
      remoteAddress: '203.0.113.9',
      url: 'https://public.example/mcp',
    });
  });

  it('is undefined for a call that no HTTP request carried', async () => {
    const testing = await createTestingModule({ imports: [HttpProbeModule] }).compile();
    try {
      const result = await testing.app.callTool('probe_http', {});
      expect(result.structuredContent).toMatchObject({ present: false, remoteAddress: null, url: null });
    } finally {
      await testing.app.close();
    }
  });
});

describe('a forwarded host behind a trusted proxy', () => {
  it('is checked like Host: a malformed one gets 400, not a URL that throws', async () => {
    server = await startHttpServer({ MCP_HTTP_TRUST_PROXY: '127.0.0.1' }, {}, HttpProbeModule);
    for (const forwarded of ['localhost:99999', '[::1', 'a/b']) {
      const answer = await fetch(server.endpoint, {
        headers: { accept: 'text/html', 'x-forwarded-host': forwarded },
      });
      expect(answer.status, forwarded).toBe(400);
      const body = (await answer.json()) as { error: { message: string; data: { reason: string } } };
      expect(body.error.data.reason).toBe('invalid_http_request');
      expect(body.error.message).toContain('the forwarded host');
    }
    const fine = await fetch(server.endpoint, { headers: { accept: 'text/html', 'x-forwarded-host': 'mcp.example' } });
    expect(fine.status).toBe(200);
  });
});
