// The messages the 2025 direct paths are held to the SDK with, over HTTP sessions (session-direct-diff) and stdio
// (stdio-direct-diff): what the direct path runs itself, the errors a handler or the pipeline answers, log lines under
// each log level, input_required rounds, and the shapes it must leave to the SDK. Sent in this order: the log cases
// set the level the ones after them run under. Every message gets the next id unless it names its own.

export type Json = Record<string, unknown>;

export interface CorpusCase {
  readonly name: string;
  /** The message as sent: an object, or raw text. */
  readonly body: unknown;
}

let nextId = 1;

export function request(method: string, params: Json = {}, id: unknown = nextId++): Json {
  return { jsonrpc: '2.0', id, method, params };
}

export function call(name: string, args: unknown, extra: Json = {}): CorpusCase {
  return {
    name: `tools/call ${name} ${JSON.stringify(args)}${JSON.stringify(extra)}`,
    body: request('tools/call', { name, arguments: args, ...extra }),
  };
}

export function plain(method: string, params: Json = {}, label = ''): CorpusCase {
  return { name: `${method} ${JSON.stringify(params)} ${label}`, body: request(method, params) };
}

export function withBody<C extends CorpusCase>(base: C, label: string, change: (body: Json) => unknown): C {
  return { ...base, name: `${base.name} [${label}]`, body: change(structuredClone(base.body) as Json) };
}

export const whoami = call('probe_whoami', {});

export const SESSION_CALL_CORPUS: readonly CorpusCase[] = [
  // What the direct path runs itself.
  whoami,
  call('notes_search_notes', { query: '' }),
  call('probe_structured', {}),
  // A tool that may run as a task: a 2025 connection knows no tasks, so it answers at once on either path.
  call('probe_task', {}),
  { name: 'string id', body: request('tools/call', { name: 'probe_whoami', arguments: {} }, 'string-id') },
  { name: 'id 0', body: request('tools/call', { name: 'probe_whoami', arguments: {} }, 0) },
  plain('resources/read', { uri: 'probe://static' }),
  plain('resources/read', { uri: 'probe://cached' }),
  plain('prompts/get', { name: 'probe_prompt', arguments: { who: 'Ada' } }),
  plain('prompts/get', { name: 'probe_prompt', arguments: { who: 'Ada', mood: 'glad' } }),
  plain('prompts/get', { name: 'notes_summarize', arguments: { tag: 'diff' } }),
  call('probe_whoami', {}, { _meta: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' } }),
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
  call('probe_throws', { code: -32002 }),
  call('probe_throws', { code: -32042 }),
  call('probe_throws', { code: -32603 }),
  call('probe_throws', { code: 1.5 }),
  plain('resources/read', { uri: 'probe://fails' }),
  plain('resources/read', { uri: 'notes://missing' }),
  plain('resources/read', { uri: 'nowhere://at-all' }),
  plain('prompts/get', { name: 'no_such_prompt' }),
  plain('prompts/get', { name: 'notes_summarize', arguments: {} }),
  plain('prompts/get', { name: 'probe_prompt', arguments: { who: 5 } }),
  // Log lines: every line while no level is set, then only those the level lets through.
  call('probe_log', {}),
  plain('logging/setLevel', { level: 'warning' }),
  call('probe_log', {}),
  plain('logging/setLevel', { level: 'emergency' }),
  call('probe_log', {}),
  plain('logging/setLevel', { level: 'debug' }),
  call('probe_log', {}),
  // input_required rounds: the SDK's shim refuses what the client did not declare.
  ...(['sampling', 'roots', 'url', 'form'] as const).map((kind) => call('probe_ask', { kind })),
  call('fixture_sealed_echo', {}),
  plain('resources/read', { uri: 'fixture://sealed' }),
  plain('prompts/get', { name: 'fixture_sealed_prompt' }),
  // Shapes the direct path leaves to the SDK.
  call('probe_slow', { ms: 10 }, { _meta: { progressToken: 'p-1' } }),
  call('probe_whoami', {}, { _meta: 'not an object' }),
  call('probe_whoami', {}, { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } }),
  call('probe_whoami', {}, { extra: true }),
  call('notes_search_notes', []),
  call('notes_search_notes', null),
  call('fixture_sealed_echo', {}, { requestState: 'v1.forged.state' }),
  plain('resources/read', { uri: 7 }),
  plain('resources/read', { uri: 'probe://static', extra: true }),
  plain('prompts/get', { name: 'probe_prompt', arguments: null }),
  plain('tools/list'),
  plain('ping'),
  withBody(whoami, 'a batch', (body) => [body]),
  withBody(whoami, 'jsonrpc 1.0', (body) => ({ ...(body as Json), jsonrpc: '1.0' })),
  withBody(whoami, 'id null', (body) => ({ ...(body as Json), id: null })),
  withBody(whoami, 'id fractional', (body) => ({ ...(body as Json), id: 1.5 })),
  withBody(whoami, 'extra top-level key', (body) => ({ ...(body as Json), extra: true })),
  withBody(whoami, 'no id (a notification)', (body) => {
    delete (body as Json).id;
    return body;
  }),
  { name: 'not JSON', body: '{"jsonrpc":' },
];
