// One tool call through app.callTool: content[] is media → format() → enrichment trailer, structuredContent is the
// parsed output with its declared enrichment, and every failure becomes the same envelope on both surfaces.
import { type Context, Enrichment, Errors, type HandlerContext, Tool } from 'mcp-kiln';
import { JsonRpcErrorCode, McpError } from 'mcp-kiln/errors';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bootApp, capturedLog, closeBootedApps, fixtureModule } from '../di/boot-app.js';

afterEach(closeBootedApps);

const Series = z.object({ series: z.array(z.number().describe('A data point')).describe('Data points') });
const Plot = z.object({
  points: z.number().describe('Number of points plotted'),
  scale: z.enum(['linear', 'log']).default('linear').describe('Axis scale'),
});
const PlotEnrichment = {
  totalCount: z.number().describe('Points received'),
  notice: z.string().optional().describe('Guidance about skipped points'),
};

@Tool('render_chart', { description: 'Renders a chart.', input: Series, output: Plot })
@Enrichment(PlotEnrichment)
class RenderChartTool {
  handle(input: z.output<typeof Series>, ctx: HandlerContext<readonly [], typeof PlotEnrichment>) {
    ctx.content.image('iVBORw0KGgo=', 'image/png');
    ctx.enrich.total(input.series.length);
    if (input.series.some((n) => n < 0)) ctx.enrich.notice('Negative points were clipped.');
    (ctx.enrich as (fields: Record<string, unknown>) => void)({ undeclared: 'dropped' });
    return { points: input.series.filter((n) => n >= 0).length };
  }

  format(result: z.output<typeof Plot>) {
    return `Plotted ${result.points} points on a ${result.scale} scale.`;
  }
}

@Tool('count_points', { description: 'Counts points.', input: Series, output: z.object({ points: Plot.shape.points }) })
class CountPointsTool {
  handle(input: z.output<typeof Series>, ctx: Context) {
    ctx.enrich({ stray: true });
    ctx.enrich.total(99);
    return { points: input.series.length };
  }
}

const Mode = z.object({
  mode: z.enum(['wrong_type', 'extra_key', 'missing_enrichment', 'crash']).describe('How to misbehave'),
});

@Tool('broken_chart', { description: 'Breaks its own contract.', input: Mode, output: Plot })
@Enrichment({ totalCount: PlotEnrichment.totalCount })
class BrokenChartTool {
  handle(input: z.output<typeof Mode>, ctx: Context) {
    ctx.content.image('iVBORw0KGgo=', 'image/png');
    if (input.mode === 'crash') throw new Error('secret-db-host:5432 refused the connection');
    if (input.mode !== 'missing_enrichment') ctx.enrich.total(1);
    if (input.mode === 'wrong_type') return { points: 'three' as unknown as number };
    if (input.mode === 'extra_key') return { points: 3, internalCost: 12 } as { points: number };
    return { points: 3 };
  }
}

const Lookup = z.object({
  id: z.string().describe('Item id'),
  via: z.enum(['fail', 'fail_with_hint', 'service', 'service_other_reason']).describe('How the failure is raised'),
});
const LookupContract = [
  {
    reason: 'no_match',
    code: JsonRpcErrorCode.NotFound,
    when: 'No item has this id.',
    recovery: 'List items first to find a valid id.',
  },
] as const;

@Tool('get_item', { description: 'Gets an item.', input: Lookup, output: z.object({ id: Lookup.shape.id }) })
@Errors(LookupContract)
class GetItemTool {
  handle(input: z.output<typeof Lookup>, ctx: HandlerContext<typeof LookupContract>): { id: string } {
    ctx.content.image('iVBORw0KGgo=', 'image/png');
    if (input.via === 'fail') throw ctx.fail('no_match', undefined, { id: input.id });
    if (input.via === 'fail_with_hint') {
      throw ctx.fail('no_match', `No item ${input.id}.`, {
        recovery: { hint: `Search by title; ${input.id} is gone.` },
      });
    }
    if (input.via === 'service') throw new McpError(JsonRpcErrorCode.NotFound, 'Row missing.', { reason: 'no_match' });
    throw new McpError(JsonRpcErrorCode.Conflict, 'Row locked.', { reason: 'row_locked' });
  }
}

