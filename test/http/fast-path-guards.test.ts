// Guards for what the HTTP fast path takes from the SDK beyond its promised API (modules/http/fast-path/
// sdk-envelope-binding.ts): each fails loudly, naming that file, when an SDK upgrade changes what it relies on. Also
// the fast path's own obligations the differential test cannot show: it does serve what it claims, a client that goes
// away cancels its call, and shutdown lets a call in flight answer.
import { readFileSync } from 'node:fs';
import {
  classifyInboundRequest,
  createMcpHandler,
  type JSONRPCMessage,
  Server,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/server';
import { type Context, Module, Tool } from 'mcp-kiln';
import { createTestingModule } from 'mcp-kiln/testing';
import semver from 'semver';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { claimEnvelopeRequest } from '../../modules/http/fast-path/edge-claim.js';
import {
  ENVELOPE_REVISION,
  EnvelopeBoundTransport,
  errorHttpStatus,
  SERVER_DISPATCHED_METHODS,
} from '../../modules/http/fast-path/sdk-envelope-binding.js';
import { http } from '../../modules/http/index.js';
import { MCP_ACCEPT, type RunningServer, startHttpServer } from './helpers/http-server.js';

const BINDING = 'modules/http/fast-path/sdk-envelope-binding.ts';

const aborted: string[] = [];

@Tool('probe_until_aborted', {
  description: 'Waits until its request is cancelled, then records why.',
  input: z.object({}),
})
class UntilAbortedProbe {
  handle(_input: unknown, ctx: Context) {
    return new Promise<string>((resolve) => {
      ctx.signal.addEventListener('abort', () => {
        aborted.push(String(ctx.signal.reason));
        resolve('aborted');
      });
    });
  }
}

@Module({ tools: [UntilAbortedProbe] })
class CancelModule {}

class RecordingTransport extends EnvelopeBoundTransport {
  readonly sent: JSONRPCMessage[] = [];
  override async start(): Promise<void> {}
  override async send(message: JSONRPCMessage): Promise<void> {
    this.sent.push(message);
  }
  override async close(): Promise<void> {
    this.onclose?.();
  }
}

function envelope(method: string, params: Record<string, unknown> = {}) {
  return {
    jsonrpc: '2.0' as const,
    id: 1,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': ENVELOPE_REVISION,
        'io.modelcontextprotocol/clientInfo': { name: 'guard', version: '1.0.0' },
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  };
}

describe(`the SDK behaviour ${BINDING} relies on`, () => {
  it('is the SDK release the binding was written against (package.json pins the range)', () => {
    const sdk = JSON.parse(readFileSync('node_modules/@modelcontextprotocol/server/package.json', 'utf8')) as {
      version: string;
    };
    const pinned = (JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string> })
      .dependencies['@modelcontextprotocol/server'];
    expect(pinned, `re-check ${BINDING} before widening this range`).toBe('~2.4.0');
    expect(semver.satisfies(sdk.version, pinned as string), `SDK ${sdk.version}: re-check ${BINDING}`).toBe(true);
  });

  it('binds a server connected to a PerRequestHTTPServerTransport subclass to 2026-07-28', async () => {
    const server = new Server(
      { name: 'guard', version: '1.0.0' },
      { capabilities: {}, supportedProtocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS, ENVELOPE_REVISION] },
    );
    await server.connect(new RecordingTransport());
    expect(server.getNegotiatedProtocolVersion(), `Server.connect no longer binds by transport: ${BINDING}`).toBe(
      ENVELOPE_REVISION,
    );
    await server.close();
  });

  it('answers a ladder error with the status errorHttpStatus gives it, as createMcpHandler does', async () => {
    // A server with no tools answers tools/call -32601 inside the dispatch window.
    const handler = createMcpHandler(() => new Server({ name: 'guard', version: '1.0.0' }, { capabilities: {} }), {
      legacy: 'reject',
    });
    const body = envelope('tools/call', { name: 'x', arguments: {} });
    const response = await handler.fetch(
      new Request('http://localhost/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: MCP_ACCEPT,
          'mcp-protocol-version': ENVELOPE_REVISION,
          'mcp-method': 'tools/call',
          'mcp-name': 'x',
        },
        body: JSON.stringify(body),
      }),
    );
    const answer = (await response.json()) as { error: { code: number } };
    expect(response.status).toBe(errorHttpStatus(answer.error.code, true));
    expect(errorHttpStatus(answer.error.code, false)).toBe(200);
    await handler.close();
  });

  it('classifies every request the fast path claims as an envelope-era request, as the SDK edge does', () => {
    for (const method of SERVER_DISPATCHED_METHODS) {
      const params = method === 'resources/read' ? { uri: 'a://b' } : { name: 'n', arguments: {} };
      const body = envelope(method, params);
      const headers = {
        'mcp-protocol-version': ENVELOPE_REVISION,
        'mcp-method': method,
        ...(['tools/call', 'prompts/get', 'resources/read'].includes(method)
          ? { 'mcp-name': method === 'resources/read' ? 'a://b' : 'n' }
          : {}),
      };
      expect(claimEnvelopeRequest(body, headers), method).toBe(body);
      const outcome = classifyInboundRequest({
        httpMethod: 'POST',
        protocolVersionHeader: headers['mcp-protocol-version'],
        mcpMethodHeader: headers['mcp-method'],
        mcpNameHeader: headers['mcp-name'],
        body,
      });
      expect(outcome, `${method}: ${BINDING}`).toMatchObject({ kind: 'modern', messageKind: 'request' });
    }
  });
});

describe('the fast path in a running host', () => {
  let running: RunningServer | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  const slowCall = (ms: number) => ({
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: MCP_ACCEPT,
      'mcp-protocol-version': ENVELOPE_REVISION,
      'mcp-method': 'tools/call',
      'mcp-name': 'probe_slow',
    },
    body: JSON.stringify(envelope('tools/call', { name: 'probe_slow', arguments: { ms } })),
  });

  it('cancels a call whose client went away', async () => {
    const testing = await createTestingModule({ imports: [CancelModule] }).compile({
      env: { MCP_TRANSPORT_TYPE: 'http', MCP_HTTP_PORT: '0', MCP_HTTP_FAST_PATH: 'on' },
    });
    const serving = await testing.app.serve(http());
    try {
      const abort = new AbortController();
      const call = slowCall(0);
      const body = envelope('tools/call', { name: 'probe_until_aborted', arguments: {} });
      const pending = fetch(serving.endpointUrl, {
        ...call,
        headers: { ...call.headers, 'mcp-name': 'probe_until_aborted' },
        body: JSON.stringify(body),
        signal: abort.signal,
      }).catch(() => undefined);
      await waitFor(() => testing.app.inFlight === 1);
      abort.abort();
      await pending;
      await waitFor(() => testing.app.inFlight === 0 && aborted.length === 1, 1_000);
      expect(aborted[0]).toContain('client disconnected');
    } finally {
      await serving.close();
      await testing.close();
    }
  });

  it('lets a call in flight answer when the host shuts down', async () => {
    running = await startHttpServer({ MCP_HTTP_FAST_PATH: 'on' });
    const pending = fetch(running.endpoint, slowCall(300));
    await waitFor(() => running?.app.inFlight === 1);
    const closing = running.close();
    const response = await pending;
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ result: { structuredContent: { sleptMs: 300 } } });
    await closing;
  });
});

async function waitFor(condition: () => boolean, withinMs = 2_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
