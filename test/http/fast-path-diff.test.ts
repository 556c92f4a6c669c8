// The fast path answers exactly what the SDK path answers: one corpus of 2026-07-28 requests (successes, errors,
// ordering traps of the validation ladder, streamed progress and logs, input_required rounds, sealed and tampered
// requestState, malformed messages, ids colliding between concurrent requests) sent to one app with
// MCP_HTTP_FAST_PATH=on and one with it off; status, media type and body must be identical. Only what legitimately
// differs per request (generated requestIds, the nonce of a sealed requestState) is normalised.
import type { TestingApp } from 'mcp-kiln/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpServing, http } from '../../modules/http/index.js';
import { closeDiffSides, compileDiffApp, DIFF_REQUEST_STATE_KEY } from './helpers/diff-app.js';
import { ENVELOPE_VERSION, MCP_ACCEPT } from './helpers/http-server.js';

interface Side {
  readonly testing: TestingApp;
  readonly serving: HttpServing;
}

const sides: Record<'fast' | 'sdk', Side> = {} as never;

async function start(fastPath: 'on' | 'off'): Promise<Side> {
  const testing = await compileDiffApp('kiln-diff', fastPath, { MCP_REQUEST_STATE_KEY: DIFF_REQUEST_STATE_KEY });
  return { testing, serving: await testing.app.serve(http()) };
}

beforeAll(async () => {
  [sides.fast, sides.sdk] = await Promise.all([start('on'), start('off')]);
});
afterAll(() => closeDiffSides(Object.values(sides)));

type Json = Record<string, unknown>;

interface Case {
  readonly name: string;
  /** The body as sent: an object, or raw text. */
  readonly body: unknown;
  readonly headers?: Record<string, string | undefined>;
}

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': ENVELOPE_VERSION,
  'io.modelcontextprotocol/clientInfo': { name: 'diff', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
};

function request(method: string, params: Json = {}, options: { id?: unknown; meta?: Json } = {}): Json {
  return {
    jsonrpc: '2.0',
    id: 'id' in options ? options.id : 1,
    method,
    params: { ...params, _meta: options.meta ?? ENVELOPE },
  };
}

/** The standard headers a well-behaved 2026-07-28 client sends for `body`. */
function headersFor(body: Json): Record<string, string> {
  const params = (body.params ?? {}) as Json;
  const name = typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined;
  return {
    'mcp-protocol-version': ENVELOPE_VERSION,
    'mcp-method': String(body.method),
    ...(name !== undefined && ['tools/call', 'prompts/get', 'resources/read'].includes(String(body.method))
      ? { 'mcp-name': name }
      : {}),
  };
}

function call(name: string, args: unknown, extra: Json = {}, options: { id?: unknown; meta?: Json } = {}): Case {
  const body = request('tools/call', { name, arguments: args, ...extra }, options);
  return {
    name: `tools/call ${name} ${JSON.stringify(args)}${JSON.stringify(extra)}`,
    body,
    headers: headersFor(body),
  };
}

function plain(method: string, params: Json = {}, label = ''): Case {
  const body = request(method, params);
  return { name: `${method} ${label}`, body, headers: headersFor(body) };
}

function withHeaders(base: Case, label: string, headers: Record<string, string | undefined>): Case {
  return { name: `${base.name} [${label}]`, body: base.body, headers: { ...base.headers, ...headers } };
}

function withBody(base: Case, label: string, change: (body: Json) => unknown): Case {
  return { name: `${base.name} [${label}]`, body: change(structuredClone(base.body) as Json), headers: base.headers };
}

const whoami = call('probe_whoami', {});
const ACCEPTED = { proceed: { action: 'accept', content: { proceed: true } } };