const Text = z.object({ text: z.string().describe('Text to echo') });

@Tool('echo_text', { description: 'Echoes text.', input: Text })
class EchoTextTool {
  handle(input: z.output<typeof Text>) {
    return input.text;
  }
}

@Tool('speak_text', { description: 'Speaks text.', input: Text })
class SpeakTextTool {
  handle(input: z.output<typeof Text>, ctx: Context) {
    ctx.content.audio('UklGRg==', 'audio/wav');
    return [
      { type: 'text', text: input.text },
      { type: 'resource_link', uri: 'speech://last', name: 'Last utterance' },
    ];
  }
}

// Each test boots its own app writing to its own captured log, so a test reads only its own lines.
let log: ReturnType<typeof capturedLog>;
beforeEach(() => {
  log = capturedLog();
});
const app = () =>
  bootApp(
    fixtureModule({
      tools: [RenderChartTool, CountPointsTool, BrokenChartTool, GetItemTool, EchoTextTool, SpeakTextTool],
    }),
    log.options,
  );

describe('a successful call', () => {
  it('orders content[] as media, then format(), then the enrichment trailer', async () => {
    const result = await (await app()).callTool('render_chart', { series: [1, -2, 3] });
    expect(result.isError).toBeUndefined();
    expect(result.content).toEqual([
      { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
      { type: 'text', text: 'Plotted 2 points on a linear scale.' },
      { type: 'text', text: '3 total\n> Negative points were clipped.' },
    ]);
  });

  it('sets structuredContent to the parsed output (defaults applied) with the declared enrichment, nothing else', async () => {
    const result = await (await app()).callTool('render_chart', { series: [1, -2, 3] });
    expect(result.structuredContent).toEqual({
      points: 2,
      scale: 'linear',
      totalCount: 3,
      notice: 'Negative points were clipped.',
    });
  });

  it('omits optional enrichment that was never written, from both surfaces', async () => {
    const result = await (await app()).callTool('render_chart', { series: [1, 2] });
    expect(result.structuredContent).toEqual({ points: 2, scale: 'linear', totalCount: 2 });
    expect(result.content.at(-1)).toEqual({ type: 'text', text: '2 total' });
  });

  it('strips enrichment a tool without a block wrote, and renders no trailer', async () => {
    const result = await (await app()).callTool('count_points', { series: [1, 2] });
    expect(result.structuredContent).toEqual({ points: 2 });
    expect(result.content).toEqual([{ type: 'text', text: JSON.stringify({ points: 2 }, null, 2) }]);
  });
});

describe('a handler that breaks its own output contract', () => {
  it.each([
    ['returns a wrong type', 'wrong_type', /breaks its output schema[\s\S]*points/],
    ['returns an undeclared key', 'extra_key', /breaks its output schema[\s\S]*internalCost/],
    ['never writes a required enrichment field', 'missing_enrichment', /breaks its output schema[\s\S]*totalCount/],
    ['throws a plain Error', 'crash', /secret-db-host:5432 refused the connection/],
  ])('%s: is masked as -32603 with the requestId, its own message kept for the log', async (_label, mode, detail) => {
    const result = await (await app()).callTool('broken_chart', { mode });
    expect(result.isError).toBe(true);
    const { error } = result.structuredContent as {
      error: { code: number; message: string; data: Record<string, unknown> };
    };
    const requestId = error.data.requestId as string;
    expect(error.code).toBe(JsonRpcErrorCode.InternalError);
    expect(error.message).toBe(
      `An unexpected error occurred in broken_chart. It was logged with request id ${requestId}.`,
    );
    expect(Object.keys(error.data).sort()).toEqual(['recovery', 'requestId']);

    const wire = JSON.stringify(result);
    for (const leak of ['points', 'internalCost', 'totalCount', 'secret-db-host', 'output schema']) {
      expect(wire).not.toContain(leak);
    }
    const logged = log.lines.find((line) => line.requestId === requestId && line.level === 'error');
    expect(logged).toMatchObject({
      msg: 'Tool broken_chart failed unexpectedly',
      err: { message: expect.stringMatching(detail) },
    });
  });

  it('drops media the handler collected before failing', async () => {
    const result = await (await app()).callTool('broken_chart', { mode: 'crash' });
    expect(result.content).toHaveLength(1);
    expect(result.content[0]?.type).toBe('text');
  });
});

describe('a declared failure', () => {
  it('carries the contract’s code, `when` message, reason and recovery hint on both surfaces', async () => {
    const result = await (await app()).callTool('get_item', { id: 'n-7', via: 'fail' });
    expect(result.isError).toBe(true);
    const { error } = result.structuredContent as { error: { data: { requestId: string } } };
    const { requestId } = error.data;
    expect(error).toEqual({
      code: JsonRpcErrorCode.NotFound,
      message: 'No item has this id.',
      data: {
        id: 'n-7',
        reason: 'no_match',
        recovery: { hint: 'List items first to find a valid id.' },
        requestId,
      },
    });
    expect(result.content).toEqual([
      {
        type: 'text',
        text:
          'Error -32001: No item has this id.\n**Reason:** no_match\n' +
          `**Recovery:** List items first to find a valid id.\n**Request id:** ${requestId}`,
      },
    ]);
  });

  it('keeps a recovery hint written at the throw site over the contract’s', async () => {
    const result = await (await app()).callTool('get_item', { id: 'n-7', via: 'fail_with_hint' });
    const { error } = result.structuredContent as { error: { message: string; data: { recovery: unknown } } };
    expect(error.message).toBe('No item n-7.');
    expect(error.data.recovery).toEqual({ hint: 'Search by title; n-7 is gone.' });
  });

  it('fills the contract’s hint into a service error carrying a declared reason', async () => {
    const result = await (await app()).callTool('get_item', { id: 'n-7', via: 'service' });
    const { error } = result.structuredContent as { error: { message: string; data: Record<string, unknown> } };
    expect(error.message).toBe('Row missing.');
    expect(error.data.recovery).toEqual({ hint: 'List items first to find a valid id.' });
  });

  it('passes a service reason the contract does not declare through, without a hint', async () => {
    const result = await (await app()).callTool('get_item', { id: 'n-7', via: 'service_other_reason' });
    const { error } = result.structuredContent as { error: { code: number; data: Record<string, unknown> } };
    expect(error.code).toBe(JsonRpcErrorCode.Conflict);
    expect(error.data.reason).toBe('row_locked');
    expect(error.data.recovery).toBeUndefined();
  });

  it('drops media the handler collected before throwing', async () => {
    const result = await (await app()).callTool('get_item', { id: 'n-7', via: 'fail' });
    expect(result.content.map((block) => block.type)).toEqual(['text']);
  });

  it('is logged at notice level, not as an unexpected failure', async () => {
    const result = await (await app()).callTool('get_item', { id: 'n-7', via: 'fail' });
    const { requestId } = (result.structuredContent as { error: { data: { requestId: string } } }).error.data;
    const line = log.lines.find((l) => l.requestId === requestId);
    expect(line).toMatchObject({ level: 'notice', reason: 'no_match', msg: 'No item has this id.' });
  });
});

describe('a content-only tool', () => {
  it('turns a returned string into one text block, with no structuredContent', async () => {
    const result = await (await app()).callTool('echo_text', { text: 'hello' });
    expect(result).toEqual({ content: [{ type: 'text', text: 'hello' }] });
  });

  it('passes returned content blocks through after collected media', async () => {
    const result = await (await app()).callTool('speak_text', { text: 'hello' });
    expect(result.structuredContent).toBeUndefined();
    expect(result.content).toEqual([
      { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
      { type: 'text', text: 'hello' },
      { type: 'resource_link', uri: 'speech://last', name: 'Last utterance' },
    ]);
  });
});

describe('arguments the input schema rejects', () => {
  it('never reach the handler and come back as an invalid_arguments envelope', async () => {
    const result = await (await app()).callTool('echo_text', {});
    expect(result.isError).toBe(true);
    const { error } = result.structuredContent as { error: { code: number; data: Record<string, unknown> } };
    expect(error.code).toBe(JsonRpcErrorCode.InvalidParams);
    expect(error.data.reason).toBe('invalid_arguments');
    expect(typeof error.data.requestId).toBe('string');
  });
});
