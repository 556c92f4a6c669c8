// Generated JSON-RPC traffic for the transport edges: well-formed requests to real methods with random params (with
// or without the 2026-07-28 `_meta` envelope), notifications, stray responses, ids of every JSON type, invalid
// members, batches, non-objects, deep nesting and garbage bytes. Each message is sent as the bytes given here.
import fc from 'fast-check';
import {
  deepValue,
  edgeNumber,
  hostileJson,
  hostileString,
  objectWithKeys,
  pollutingObject,
} from './hostile-values.js';

export type Era = 'handshake' | 'envelope';

const ENVELOPE_VERSION = '2026-07-28';

/** Methods a client may send, plus names no server implements. */
const REQUEST_METHODS = [
  'initialize',
  'ping',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'logging/setLevel',
  'server/discover',
  'tasks/get',
  'rpc.discover',
  'no/such/method',
  '',
  '__proto__',
  'constructor',
] as const;

const NOTIFICATION_METHODS = [
  'notifications/initialized',
  'notifications/cancelled',
  'notifications/progress',
  'notifications/roots/list_changed',
  'notifications/no_such_thing',
] as const;

const NOTES_TOOLS = ['notes_create_note', 'notes_get_note', 'notes_search_notes', 'notes_delete_note'];

/** Ids of every JSON type: the two MCP allows (string, integer) most often, then what it does not. */
const anyId: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.string({ maxLength: 24 }), weight: 4 },
  {
    arbitrary: fc.oneof(fc.integer(), fc.constantFrom(0, -1, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER)),
    weight: 4,
  },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }), weight: 1 },
  {
    arbitrary: fc.oneof(fc.double({ noInteger: true, noNaN: true, noDefaultInfinity: true }), fc.constant(1e300)),
    weight: 1,
  },
  {
    arbitrary: fc.oneof(fc.constant(null), fc.boolean(), fc.constant({}), fc.constant([1]), fc.constant({ id: 1 })),
    weight: 1,
  },
);

/** The envelope a 2026-07-28 request carries in `params._meta`; sometimes missing a member or naming another revision. */
const envelope: fc.Arbitrary<Record<string, unknown>> = fc.record(
  {
    'io.modelcontextprotocol/protocolVersion': fc.oneof(
      { arbitrary: fc.constant(ENVELOPE_VERSION), weight: 8 },
      { arbitrary: fc.constantFrom('2025-11-25', '2099-01-01', '', 'latest'), weight: 1 },
      { arbitrary: hostileJson, weight: 1 },
    ),
    'io.modelcontextprotocol/clientInfo': fc.oneof(
      { arbitrary: fc.constant({ name: 'kiln-fuzz', version: '1.0.0' }), weight: 8 },
      { arbitrary: hostileJson, weight: 1 },
    ),
    'io.modelcontextprotocol/clientCapabilities': fc.oneof(
      { arbitrary: fc.constant({}), weight: 6 },
      { arbitrary: fc.constant({ elicitation: { form: {} }, sampling: {} }), weight: 1 },
      { arbitrary: hostileJson, weight: 1 },
    ),
  },
  { requiredKeys: [] },
);