const CORPUS: Case[] = [
  // Successes.
  plain('ping'),
  plain('tools/list'),
  plain('resources/list'),
  plain('resources/templates/list'),
  plain('prompts/list'),
  whoami,
  call('notes_search_notes', { query: '' }),
  call('notes_search_notes', { Query: '', note_id: 'x' }, {}, { id: 'string-id' }),
  call('probe_slow', { ms: 1 }, {}, { id: 0 }),
  plain('prompts/get', { name: 'notes_summarize', arguments: { tag: 'work' } }),
  plain('completion/complete', {
    ref: { type: 'ref/prompt', name: 'notes_summarize' },
    argument: { name: 'tag', value: 'w' },
  }),
  // Errors a handler or the pipeline answers.
  call('notes_get_note', { id: 'missing' }),
  call('no_such_tool', {}),
  call('notes_get_note', { id: 5 }),
  call('notes_get_note', {}),
  call('notes_search_notes', { query: '', limit: 99 }),
  withBody(call('notes_get_note', { id: 'x' }), 'no arguments', (body) => {
    delete ((body as { params: Json }).params as Json).arguments;
    return body;
  }),
  plain('resources/read', { uri: 'notes://missing' }),
  plain('resources/read', { uri: 'nowhere://at-all' }),
  plain('prompts/get', { name: 'no_such_prompt' }),
  plain('prompts/get', { name: 'notes_summarize', arguments: {} }),
  plain('tools/frobnicate'),
  plain('logging/setLevel', { level: 'debug' }),
  // Ordering traps of the validation ladder: headers against envelope, envelope against schema.
  withHeaders(whoami, 'Mcp-Method differs', { 'mcp-method': 'tools/list' }),
  withHeaders(whoami, 'Mcp-Name differs', { 'mcp-name': 'probe_slow' }),
  withHeaders(whoami, 'Mcp-Name missing', { 'mcp-name': undefined }),
  withHeaders(whoami, 'Mcp-Name base64', { 'mcp-name': '=?base64?cHJvYmVfd2hvYW1p?=' }),
  withHeaders(whoami, 'Mcp-Method missing', { 'mcp-method': undefined }),
  withHeaders(whoami, 'version header missing', { 'mcp-protocol-version': undefined }),
  withHeaders(whoami, 'version header 2025', { 'mcp-protocol-version': '2025-11-25' }),
  withHeaders(whoami, 'version header padded', { 'mcp-protocol-version': ` ${ENVELOPE_VERSION} ` }),
  withHeaders(plain('tools/list'), 'Mcp-Name on a list', { 'mcp-name': 'probe_whoami' }),
  withHeaders(whoami, 'accept json only', { accept: 'application/json' }),
  withHeaders(whoami, 'no accept', { accept: '' }),
  withBody(whoami, 'no _meta', (body) => {
    delete ((body as { params: Json }).params as Json)._meta;
    return body;
  }),
  withBody(whoami, 'unsupported envelope version', (body) => setMeta(body, 'protocolVersion', '2099-01-01')),
  withBody(whoami, 'envelope 2025 version', (body) => setMeta(body, 'protocolVersion', '2025-11-25')),
  withBody(whoami, 'capabilities not an object', (body) => setMeta(body, 'clientCapabilities', 'nope')),
  withBody(whoami, 'clientInfo malformed', (body) => setMeta(body, 'clientInfo', { name: 5 })),
  withBody(whoami, 'clientInfo missing', (body) => setMeta(body, 'clientInfo', undefined)),
  withBody(whoami, 'log level unknown', (body) => setMeta(body, 'logLevel', 'loud')),
  withBody(whoami, 'progressToken an object', (body) => setMeta(body, 'progressToken', { x: 1 }, false)),
  withBody(whoami, 'unknown _meta key', (body) => setMeta(body, 'x-vendor/flag', true, false)),
  withBody(whoami, 'id null', (body) => ({ ...(body as Json), id: null })),
  withBody(whoami, 'id fractional', (body) => ({ ...(body as Json), id: 1.5 })),
  withBody(whoami, 'id an object', (body) => ({ ...(body as Json), id: { a: 1 } })),
  withBody(whoami, 'no id (a notification)', (body) => {
    delete (body as Json).id;
    return body;
  }),
  withBody(whoami, 'jsonrpc 1.0', (body) => ({ ...(body as Json), jsonrpc: '1.0' })),
  withBody(whoami, 'extra top-level key', (body) => ({ ...(body as Json), extra: true })),
  withBody(whoami, 'params an array', (body) => ({ ...(body as Json), params: [] })),
  withBody(whoami, 'a batch', (body) => [body]),
  withBody(whoami, 'name a number', (body) => {
    ((body as { params: Json }).params as Json).name = 7;
    return body;
  }),
  { name: 'not JSON', body: '{"jsonrpc":', headers: headersFor(whoami.body as Json) },
  // Streaming: progress and log lines upgrade the answer to an event stream.
  call('probe_slow', { ms: 10 }, {}, { meta: { ...ENVELOPE, progressToken: 'p-1' } }),
  call('probe_slow', { ms: 10 }, {}, { meta: { ...ENVELOPE, progressToken: 42 } }),
  call('probe_log', {}, {}, { meta: { ...ENVELOPE, 'io.modelcontextprotocol/logLevel': 'info' } }),
  call('probe_log', {}, {}, { meta: { ...ENVELOPE, 'io.modelcontextprotocol/logLevel': 'error' } }),
  call('probe_log', {}),
  // input_required rounds and requestState.
  call('fixture_sealed_echo', {}),
  plain('resources/read', { uri: 'fixture://sealed' }),
  plain('prompts/get', { name: 'fixture_sealed_prompt' }),
  call('fixture_sealed_echo', {}, { inputResponses: ACCEPTED, requestState: 'v1.forged.state' }),
  call('fixture_sealed_echo', {}, { inputResponses: ACCEPTED, requestState: 'plain' }),
  call('fixture_sealed_echo', {}, { inputResponses: ACCEPTED }),
  call('fixture_sealed_echo', {}, { inputResponses: 'not-a-map' }),
  call('fixture_sealed_echo', {}, { requestState: 7 }),
  call('fixture_sealed_echo', {}, {}, { meta: { ...ENVELOPE, 'io.modelcontextprotocol/clientCapabilities': {} } }),
  // The calls the fast path runs itself, and the shapes it leaves to the SDK's dispatch.
  plain('resources/read', { uri: 'probe://static' }),
  plain('resources/read', { uri: 'probe://cached' }),
  plain('resources/read', { uri: 'probe://brief' }),
  plain('resources/read', { uri: 'probe://fails' }),
  plain('resources/read', { uri: 7 }),
  plain('resources/read', { uri: 'probe://static', extra: true }),
  plain('prompts/get', { name: 'probe_prompt', arguments: { who: 'Ada' } }),
  plain('prompts/get', { name: 'probe_prompt', arguments: { who: 'Ada', mood: 'glad' } }),
  plain('prompts/get', { name: 'probe_prompt', arguments: { who: 5 } }),
  plain('prompts/get', { name: 'probe_prompt', arguments: null }),
  plain('prompts/get', { name: 'probe_prompt' }),
  call('probe_structured', {}),
  call('probe_throws', { code: -32002 }),
  call('probe_throws', { code: -32042 }),
  call('probe_throws', { code: -32021 }),
  call('probe_throws', { code: 1.5 }),
  call('notes_search_notes', []),
  call('notes_search_notes', null),
  call('', {}),
  call('notes_search_notes', { query: '' }, { task: { ttl: 5 } }),
  ...(['sampling', 'sampling-tools', 'roots', 'url', 'form'] as const).flatMap((kind) =>
    [{}, { elicitation: {} }, { elicitation: { url: {} } }, { sampling: {}, roots: {} }].map((caps) =>
      call('probe_ask', { kind }, {}, { meta: { ...ENVELOPE, 'io.modelcontextprotocol/clientCapabilities': caps } }),
    ),
  ),
  withBody(whoami, 'clientInfo with a title', (body) =>
    setMeta(body, 'clientInfo', { name: 'd', version: '1', title: 'D' }),
  ),
  withBody(whoami, 'no clientInfo', (body) => setMeta(body, 'clientInfo', undefined)),
  withBody(whoami, 'roots.listChanged a string', (body) =>
    setMeta(body, 'clientCapabilities', { roots: { listChanged: 'yes' } }),
  ),
];

