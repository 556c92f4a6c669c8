// With an OpenTelemetry SDK registered before the app boots: one SERVER span per tools/call, resources/read,
// prompts/get and completion/complete, named and attributed per the MCP conventions, with outcome and error reason,
// parented on `_meta.traceparent`, its ids on ctx and on log lines, storage calls as child spans.
import * as otelApi from '@opentelemetry/api';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { LOGGER, STORAGE } from 'mcp-kiln';
import { createTestingModule, type TestingApp } from 'mcp-kiln/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logging/index.js';
import { type CapturedLines, captureDestination } from '../logging/capture-destination.js';
import { type OtelSdk, registerOtelSdk } from './otel-sdk.js';
import { TelemetryFixtureModule } from './telemetry-fixture.module.js';

const CALLER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';
const TRACEPARENT = `00-${CALLER_TRACE}-${CALLER_SPAN}-01`;

let sdk: OtelSdk;
let app: TestingApp;
let log: CapturedLines;
beforeAll(async () => {
  sdk = registerOtelSdk();
  log = captureDestination();
  app = await createTestingModule({ imports: [TelemetryFixtureModule] })
    .overrideProvider(LOGGER)
    .useValue(createLogger({ level: 'debug', destination: log, traceCorrelation: otelApi }))
    .compile({ env: { MCP_LOG_LEVEL: 'debug' } });
});
afterAll(async () => {
  await app?.close();
  await sdk?.shutdown();
});
beforeEach(() => sdk.reset());

const structured = (result: { structuredContent?: unknown }) => result.structuredContent as Record<string, unknown>;

async function createNote(): Promise<string> {
  const created = await app.callTool('notes_create_note', { title: 'Traced', body: 'b', tags: ['t'] });
  return structured(created).id as string;
}

