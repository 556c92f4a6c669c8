// Kiln behind a real nginx terminating TLS with a certificate the test makes. With MCP_HTTP_TRUST_PROXY naming the
// proxy, the challenges and the protected-resource metadata name the public https URL, a token for that audience is
// accepted and one for the internal URL refused, the official SDK client calls tools through https on both eras, and
// ctx.http shows the forwarded client and URL. Without it, forwarded headers change nothing.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SignJWT } from 'jose';
import { createApp, type HandlerContext, type KilnApp, Module, Tool } from 'mcp-kiln';
import { authFromEnv } from 'mcp-kiln/auth';
import { http } from 'mcp-kiln/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

const SECRET = 'reverse-proxy-test-secret-of-32-bytes-at-least';

@Tool('probe_http', {
  description: 'Reports the caller address and URL the server saw.',
  annotations: { readOnlyHint: true },
  input: z.object({}),
  output: z.object({ remoteAddress: z.string().describe('ctx.http.remoteAddress'), url: z.string().describe('URL') }),
})
class HttpProbeTool {
  handle(_input: Record<string, never>, ctx: HandlerContext) {
    return { remoteAddress: ctx.http?.remoteAddress ?? '', url: ctx.http?.url ?? '' };
  }
}

@Module({ tools: [HttpProbeTool] })
class ProbeModule {}

let dir: string;
let nginx: ChildProcess | undefined;
let ca: string;
const apps: KilnApp[] = [];
/** nginx's two TLS ports: one in front of a Kiln that trusts it, one in front of a Kiln that does not. */
let trustedPort: number;
let untrustedPort: number;
let untrustedKiln: string;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function kiln(env: Record<string, string>): Promise<string> {
  const full = {
    MCP_LOG_LEVEL: 'error',
    MCP_HTTP_PORT: '0',
    MCP_AUTH_MODE: 'jwt',
    MCP_AUTH_SECRET_KEY: SECRET,
    ...env,
  };
  const app = await createApp(ProbeModule, { serve: false, env: full });
  apps.push(app);
  // jwt mode names no authorization server, and so serves no metadata: name one, as a deployment with its own does.
  const auth = authFromEnv(full);
  const serving = await app.serve(
    http({ auth: { ...(auth as NonNullable<typeof auth>), authorizationServers: ['https://as.kiln.test'] } }),
  );
  return new URL(serving.url).host;
}

/** fetch over https trusting the test's own CA, for the SDK client and the raw requests alike. */
const tlsFetch: typeof fetch = (input, init) =>
  new Promise((resolve, reject) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers = Object.fromEntries(new Headers(init?.headers));
    const outgoing = request(url, { method: init?.method ?? 'GET', headers, ca }, (incoming) => {
      const responseHeaders = new Headers();
      for (const [name, value] of Object.entries(incoming.headers)) {
        for (const item of Array.isArray(value) ? value : [value ?? '']) responseHeaders.append(name, item);
      }
      const status = incoming.statusCode ?? 500;
      const body = status === 204 || status === 304 ? null : (Readable.toWeb(incoming) as ReadableStream);
      resolve(new Response(body, { status, headers: responseHeaders }));
    });
    init?.signal?.addEventListener('abort', () => outgoing.destroy(new Error('aborted')));
    outgoing.on('error', reject);
    outgoing.end(typeof init?.body === 'string' ? init.body : undefined);
  });

const token = (audience: string) =>
  new SignJWT({ sub: 'ada', scope: 'notes:read' })
    .setProtectedHeader({ alg: 'HS256' })
    .setAudience(audience)
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(SECRET));