function setMeta(body: unknown, key: string, value: unknown, reserved = true): unknown {
  const meta = ((body as { params: Json }).params as Json)._meta as Json;
  const name = reserved ? `io.modelcontextprotocol/${key}` : key;
  if (value === undefined) delete meta[name];
  else meta[name] = value;
  return body;
}

interface Answer {
  readonly status: number;
  readonly mediaType: string;
  readonly body: unknown;
}

async function send(side: Side, testCase: Case): Promise<Answer> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: MCP_ACCEPT };
  for (const [name, value] of Object.entries(testCase.headers ?? {})) {
    if (value === undefined) delete headers[name];
    else headers[name] = value;
  }
  const response = await fetch(side.serving.endpointUrl, {
    method: 'POST',
    headers,
    body: typeof testCase.body === 'string' ? testCase.body : JSON.stringify(testCase.body),
  });
  const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
  const text = await response.text();
  return { status: response.status, mediaType, body: normalise(parseBody(mediaType, text)) };
}

function parseBody(mediaType: string, text: string): unknown {
  if (mediaType === 'text/event-stream') {
    return text
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => JSON.parse(line.slice('data:'.length)) as unknown);
  }
  if (text === '') return '';
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Generated per request, so never equal between two servers: requestIds in error data, sealed states' nonces. */
function normalise(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalise);
  if (typeof value === 'string' && /^v1\.[\w-]+\.[\w-]+$/.test(value)) return '<sealed state>';
  if (typeof value === 'string') return value.replace(/\*\*Request id:\*\* [\w-]+/g, '**Request id:** <requestId>');
  if (typeof value !== 'object' || value === null) return value;
  const out: Json = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] = key === 'requestId' && typeof inner === 'string' ? '<requestId>' : normalise(inner);
  }
  return out;
}

