// The input edge (drop → alias → parse → repair) as a client meets it over real stdio, in both eras. The fixture
// tools echo what their handler received, so each test asserts the canonical, repaired value the handler got.
import type { CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PIPELINE_FIXTURE } from './helpers/built-servers.js';
import { type ConnectedServer, connectServer } from './helpers/connected-server.js';
import { ERAS } from './helpers/eras.js';
import { failureEnvelope, structured } from './helpers/tool-results.js';

const INVALID_HINT = 'Check the tool inputSchema in tools/list and call again with corrected arguments.';

describe.each(ERAS)('input edge ($era era)', (eraCase) => {
  let server: ConnectedServer;

  const call = (name: string, args: Record<string, unknown>): Promise<CallToolResult> =>
    server.client.callTool({ name, arguments: args });
  /** What fixture_echo_arguments' handler received for these arguments. */
  const echoed = async (args: Record<string, unknown>) => {
    const result = await call('fixture_echo_arguments', args);
    expect(result.isError).toBeFalsy();
    const { received } = structured(result) as { received: Record<string, unknown> };
    // content[] carries what structuredContent carries.
    expect(result.content).toEqual([{ type: 'text', text: `**Received:** ${JSON.stringify(received)}` }]);
    return received;
  };

  beforeAll(async () => {
    server = await connectServer(PIPELINE_FIXTURE, eraCase);
  });
  afterAll(() => server?.close());

  it('drops client-added keys: _meta, underscore keys, toolCallId, tool_call_description', async () => {
    const received = await echoed({
      query: 'kiln',
      _meta: { traceparent: '00-abc-def-01' },
      _client_hint: 'placeholder',
      toolCallId: 'call-7',
      tool_call_description: 'Looking up kilns',
    });
    expect(received).toEqual({ query: 'kiln' });
  });

  it('renames a declared @InputAlias key to its canonical key', async () => {
    expect(await echoed({ search_text: 'kiln' })).toEqual({ query: 'kiln' });
  });

  it('renames case-style spellings of a declared key', async () => {
    for (const spelling of ['max_results', 'Max-Results', 'MAXRESULTS']) {
      expect(await echoed({ query: 'kiln', [spelling]: 5 })).toEqual({ query: 'kiln', maxResults: 5 });
    }
  });

  it('leaves an alias alone when the canonical key is also present, and rejects it by name', async () => {
    const error = failureEnvelope(await call('fixture_echo_arguments', { query: 'kiln', search_text: 'glaze' }));
    expect(error.message).toBe('Invalid arguments for tool fixture_echo_arguments: Unrecognized key: "search_text"');
  });

  it('repairs a stringified array', async () => {
    expect(await echoed({ query: 'kiln', tags: '["glaze","cone6"]' })).toEqual({
      query: 'kiln',
      tags: ['glaze', 'cone6'],
    });
  });

  it('repairs a stringified object', async () => {
    expect(await echoed({ query: 'kiln', filter: '{"field":"glaze","value":"celadon"}' })).toEqual({
      query: 'kiln',
      filter: { field: 'glaze', value: 'celadon' },
    });
  });

  it('repairs a safe integer sent for a string', async () => {
    expect(await echoed({ query: 'kiln', stationId: 8654467 })).toEqual({ query: 'kiln', stationId: '8654467' });
  });

  it('never repairs a value that was already valid', async () => {
    expect(await echoed({ query: '[1,2,3]', tags: '["x"]' })).toEqual({ query: '[1,2,3]', tags: ['x'] });
  });

  it('runs every stage on one call', async () => {
    const received = await echoed({
      search_text: 'kiln',
      max_results: 3,
      tags: '["a","b"]',
      filter: '{"field":"f","value":"v"}',
      stationId: 42,
      _meta: { progressToken: 'not-mine' },
      toolCallId: 'call-8',
    });
    expect(received).toEqual({
      query: 'kiln',
      maxResults: 3,
      tags: ['a', 'b'],
      filter: { field: 'f', value: 'v' },
      stationId: '42',
    });
  });

  it('discards a repair that does not validate and reports the original rejection', async () => {
    const error = failureEnvelope(await call('fixture_echo_arguments', { query: 'kiln', tags: '["a", 1]' }));
    expect(error.data.issues).toEqual([{ path: 'tags', message: 'Invalid input: expected array, received string' }]);
  });

  it('answers invalid arguments with the -32602 envelope naming each issue and the accepted keys', async () => {
    const result = await call('fixture_echo_arguments', { querry: 'kiln' });
    const error = failureEnvelope(result);
    expect(error).toEqual({
      code: -32602,
      message:
        'Invalid arguments for tool fixture_echo_arguments: query: Invalid input: expected string, received undefined; Unrecognized key: "querry"',
      data: {
        reason: 'invalid_arguments',
        issues: [
          { path: 'query', message: 'Invalid input: expected string, received undefined' },
          { path: '', message: 'Unrecognized key: "querry"' },
        ],
        recovery: { hint: `Accepted keys: query, maxResults, tags, filter, stationId. ${INVALID_HINT}` },
        requestId: error.data.requestId,
      },
    });
  });

  it('tells the caller which keys it moved or dropped when the call still fails', async () => {
    const error = failureEnvelope(await call('fixture_echo_arguments', { search_text: true, _trace: 'x' }));
    expect(error.data).toMatchObject({
      reason: 'invalid_arguments',
      issues: [{ path: 'query', message: 'Invalid input: expected string, received boolean' }],
      input: { dropped: ['_trace'], aliased: [['search_text', 'query']] },
      recovery: { hint: `Validated search_text as query. Dropped undeclared key _trace. ${INVALID_HINT}` },
    });
  });

  it('parses a discriminated-union root against the branch the discriminator selects', async () => {
    const byName = structured(await call('fixture_lookup_record', { mode: 'byName', name: 'alp' }));
    expect(byName).toEqual({ mode: 'byName', received: { mode: 'byName', name: 'alp', fuzzy: false } });
    const byId = structured(await call('fixture_lookup_record', { mode: 'byId', ID: 'rec-1' }));
    expect(byId).toEqual({ mode: 'byId', received: { mode: 'byId', id: 'rec-1' } });
  });

  it("rejects another branch's key on a union root, naming the selected branch's keys", async () => {
    const error = failureEnvelope(await call('fixture_lookup_record', { mode: 'byId', id: 'rec-1', name: 'alp' }));
    expect(error.data.issues).toEqual([{ path: '', message: 'Unrecognized key: "name"' }]);
    expect(error.data.recovery?.hint).toBe(`Accepted keys: mode, id. ${INVALID_HINT}`);
  });

  it('rejects a union call without a discriminator', async () => {
    const error = failureEnvelope(await call('fixture_lookup_record', { id: 'rec-1' }));
    expect(error).toMatchObject({ code: -32602, data: { reason: 'invalid_arguments', issues: [{ path: 'mode' }] } });
  });
});