/** Params shaped for `method` (so requests get past validation into handlers), or anything at all. */
function paramsFor(method: string): fc.Arbitrary<Record<string, unknown>> {
  const shaped: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
    'tools/call': fc.record(
      {
        name: fc.oneof(fc.constantFrom(...NOTES_TOOLS), hostileString),
        arguments: fc.oneof(objectWithKeys(hostileJson), hostileJson),
      },
      { requiredKeys: ['name'] },
    ),
    'resources/read': fc.record({
      uri: fc.oneof(
        fc.string().map((id) => `notes://${id}`),
        hostileString,
      ),
    }),
    'resources/subscribe': fc.record({ uri: hostileString }),
    'prompts/get': fc.record(
      {
        name: fc.oneof(fc.constant('notes_summarize'), hostileString),
        arguments: fc.oneof(fc.dictionary(fc.string(), fc.string()), hostileJson),
      },
      { requiredKeys: ['name'] },
    ),
    'completion/complete': fc.record({
      ref: fc.oneof(fc.constant({ type: 'ref/prompt', name: 'notes_summarize' }), hostileJson),
      argument: fc.record({ name: fc.constantFrom('style', 'tag', ''), value: hostileString }),
    }),
    'logging/setLevel': fc.record({
      level: fc.oneof(fc.constantFrom('debug', 'info', 'error', 'emergency'), hostileString),
    }),
    initialize: fc.record({
      protocolVersion: fc.oneof(fc.constantFrom('2025-11-25', '2025-06-18', ENVELOPE_VERSION), hostileString),
      capabilities: fc.oneof(fc.constant({}), hostileJson),
      clientInfo: fc.oneof(fc.constant({ name: 'kiln-fuzz', version: '1.0.0' }), hostileJson),
    }),
    'notifications/cancelled': fc.record({ requestId: anyId, reason: hostileString }, { requiredKeys: [] }),
    'notifications/progress': fc.record({ progressToken: anyId, progress: edgeNumber }, { requiredKeys: [] }),
  };
  return fc.oneof(
    { arbitrary: (Object.hasOwn(shaped, method) ? shaped[method] : undefined) ?? fc.constant({}), weight: 4 },
    { arbitrary: objectWithKeys(fc.oneof(hostileJson, deepValue, pollutingObject)), weight: 1 },
  );
}

/** `params` with the era's envelope merged into `_meta` (usually; a request may also arrive without it). */
function withEnvelope(params: fc.Arbitrary<Record<string, unknown>>, era: Era) {
  if (era === 'handshake') return params;
  return fc
    .tuple(params, fc.option(envelope, { freq: 8 }), fc.option(objectWithKeys(hostileJson), { freq: 4 }))
    .map(([body, meta, extraMeta]) =>
      meta === null && extraMeta === null ? body : { ...body, _meta: { ...extraMeta, ...meta } },
    );
}

/** A request to a real (or unknown) method, well-formed as JSON-RPC 2.0. */
function validRequest(era: Era): fc.Arbitrary<Record<string, unknown>> {
  return fc.constantFrom(...REQUEST_METHODS).chain((method) =>
    fc.record({
      jsonrpc: fc.constant('2.0'),
      id: fc.oneof(fc.string({ maxLength: 24 }), fc.integer()),
      method: fc.constant(method),
      params: withEnvelope(paramsFor(method), era),
    }),
  );
}

function notification(era: Era): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .constantFrom(...NOTIFICATION_METHODS)
    .chain((method) =>
      fc.record(
        { jsonrpc: fc.constant('2.0'), method: fc.constant(method), params: withEnvelope(paramsFor(method), era) },
        { requiredKeys: ['jsonrpc', 'method'] },
      ),
    );
}

/** A response from the "client" that answers nothing the server asked. */
const strayResponse = fc.oneof(
  fc.record({ jsonrpc: fc.constant('2.0'), id: anyId, result: fc.oneof(fc.constant({}), hostileJson) }),
  fc.record({ jsonrpc: fc.constant('2.0'), id: anyId, error: fc.record({ code: edgeNumber, message: hostileString }) }),
);

/** A request with one part broken: the version, the id's type, the method's type, params, or an extra member. */
function brokenRequest(era: Era): fc.Arbitrary<unknown> {
  return fc
    .tuple(validRequest(era), fc.integer({ min: 0, max: 5 }), hostileJson, anyId)
    .map(([request, part, junk, id]) => {
      const broken: Record<string, unknown> = { ...request };
      if (part === 0) broken.jsonrpc = junk === '2.0' ? '1.0' : junk;
      if (part === 1) delete broken.jsonrpc;
      if (part === 2) broken.id = id;
      if (part === 3) broken.method = typeof junk === 'string' ? 42 : junk;
      if (part === 4) broken.params = Array.isArray(junk) || typeof junk !== 'object' ? junk : [junk];
      if (part === 5) broken.extra = junk;
      return broken;
    });
}

/** A JSON value as bytes: compact, or with whitespace and a duplicated member a naive parser may read differently. */
function encoded(value: fc.Arbitrary<unknown>): fc.Arbitrary<string> {
  return fc.tuple(value, fc.integer({ min: 0, max: 5 })).map(([message, style]) => {
    const text = JSON.stringify(message) ?? 'null';
    if (style === 0) return JSON.stringify(message, null, 2);
    if (style === 1 && text.startsWith('{') && text.length > 2) return `{"id":"shadowed",${text.slice(1)}`;
    return text;
  });
}