beforeAll(async () => {
  try {
    execFileSync('nginx', ['-v'], { stdio: 'ignore' });
  } catch {
    throw new Error('nginx is not installed: apt-get install -y nginx (.ci/run installs it when missing).');
  }
  dir = mkdtempSync(join(tmpdir(), 'kiln-proxy-'));
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '1'],
      ...['-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-subj', '/CN=localhost'],
      ...['-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'],
    ],
    { stdio: 'ignore' },
  );
  ca = readFileSync(join(dir, 'cert.pem'), 'utf8');
  trustedPort = await freePort();
  untrustedPort = await freePort();
  const trustedKiln = await kiln({
    MCP_HTTP_TRUST_PROXY: '127.0.0.1',
    MCP_JWT_EXPECTED_AUDIENCE: `https://localhost:${trustedPort}/mcp`,
  });
  untrustedKiln = await kiln({ MCP_JWT_EXPECTED_AUDIENCE: 'kiln-internal' });
  const server = (port: number, upstream: string) => `
  server {
    listen 127.0.0.1:${port} ssl;
    server_name localhost;
    ssl_certificate ${dir}/cert.pem;
    ssl_certificate_key ${dir}/key.pem;
    location / {
      proxy_pass http://${upstream};
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_buffering off;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header X-Forwarded-Host $http_host;
    }
  }`;
  // One process in the foreground, as the test's user; nginx's default Host to the upstream is its address, which
  // Kiln's loopback Host check accepts, and the public host rides in X-Forwarded-Host.
  writeFileSync(
    join(dir, 'nginx.conf'),
    `daemon off;
master_process off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
${server(trustedPort, trustedKiln)}
${server(untrustedPort, untrustedKiln)}
}
`,
  );
  nginx = spawn('nginx', ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  nginx.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  for (let attempt = 0; ; attempt++) {
    const answered = await tlsFetch(`https://localhost:${trustedPort}/healthz`).then(
      (response) => response.status,
      () => 0,
    );
    if (answered === 200) break;
    if (attempt === 100 || nginx.exitCode !== null) throw new Error(`nginx did not start:\n${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}, 30_000);

afterAll(async () => {
  nginx?.kill('SIGTERM');
  for (const app of apps) await app.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const toolsCall = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: {
    name: 'probe_http',
    arguments: {},
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  },
};
const callHeaders = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': 'probe_http',
};

describe('behind nginx terminating TLS, with MCP_HTTP_TRUST_PROXY naming it', () => {
  const publicUrl = () => `https://localhost:${trustedPort}/mcp`;

  it('challenges with, and serves, metadata naming the public https URL', async () => {
    const refused = await tlsFetch(publicUrl(), {
      method: 'POST',
      headers: callHeaders,
      body: JSON.stringify(toolsCall),
    });
    expect(refused.status).toBe(401);
    const metadataUrl = `https://localhost:${trustedPort}/.well-known/oauth-protected-resource/mcp`;
    expect(refused.headers.get('www-authenticate')).toContain(`resource_metadata="${metadataUrl}"`);
    const metadata = (await (await tlsFetch(metadataUrl)).json()) as { resource: string };
    expect(metadata.resource).toBe(publicUrl());
  });

  it('accepts a token for the public URL and refuses one for the internal address', async () => {
    const internal = `http://127.0.0.1:${new URL(`http://${untrustedKiln}`).port}/mcp`;
    const wrong = await tlsFetch(publicUrl(), {
      method: 'POST',
      headers: { ...callHeaders, authorization: `Bearer ${await token(internal)}` },
      body: JSON.stringify(toolsCall),
    });
    expect(wrong.status).toBe(401);
    const right = await tlsFetch(publicUrl(), {
      method: 'POST',
      headers: { ...callHeaders, authorization: `Bearer ${await token(publicUrl())}` },
      body: JSON.stringify(toolsCall),
    });
    expect(right.status).toBe(200);
    const { result } = (await right.json()) as {
      result: { structuredContent: { remoteAddress: string; url: string } };
    };
    // ctx.http: the client nginx forwarded, and the URL as the client used it.
    expect(result.structuredContent).toEqual({ remoteAddress: '127.0.0.1', url: publicUrl() });
  });

  it.each(['handshake', 'envelope'] as const)('serves the official SDK client through https (%s era)', async (era) => {
    const bearer = await token(publicUrl());
    const transport = new StreamableHTTPClientTransport(new URL(publicUrl()), {
      fetch: tlsFetch,
      requestInit: { headers: { authorization: `Bearer ${bearer}` } },
    });
    const client = new Client(
      { name: `proxy-${era}`, version: '1.0.0' },
      era === 'envelope' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : undefined,
    );
    await client.connect(transport);
    try {
      const result = await client.callTool({ name: 'probe_http', arguments: {} });
      expect(result.structuredContent).toMatchObject({ url: publicUrl() });
    } finally {
      await client.close();
    }
  });
});

describe('behind the same nginx, without MCP_HTTP_TRUST_PROXY', () => {
  it('names the address nginx reached it at, ignoring every forwarded header', async () => {
    const internalMetadata = `http://${untrustedKiln}/.well-known/oauth-protected-resource/mcp`;
    const throughProxy = await tlsFetch(`https://localhost:${untrustedPort}/.well-known/oauth-protected-resource/mcp`);
    expect(((await throughProxy.json()) as { resource: string }).resource).toBe(`http://${untrustedKiln}/mcp`);
    // A client sending the headers itself, straight to Kiln, changes nothing either.
    const spoofed = await fetch(internalMetadata, {
      headers: { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https', 'x-forwarded-for': '6.6.6.6' },
    });
    expect(((await spoofed.json()) as { resource: string }).resource).toBe(`http://${untrustedKiln}/mcp`);
  });
});