describe('the fast path answers what the SDK path answers', () => {
  it.each(CORPUS.map((testCase) => [testCase.name, testCase] as const))('%s', async (_name, testCase) => {
    const [fast, sdk] = await Promise.all([send(sides.fast, testCase), send(sides.sdk, testCase)]);
    expect(fast).toEqual(sdk);
  });

  // The fast path runs a call itself only once the SDK's dispatch accepted its envelope: the first sight of each
  // envelope above went through the dispatch, so this second pass is answered directly wherever it can be.
  it.each(CORPUS.map((testCase) => [testCase.name, testCase] as const))(
    '%s (envelope known)',
    async (_name, testCase) => {
      const [fast, sdk] = await Promise.all([send(sides.fast, testCase), send(sides.sdk, testCase)]);
      expect(fast).toEqual(sdk);
    },
  );

  it('completes a sealed input_required round on each side alike', async () => {
    const answers = await Promise.all(
      [sides.fast, sides.sdk].map(async (side) => {
        const first = (await send(side, call('fixture_sealed_echo', {}))).body as { result: Json };
        const raw = await fetch(side.serving.endpointUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: MCP_ACCEPT, ...headersFor(whoami.body as Json) },
          body: '{}',
        });
        await raw.text();
        expect(first.result.resultType).toBe('input_required');
        const state = await sealedStateOf(side);
        return send(side, call('fixture_sealed_echo', {}, { inputResponses: ACCEPTED, requestState: state }));
      }),
    );
    expect(answers[0]).toEqual(answers[1]);
    expect(JSON.stringify(answers[0])).toContain('Carried: carried:round-1');
  });

  it('answers each of many concurrent requests sharing one id with its own result', async () => {
    const cases = Array.from({ length: 24 }, (_, index) =>
      call('probe_slow', { ms: 5 + (index % 4) * 5 }, {}, { id: 7 }),
    );
    const bySide = await Promise.all(
      [sides.fast, sides.sdk].map((side) => Promise.all(cases.map((testCase) => send(side, testCase)))),
    );
    expect(bySide[0]).toEqual(bySide[1]);
    // Each answer is the one to its own request, not to another that shared its id.
    expect(bySide[0]?.map(sleptMs)).toEqual(cases.map((testCase) => (testCase.body as SlowCall).params.arguments.ms));
  });
});

type SlowCall = { params: { arguments: { ms: number } } };

function sleptMs(answer: Answer): unknown {
  return (answer.body as { result: { structuredContent: { sleptMs: number } } }).result.structuredContent.sleptMs;
}

async function sealedStateOf(side: Side): Promise<string> {
  const body = request('tools/call', { name: 'fixture_sealed_echo', arguments: {} });
  const response = await fetch(side.serving.endpointUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: MCP_ACCEPT, ...headersFor(body) },
    body: JSON.stringify(body),
  });
  const { result } = (await response.json()) as { result: { requestState: string } };
  return result.requestState;
}
