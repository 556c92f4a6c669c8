// The HTTP requests the benchmark sends: a notes_get_note tools/call per protocol era, the setup calls (create the
// note, open a 2025 session), and a probe that sends a call once by hand and checks its result before any load.
import { CLIENT_CAPABILITIES_META_KEY, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';

export const REVISION_2026_07_28 = '2026-07-28';
export const REVISION_2025_11_25 = '2025-11-25';

export interface HttpCall {
  readonly headers: Record<string, string>;
  /** Carries autocannon's `[<id>]` placeholder as the JSON-RPC id: requests sharing a 2025 session need unique ids. */
  readonly body: string;
}

interface JsonRpcReply {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly message: { result?: Record<string, unknown>; error?: unknown } | undefined;
}

export class BenchSetupError extends Error {}

export function toolCall(
  era: typeof REVISION_2026_07_28 | typeof REVISION_2025_11_25,
  name: string,
  args: Record<string, unknown>,
  sessionId?: string,
): HttpCall {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': era,
  };
  let params: Record<string, unknown> = { name, arguments: args };
  if (era === REVISION_2026_07_28) {
    // 2026-07-28 requests are self-describing: the envelope rides in _meta and is mirrored in standard headers.
    headers['mcp-method'] = 'tools/call';
    headers['mcp-name'] = name;
    params = {
      ...params,
      _meta: { [PROTOCOL_VERSION_META_KEY]: REVISION_2026_07_28, [CLIENT_CAPABILITIES_META_KEY]: {} },
    };
  }
  if (sessionId) headers['mcp-session-id'] = sessionId;
  return { headers, body: JSON.stringify({ jsonrpc: '2.0', id: '[<id>]', method: 'tools/call', params }) };
}

/** A 2026-07-28 resources/read or prompts/get, the other two calls the fast path runs itself. */
export function envelopeCall(method: 'resources/read' | 'prompts/get', params: Record<string, unknown>): HttpCall {
  const name = method === 'resources/read' ? params.uri : params.name;
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': REVISION_2026_07_28,
    'mcp-method': method,
    'mcp-name': String(name),
  };
  const _meta = { [PROTOCOL_VERSION_META_KEY]: REVISION_2026_07_28, [CLIENT_CAPABILITIES_META_KEY]: {} };
  return { headers, body: JSON.stringify({ jsonrpc: '2.0', id: '[<id>]', method, params: { ...params, _meta } }) };
}

/** Creates the note the benchmark reads, through the server's own notes_create_note tool; returns its id. */
export async function createNote(endpointUrl: string): Promise<string> {
  const call = toolCall(REVISION_2026_07_28, 'notes_create_note', {
    title: 'Benchmark note',
    body: 'Read back by every request of the benchmark.',
    tags: ['bench'],
  });
  const reply = await send(endpointUrl, call);
  const note = reply.message?.result?.structuredContent as { id?: unknown } | undefined;
  if (reply.status !== 200 || typeof note?.id !== 'string') fail(endpointUrl, 'notes_create_note', reply);
  return note.id;
}

/** Opens a 2025 session (initialize, then notifications/initialized) and returns its Mcp-Session-Id. */
export async function openSession(endpointUrl: string): Promise<string> {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const initialize = {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: {
      protocolVersion: REVISION_2025_11_25,
      capabilities: {},
      clientInfo: { name: 'kiln-bench', version: '0.1.0' },
    },
  };
  const reply = await send(endpointUrl, { headers, body: JSON.stringify(initialize) });
  const sessionId = reply.headers.get('mcp-session-id');
  if (reply.status !== 200 || !sessionId) fail(endpointUrl, 'initialize', reply);
  const sessionHeaders = { ...headers, 'mcp-protocol-version': REVISION_2025_11_25, 'mcp-session-id': sessionId };
  const initialized = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
  const ack = await send(endpointUrl, { headers: sessionHeaders, body: initialized });
  if (ack.status !== 202) fail(endpointUrl, 'notifications/initialized', ack);
  return sessionId;
}

/** Sends the benchmark's call once and insists on a 200 that `verify` accepts; returns the reply's size in bytes. */
export async function probe(endpointUrl: string, call: HttpCall, verify: (body: string) => boolean): Promise<number> {
  const reply = await send(endpointUrl, call);
  if (reply.status !== 200 || !verify(reply.text)) fail(endpointUrl, 'the benchmark request', reply);
  return Buffer.byteLength(reply.text);
}

/** What every benchmark response must contain: the note, and no error. Cheap enough to run on each response. */
export function answersWithNote(noteId: string): (body: string) => boolean {
  return answersWith(`"id":"${noteId}"`);
}

/** A response carrying `text` and no error. */
export function answersWith(text: string): (body: string) => boolean {
  return (body) => body.includes(text) && !body.includes('"isError":true') && !body.includes('"error":');
}

async function send(endpointUrl: string, call: HttpCall): Promise<JsonRpcReply> {
  const body = call.body.replace('"[<id>]"', '"probe-1"');
  const response = await fetch(endpointUrl, { method: 'POST', headers: call.headers, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, message: parseMessage(text, response.headers) };
}

/** A JSON body, or the last `data:` event of an SSE body (the response follows any notifications). */
function parseMessage(text: string, headers: Headers): JsonRpcReply['message'] {
  try {
    if (!headers.get('content-type')?.includes('text/event-stream')) return text ? JSON.parse(text) : undefined;
    const events = text.split('\n').filter((line) => line.startsWith('data:') && line.length > 'data:'.length);
    const last = events.at(-1);
    return last ? JSON.parse(last.slice('data:'.length)) : undefined;
  } catch {
    return undefined;
  }
}

function fail(endpointUrl: string, what: string, reply: JsonRpcReply): never {
  throw new BenchSetupError(
    `${endpointUrl} did not answer ${what} as expected: HTTP ${reply.status} ` +
      `(${reply.headers.get('content-type') ?? 'no content type'}): ${reply.text.slice(0, 600)}`,
  );
}
