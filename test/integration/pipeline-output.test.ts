// The output side of a tool call over real stdio, in both eras: content[] order (media → format() → enrichment
// trailer), every enrichment kind on both surfaces, masked unexpected failures and typed ctx.fail envelopes.
import type { Tool } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE, LEAKED_SECRET, PIXEL_PNG, SILENT_WAV } from './fixtures/pipeline/fixture-values.js';
import { PIPELINE_FIXTURE } from './helpers/built-servers.js';
import {
  type ConnectedServer,
  connectServer,
  type ProcessLogLine,
  waitForProcessLog,
} from './helpers/connected-server.js';
import { ERAS } from './helpers/eras.js';
import {
  expectMaskedFailure,
  failureEnvelope,
  findTool,
  matchesOutputSchema,
  structured,
} from './helpers/tool-results.js';

describe.each(ERAS)('tool output ($era era)', (eraCase) => {
  let server: ConnectedServer;
  let tools: Tool[];

  /** The one process-log line a failed request writes, found by the request id the envelope quotes. */
  const loggedLine = async (requestId: string) => {
    const lines = await waitForProcessLog(server, (line) => line.requestId === requestId);
    expect(lines).toHaveLength(1);
    return lines[0] as ProcessLogLine;
  };

  beforeAll(async () => {
    server = await connectServer(PIPELINE_FIXTURE, eraCase);
    // Primes the client's output validator: every success below is also checked by the SDK against the listing.
    tools = (await server.client.listTools()).tools;
  });
  afterAll(() => server?.close());

  it('orders content[] as media blocks, then format(), then the enrichment trailer', async () => {
    const result = await server.client.callTool({ name: 'fixture_render_chart', arguments: { width: 4, height: 3 } });
    expect(result.content).toEqual([
      { type: 'image', data: PIXEL_PNG, mimeType: 'image/png' },
      { type: 'audio', data: SILENT_WAV, mimeType: 'audio/wav' },
      { type: 'text', text: 'Chart 4×3' },
      { type: 'text', text: '> Rendered as a single placeholder pixel.' },
    ]);
    // Media never rides in structuredContent.
    expect(structured(result)).toEqual({ width: 4, height: 3, notice: 'Rendered as a single placeholder pixel.' });
  });

  it('renders every enrichment kind into the trailer and keeps the full values in structuredContent', async () => {
    const result = await server.client.callTool({ name: 'fixture_search_items', arguments: { query: 'al', limit: 2 } });
    const notice = 'Showing 2 of more results (capped at 2). Narrow the request or raise the limit to see the rest.';
    const payload = structured(result);
    expect(payload).toEqual({
      items: ['alpha', 'alpine'],
      effectiveQuery: 'al',
      totalCount: 4,
      sortOrder: { before: 'relevance', after: 'alphabetical' },
      sourceName: 'Fixture catalogue',
      appliedFilters: { query: 'al', limit: 2 },
      truncated: true,
      shown: 2,
      cap: 2,
      notice,
    });
    expect(matchesOutputSchema(findTool(tools, 'fixture_search_items'), payload)).toBe(true);
    expect(result.content).toEqual([
      { type: 'text', text: '- alpha\n- alpine' },
      {
        type: 'text',
        text: [
          'Query: al',
          '4 total',
          // A kind tag outranks the author's render for the same field.
          'sortOrder: relevance → alphabetical',
          '**Source:** Fixture catalogue',
          '### Filters',
          '- Query: al',
          '- Limit: 2',
          // A line opening a list is followed by a blank line, so the next field is not swallowed into the list.
          '',
          '**truncated:** true',
          '**shown:** 2',
          '**cap:** 2',
          `> ${notice}`,
        ].join('\n'),
      },
    ]);
  });

  it('leaves fields the handler did not enrich out of both surfaces', async () => {
    const result = await server.client.callTool({ name: 'fixture_search_items', arguments: { query: 'zz' } });
    const payload = structured(result);
    expect(payload).not.toHaveProperty('truncated');
    expect(payload).toMatchObject({ items: [], totalCount: 0, notice: 'Nothing starts with "zz".' });
    const trailer = result.content.at(-1);
    expect(trailer).toMatchObject({ type: 'text', text: expect.stringMatching(/\n> Nothing starts with "zz"\.$/) });
    expect(JSON.stringify(trailer)).not.toContain('truncated');
  });

  it('keeps each concurrent call on one connection to its own enrichment', async () => {
    const queries = ['a', 'al', 'alp', 'b', 'g', 'z', 'alt', 'be'];
    const results = await Promise.all(
      queries.map((query) => server.client.callTool({ name: 'fixture_search_items', arguments: { query, limit: 10 } })),
    );
    results.forEach((result, index) => {
      const query = queries[index] as string;
      const matches = CATALOGUE.filter((name) => name.startsWith(query));
      expect(structured(result)).toMatchObject({ items: matches, effectiveQuery: query, totalCount: matches.length });
      expect(result.content.at(-1)).toMatchObject({
        text: expect.stringMatching(`^Query: ${query}\n${matches.length} total\n`),
      });
    });
  });

  it('masks a plain Error as -32603 and logs the original with the same request id', async () => {
    const result = await server.client.callTool({ name: 'fixture_fail_unexpectedly', arguments: { account: 'acme' } });
    const error = expectMaskedFailure(result, 'fixture_fail_unexpectedly', LEAKED_SECRET);
    expect(JSON.stringify(result)).not.toContain('Ledger');
    expect(matchesOutputSchema(findTool(tools, 'fixture_fail_unexpectedly'), result.structuredContent)).toBe(true);
    const line = await loggedLine(error.data.requestId);
    expect(line).toMatchObject({
      level: 'error',
      tool: 'fixture_fail_unexpectedly',
      code: -32603,
      err: { message: `Ledger connection refused for acme (password=${LEAKED_SECRET})` },
    });
  });

  it('masks output that breaks its schema the same way, and logs what broke', async () => {
    const result = await server.client.callTool({ name: 'fixture_break_output', arguments: { account: 'acme' } });
    const error = expectMaskedFailure(result, 'fixture_break_output', LEAKED_SECRET);
    expect(JSON.stringify(result)).not.toContain('output schema');
    const line = await loggedLine(error.data.requestId);
    expect(line).toMatchObject({ level: 'error', tool: 'fixture_break_output', code: -32603 });
    expect((line.err as { message: string }).message).toContain('returned output that breaks its output schema');
  });

  it("fills in the contract's recovery hint when ctx.fail gives none", async () => {
    const result = await server.client.callTool({
      name: 'fixture_reserve_seat',
      arguments: { show: 'Raku night', hintFrom: 'contract' },
    });
    const error = failureEnvelope(result);
    expect(error).toEqual({
      code: -32003,
      message: 'Every seat of the show is taken.',
      data: {
        reason: 'sold_out',
        recovery: { hint: 'Pick another show time from the schedule and reserve again.' },
        requestId: error.data.requestId,
      },
    });
    expect(matchesOutputSchema(findTool(tools, 'fixture_reserve_seat'), result.structuredContent)).toBe(true);
  });

  it("keeps the throw site's recovery hint, message and data over the contract's", async () => {
    const result = await server.client.callTool({
      name: 'fixture_reserve_seat',
      arguments: { show: 'Raku night', hintFrom: 'throw-site' },
    });
    const error = failureEnvelope(result);
    expect(error).toEqual({
      code: -32003,
      message: 'Show Raku night sold out an hour ago.',
      data: {
        reason: 'sold_out',
        recovery: { hint: 'Join the waitlist for this show; seats freed by cancellations go to it first.' },
        seatsLeft: 0,
        requestId: error.data.requestId,
      },
    });
    const line = await loggedLine(error.data.requestId);
    expect(line).toMatchObject({ level: 'notice', tool: 'fixture_reserve_seat', reason: 'sold_out' });
  });
});
