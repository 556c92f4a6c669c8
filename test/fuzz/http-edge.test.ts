// Property: the Streamable HTTP edge answers every generated message (jsonrpc-grammar.ts) as JSON-RPC requires, on
// both eras: a 2025 session and 2026-07-28 self-describing requests, with mirrored, missing or mismatched headers.
// A real server on 127.0.0.1 and raw fetch: status codes and bodies are the point, not what a client makes of them.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  envelopeHeaders,
  envelopeRequest,
  MCP_ACCEPT,
  openRawSession,
  post,
  type RunningServer,
  sessionHeaders,
  startHttpServer,
} from '../http/helpers/http-server.js';
import { expectNoLeak } from './answer-hygiene.js';
import { fuzzParameters, fuzzTimeout } from './fuzz-settings.js';
import { type Era, wireMessage } from './jsonrpc-grammar.js';
import { expectNoInternalError } from './pipeline-reach.js';
import {
  distinctIds,
  expectJsonRpcError,
  expectOwed,
  type JsonRpcId,
  type Owed,
  owedFor,
  responsesIn,
  type WireAnswer,
} from './wire-expectations.js';

const RUNS = 300;

/** How the request's headers relate to its body. */
type HeaderStyle = 'proper' | 'missing' | 'mismatched' | 'unknown-session';

interface Exchange {
  readonly era: Era;
  readonly bytes: Buffer;
  readonly style: HeaderStyle;
  readonly accept: string | undefined;
  readonly contentType: string;
}

const exchange: fc.Arbitrary<Exchange> = fc.constantFrom<Era>('handshake', 'envelope').chain((era) =>
  fc.record({
    era: fc.constant(era),
    bytes: wireMessage(era),
    style: fc.oneof(
      { arbitrary: fc.constant<HeaderStyle>('proper'), weight: 8 },
      { arbitrary: fc.constantFrom<HeaderStyle>('missing', 'mismatched', 'unknown-session'), weight: 1 },
    ),
    accept: fc.oneof(
      { arbitrary: fc.constant(MCP_ACCEPT), weight: 12 },
      { arbitrary: fc.constantFrom(undefined, 'application/json', '*/*'), weight: 1 },
    ),
    contentType: fc.oneof(
      { arbitrary: fc.constant('application/json'), weight: 12 },
      {
        arbitrary: fc.constantFrom(
          'text/plain',
          'application/json; charset=utf-8',
          'application/x-www-form-urlencoded',
        ),
        weight: 1,
      },
    ),
  }),
);

describe('HTTP edge under generated JSON-RPC traffic', () => {
  let server: RunningServer;
  let sessionId: string;

  beforeAll(async () => {
    server = await startHttpServer();
    sessionId = await openRawSession(server.endpoint);
  });
  afterAll(() => server.close());

  it(
    'answers each request once with its id, never 5xx, never a stack or path, and keeps serving',
    async () => {
      // One to four requests in flight at once (distinct ids, as a client keeps them), so answers could cross.
      const together = fc
        .array(exchange, { minLength: 1, maxLength: 4 })
        .filter((group) => distinctIds(group.map((sent) => owedFor(sent.bytes))));
      await fc.assert(
        fc.asyncProperty(together, async (group) => {
          await Promise.all(group.map((sent) => expectAnswered(server.endpoint, sent, sessionId)));
        }),
        fuzzParameters(RUNS),
      );

      // Still serving both eras once the traffic is over.
      const handshake = await post(
        server.endpoint,
        { jsonrpc: '2.0', id: 'after', method: 'tools/list' },
        sessionHeaders(sessionId),
      );
      expect(handshake.status).toBe(200);
      expect(await handshake.text()).toContain('notes_create_note');
      const envelope = await post(
        server.endpoint,
        envelopeRequest('tools/list', {}, { id: 'after' }),
        envelopeHeaders('tools/list'),
      );
      expect(envelope.status).toBe(200);
      expect(await envelope.text()).toContain('notes_create_note');
    },
    fuzzTimeout(RUNS, 100),
  );
});