/** One message's bytes: what the edge receives. Garbage may contain newlines; the stdio edge splits on them. */
export function wireMessage(era: Era): fc.Arbitrary<Buffer> {
  const text = fc.oneof(
    { arbitrary: encoded(validRequest(era)), weight: 10 },
    { arbitrary: encoded(notification(era)), weight: 2 },
    { arbitrary: encoded(strayResponse), weight: 1 },
    { arbitrary: encoded(brokenRequest(era)), weight: 4 },
    {
      arbitrary: encoded(fc.array(fc.oneof(validRequest(era), notification(era), hostileJson), { maxLength: 3 })),
      weight: 1,
    },
    { arbitrary: encoded(fc.oneof(hostileString, edgeNumber, fc.constant(null), fc.boolean())), weight: 1 },
    {
      arbitrary: encoded(
        fc.tuple(validRequest(era), deepValue).map(([request, deep]) => ({ ...request, params: { deep } })),
      ),
      weight: 1,
    },
    { arbitrary: encoded(deepValue), weight: 1 },
  );
  return fc
    .oneof(
      { arbitrary: text.map((message) => Buffer.from(message, 'utf8')), weight: 60 },
      { arbitrary: garbage, weight: 5 },
      { arbitrary: oversized(era), weight: 1 },
    )
    .map(printable);
}

/** A request past the edges' size limits: HTTP's body limit (1 MiB) and stdio's line limit (4 MiB). */
function oversized(era: Era): fc.Arbitrary<Buffer> {
  return fc.constantFrom(1.1, 4.2).map((mebibytes) => {
    const body = 'x'.repeat(Math.round(mebibytes * 1024 * 1024));
    const params = { name: 'notes_create_note', arguments: { title: 'Oversized', body } };
    const request = { jsonrpc: '2.0', id: 'oversized', method: 'tools/call', params };
    if (era === 'envelope')
      Object.assign(params, { _meta: { 'io.modelcontextprotocol/protocolVersion': ENVELOPE_VERSION } });
    return Buffer.from(JSON.stringify(request), 'utf8');
  });
}

/** Bytes that print in a counterexample as a replayable expression: their text when UTF-8, else their hex. */
export function printable(bytes: Buffer): Buffer {
  // Rendered only when fast-check prints a counterexample: generating a multi-megabyte message stays cheap.
  const shown = () => {
    const text = bytes.toString('utf8');
    return Buffer.from(text, 'utf8').equals(bytes)
      ? `Buffer.from(${compactText(text)})`
      : `Buffer.from("${bytes.toString('hex')}", "hex")`;
  };
  return Object.defineProperty(bytes, fc.toStringMethod, { value: shown });
}

/** A string expression with runs of 32 or more of one character written as `.repeat()`, so huge values fit a line. */
function compactText(text: string): string {
  const parts: string[] = [];
  const characters = [...text];
  let literal = '';
  for (let start = 0; start < characters.length; ) {
    let end = start + 1;
    while (end < characters.length && characters[end] === characters[start]) end++;
    if (end - start >= 32) {
      if (literal) parts.push(JSON.stringify(literal));
      parts.push(`${JSON.stringify(characters[start])}.repeat(${end - start})`);
      literal = '';
    } else {
      literal += characters.slice(start, end).join('');
    }
    start = end;
  }
  if (literal || parts.length === 0) parts.push(JSON.stringify(literal));
  return parts.join(' + ');
}

/** Bytes that are not JSON: random binary (often not UTF-8), truncated messages, and text near JSON. */
const garbage: fc.Arbitrary<Buffer> = fc
  .oneof(
    fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 64 }).map((text) => Buffer.from(text, 'utf8')),
    encoded(fc.constant({ jsonrpc: '2.0', id: 1, method: 'ping' })).chain((text) =>
      fc.integer({ min: 1, max: text.length - 1 }).map((cut) => text.slice(0, cut)),
    ),
    fc.constantFrom(
      '{',
      '}',
      '[',
      '{"jsonrpc":"2.0",}',
      "{'jsonrpc':'2.0'}",
      'NaN',
      'undefined',
      '\ufeff{}',
      '{"a":1}{"b":2}',
    ),
  )
  .map((bytes) => (typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes));