describe('operation spans', () => {
  it('opens one SERVER span per tools/call, named for the tool, with MCP and Kiln attributes', async () => {
    const client = await app.connectClient({ era: 'envelope' });
    await client.callTool({ name: 'probe_trace', arguments: {} });
    const span = sdk.span('tools/call probe_trace');
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'probe_trace',
      'gen_ai.operation.name': 'execute_tool',
      'kiln.era': 'envelope',
      'kiln.tenant.id': 'default',
      'kiln.outcome': 'ok',
    });
    expect(typeof span.attributes['kiln.request.id']).toBe('string');
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('hands the span ids to ctx.traceId and ctx.spanId', async () => {
    const result = await app.callTool('probe_trace', {});
    const span = sdk.span('tools/call probe_trace');
    expect(structured(result)).toEqual({ traceId: span.spanContext().traceId, spanId: span.spanContext().spanId });
  });

  it('continues the trace a client puts in _meta.traceparent', async () => {
    const client = await app.connectClient({ era: 'envelope' });
    const result = await client.callTool({ name: 'probe_trace', arguments: {}, _meta: { traceparent: TRACEPARENT } });
    const span = sdk.span('tools/call probe_trace');
    expect(span.spanContext().traceId).toBe(CALLER_TRACE);
    expect(span.parentSpanContext?.spanId).toBe(CALLER_SPAN);
    expect(span.parentSpanContext?.isRemote).toBe(true);
    expect(structured(result).traceId).toBe(CALLER_TRACE);
  });

  it('continues _meta.traceparent on a 2025 session too', async () => {
    const client = await app.connectClient({ era: 'handshake' });
    await client.callTool({ name: 'probe_trace', arguments: {}, _meta: { traceparent: TRACEPARENT } });
    const span = sdk.span('tools/call probe_trace');
    expect(span.spanContext().traceId).toBe(CALLER_TRACE);
    expect(span.attributes['kiln.era']).toBe('handshake');
  });

  it('starts a new trace when _meta.traceparent is malformed', async () => {
    const client = await app.connectClient({ era: 'envelope' });
    await client.callTool({ name: 'probe_trace', arguments: {}, _meta: { traceparent: 'not-a-traceparent' } });
    const span = sdk.span('tools/call probe_trace');
    expect(span.parentSpanContext).toBeUndefined();
    expect(span.spanContext().traceId).not.toBe(CALLER_TRACE);
  });

  it('marks a tool error result: outcome, error.type tool_error, the reason and an ERROR status', async () => {
    const result = await app.callTool('notes_get_note', { id: 'missing' });
    expect(result.isError).toBe(true);
    const span = sdk.span('tools/call notes_get_note');
    expect(span.attributes).toMatchObject({
      'kiln.outcome': 'tool_error',
      'error.type': 'tool_error',
      'kiln.error.reason': 'no_match',
    });
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'No note has id missing.' });
  });

  it('names an unknown tool nowhere but records the JSON-RPC error it got', async () => {
    const client = await app.connectClient({ era: 'envelope' });
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow();
    const span = sdk.span('tools/call');
    expect(span.attributes['gen_ai.tool.name']).toBeUndefined();
    expect(span.attributes).toMatchObject({
      'kiln.outcome': 'error',
      'error.type': '-32602',
      'rpc.response.status_code': '-32602',
      'kiln.error.reason': 'unknown_tool',
    });
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('records what the input pipeline rewrote, by key name and path', async () => {
    await app.callTool('probe_trace', { noteText: 42, _call_id: 'c-1' });
    const span = sdk.span('tools/call probe_trace');
    expect(span.attributes).toMatchObject({
      'kiln.input.dropped': ['_call_id'],
      'kiln.input.aliased': ['noteText->note_text'],
      'kiln.input.repaired': ['note_text'],
    });
  });

  it('makes each storage call a child span of the operation', async () => {
    await app.callTool('probe_trace', {});
    const operation = sdk.span('tools/call probe_trace');
    const storage = sdk.spans().filter((span) => span.name.startsWith('storage '));
    expect(storage.map((span) => span.name)).toEqual(['storage set', 'storage get']);
    for (const span of storage) {
      expect(span.parentSpanContext?.spanId).toBe(operation.spanContext().spanId);
      expect(span.spanContext().traceId).toBe(operation.spanContext().traceId);
      expect(span.attributes['db.operation.name']).toBe(span.name.slice('storage '.length));
    }
  });

  it('opens no root span for a storage call outside any operation (boot hooks, background work)', async () => {
    await app.get(STORAGE).forTenant('default').set('outside', 1);
    expect(sdk.spans()).toEqual([]);
  });

  it('spans resources/read (named for the resource, URI as an attribute), prompts/get and completion', async () => {
    const id = await createNote();
    const client = await app.connectClient({ era: 'envelope' });
    await client.readResource({ uri: `notes://${id}` });
    await client.getPrompt({ name: 'notes_summarize', arguments: { tag: 't' } });
    await client.complete({
      ref: { type: 'ref/prompt', name: 'notes_summarize' },
      argument: { name: 'style', value: 'b' },
    });
    expect(sdk.span('resources/read note').attributes).toMatchObject({
      'mcp.method.name': 'resources/read',
      'mcp.resource.uri': `notes://${id}`,
      'kiln.resource.name': 'note',
      'kiln.outcome': 'ok',
    });
    expect(sdk.span('prompts/get notes_summarize').attributes).toMatchObject({
      'mcp.method.name': 'prompts/get',
      'gen_ai.prompt.name': 'notes_summarize',
    });
    expect(sdk.span('completion/complete notes_summarize').attributes).toMatchObject({
      'mcp.method.name': 'completion/complete',
      'gen_ai.prompt.name': 'notes_summarize',
      'kiln.outcome': 'ok',
    });
  });

  it('records a resource the handler could not find as an error with its contract reason', async () => {
    await expect(app.readResource('notes://nope')).rejects.toMatchObject({ data: { reason: 'no_match' } });
    const span = sdk.span('resources/read note');
    expect(span.attributes).toMatchObject({ 'kiln.outcome': 'error', 'kiln.error.reason': 'no_match' });
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
  });
});

describe('log correlation', () => {
  const linesOf = (message: string) => log.lines.filter((line) => line.msg === message);
  const ids = (span: ReadableSpan) => ({ traceId: span.spanContext().traceId, spanId: span.spanContext().spanId });

  it("puts the operation span's ids on ctx.log lines", async () => {
    await app.callTool('probe_trace', {});
    expect(linesOf('Probing').at(-1)).toMatchObject(ids(sdk.span('tools/call probe_trace')));
  });

  it("puts the active span's ids on the framework's own lines (the input-edge debug line)", async () => {
    await app.callTool('probe_trace', { noteText: 'x' });
    expect(linesOf('Input edge rewrote arguments').at(-1)).toMatchObject(ids(sdk.span('tools/call probe_trace')));
  });

  it('adds nothing to a line written outside any span', () => {
    app.get(LOGGER).info('Outside');
    const line = linesOf('Outside').at(-1);
    expect(line).toBeDefined();
    expect(line).not.toHaveProperty('traceId');
  });
});