/** POSTs one generated message and checks its answer: status, hygiene, and the JSON-RPC answers it was owed. */
async function expectAnswered(endpoint: string, sent: Exchange, sessionId: string): Promise<void> {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: headersFor(sent, sessionId),
    body: sent.bytes,
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  expect(response.status, text.slice(0, 500)).toBeLessThan(500);
  expectNoLeak(text, sent.bytes.toString('utf8'));

  const owed = owedFor(sent.bytes);
  const messages = bodyMessages(text, response.headers.get('content-type'));
  if (response.status >= 400) {
    // Streamable HTTP: a refused POST gets an HTTP error status, and its JSON-RPC error body has no id (null) when
    // the refusal is about the HTTP request rather than the message.
    expect(messages, `HTTP ${response.status} carries one JSON-RPC error: ${text.slice(0, 500)}`).toHaveLength(1);
    expectJsonRpcError(messages[0]!, refusalIds(owed));
    return;
  }
  if (owed.kind === 'nothing') expect(response.status).toBe(202);
  expectOwed(owed, responsesIn(messages));
  expectNoInternalError(sent.bytes, responsesIn(messages));
}

/** The ids a refusal of the whole HTTP request may carry: null, or the message's own id where it has one. */
function refusalIds(owed: Owed): JsonRpcId[] {
  if (owed.kind === 'response') return [null, owed.id];
  if (owed.kind === 'error') return [...owed.ids];
  return [null];
}

function headersFor(sent: Exchange, sessionId: string): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': sent.contentType };
  if (sent.accept !== undefined) headers.accept = sent.accept;
  if (sent.style === 'missing') return headers;
  if (sent.era === 'handshake') {
    if (sent.style === 'unknown-session') return { ...headers, ...sessionHeaders('no-such-session') };
    if (sent.style === 'mismatched')
      return { ...headers, 'mcp-session-id': sessionId, 'mcp-protocol-version': '1999-01-01' };
    return { ...headers, ...sessionHeaders(sessionId) };
  }
  const { method, name } = mirroredFields(sent.bytes);
  if (sent.style === 'mismatched') return { ...headers, ...envelopeHeaders('tools/list'), 'mcp-name': 'not-the-body' };
  if (sent.style === 'unknown-session') headers['mcp-session-id'] = 'no-such-session';
  return { ...headers, ...envelopeHeaders(method ?? 'ping'), ...(name === undefined ? {} : { 'mcp-name': name }) };
}

/** The body's method and the name Mcp-Name mirrors (params.name or params.uri), when a header can carry them. */
function mirroredFields(bytes: Buffer): { method?: string; name?: string } {
  let message: { method?: unknown; params?: { name?: unknown; uri?: unknown } } | null = null;
  try {
    message = JSON.parse(bytes.toString('utf8'));
  } catch {
    return {};
  }
  // Mirrored values may pass Node's 16 KiB header limit: the 431 that follows must be a JSON-RPC error too (it once
  // was Fastify's own body). Only printable ASCII is mirrored, since fetch refuses anything else in a header.
  const headerSafe = (value: unknown) =>
    typeof value === 'string' && value.length <= 32_768 && /^[\x20-\x7e]*$/.test(value) ? value : undefined;
  return {
    method: headerSafe(message?.method),
    name: headerSafe(message?.params?.name) ?? headerSafe(message?.params?.uri),
  };
}

/** The JSON-RPC messages of a body: one JSON document, or the `data:` lines of an event stream. */
function bodyMessages(text: string, contentType: string | null): WireAnswer[] {
  if (text.trim() === '') return [];
  if (contentType?.includes('text/event-stream')) {
    return (
      text
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice('data:'.length).trim())
        // The priming event of a resumable stream carries an empty `data:`.
        .filter((data) => data.length > 0)
        .map((data) => JSON.parse(data) as WireAnswer)
    );
  }
  const parsed = JSON.parse(text) as WireAnswer | WireAnswer[];
  return Array.isArray(parsed) ? parsed : [parsed];
}
