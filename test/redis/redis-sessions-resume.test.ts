// Resumable SSE across instances: two real Kiln processes on one Redis with MCP_HTTP_RESUMABILITY on, behind a
// round-robin proxy. The official SDK client holds its GET stream on one instance, which is killed with SIGKILL while
// the other keeps publishing numbered resource updates; the client resumes through the survivor with Last-Event-ID
// and hears every update exactly once, in order, on the same session with its capabilities, level and subscriptions.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { KilnProcess } from '../support/kiln-process.js';
import { type KilnRedisCluster, startKilnRedisCluster } from '../support/kiln-redis-cluster.js';
import type { RoundRobinProxy } from '../support/round-robin-proxy.js';

const HANDSHAKE_VERSION = '2025-11-25';
const ACCEPT = 'application/json, text/event-stream';
const UPDATES = 40;
/** Published (and delivered) before the kill, so the stream is known to be live on the victim. */
const BEFORE_KILL = 10;
/** Published without waiting for delivery, right before the kill: some are in flight when the victim dies. */
const KILLED_AFTER = 14;
const PUBLISH_SPACING_MS = 25;
const DELIVERY_WAIT = { timeout: 10_000, interval: 50 };

let instances: KilnProcess[] = [];
let proxy: RoundRobinProxy;
let cluster: KilnRedisCluster | undefined;
let client: Client | undefined;

beforeAll(async () => {
  cluster = await startKilnRedisCluster({ keyPrefix: 'resume-test', resumability: true });
  ({ instances, proxy } = cluster);
});

afterAll(async () => {
  await client?.close().catch(() => undefined);
  await cluster?.stop();
});

const updateUri = (n: number) => `notes://seq/${n}`;

function post(endpoint: string, message: unknown, headers: Record<string, string> = {}) {
  return fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers },
    body: JSON.stringify(message),
  });
}

/** A second session, straight on one instance, whose tool calls publish the updates from there. */
async function publisherOn(instance: KilnProcess): Promise<(uri: string) => Promise<void>> {
  const opened = await post(instance.endpoint, {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: HANDSHAKE_VERSION, capabilities: {}, clientInfo: { name: 'publisher', version: '1' } },
  });
  await opened.text();
  const headers = {
    'mcp-session-id': opened.headers.get('mcp-session-id') as string,
    'mcp-protocol-version': HANDSHAKE_VERSION,
  };
  await (await post(instance.endpoint, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).text();
  let id = 1;
  return async (uri) => {
    const call = {
      jsonrpc: '2.0',
      id: ++id,
      method: 'tools/call',
      params: { name: 'fixture_touch_resource', arguments: { uri } },
    };
    const response = await post(instance.endpoint, call, headers);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(`"pid":${instance.pid}`);
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a GET stream whose instance is killed with SIGKILL', () => {
  it('resumes on the other instance with Last-Event-ID: every update once, in order, same session', async () => {
    const updated: string[] = [];
    const logs: string[] = [];
    client = new Client({ name: 'resuming-client', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { confirm: true } }));
    client.setNotificationHandler('notifications/resources/updated', (n) => void updated.push(n.params.uri));
    client.setNotificationHandler('notifications/message', (n) => void logs.push(String(n.params.level)));
    const transport = new StreamableHTTPClientTransport(new URL(proxy.endpoint), {
      reconnectionOptions: {
        initialReconnectionDelay: 100,
        maxReconnectionDelay: 500,
        reconnectionDelayGrowFactor: 1.5,
        maxRetries: 20,
      },
    });
    await client.connect(transport);
    const sessionId = transport.sessionId;
    await client.setLoggingLevel('error');
    for (let n = 1; n <= UPDATES; n++) await client.subscribeResource({ uri: updateUri(n) });

    await vi.waitFor(() => expect(proxy.exchanges.some((e) => e.method === 'GET' && e.upstream >= 0)).toBe(true));
    const holderIndex = proxy.exchanges.findLast((e) => e.method === 'GET')?.upstream as number;
    const victim = instances[holderIndex] as KilnProcess;
    const survivor = instances[1 - holderIndex] as KilnProcess;
    const publish = await publisherOn(survivor);

    for (let n = 1; n <= BEFORE_KILL; n++) await publish(updateUri(n));
    await vi.waitFor(() => expect(updated).toHaveLength(BEFORE_KILL), DELIVERY_WAIT);
    const getsBefore = proxy.exchanges.filter((e) => e.method === 'GET').length;

    for (let n = BEFORE_KILL + 1; n <= UPDATES; n++) {
      if (n === KILLED_AFTER + 1) await victim.kill();
      await publish(updateUri(n));
      await sleep(PUBLISH_SPACING_MS);
    }

    const expected = Array.from({ length: UPDATES }, (_, index) => updateUri(index + 1));
    await vi.waitFor(() => expect(updated).toHaveLength(UPDATES), DELIVERY_WAIT);
    // Live updates after the resume, delivered by the survivor alone.
    await publish('notes://seq/live');
    await client.subscribeResource({ uri: 'notes://seq/live' });
    await publish('notes://seq/live');
    await vi.waitFor(() => expect(updated).toEqual([...expected, 'notes://seq/live']), DELIVERY_WAIT);
    const gets = proxy.exchanges.filter((e) => e.method === 'GET');
    expect(gets.length).toBeGreaterThan(getsBefore);
    expect(gets.at(-1)?.upstream).toBe(1 - holderIndex);

    // The session carries on: same id, level `error` (a note's info line stays quiet), elicitation capability.
    expect(transport.sessionId).toBe(sessionId);
    const created = await client.callTool({ name: 'notes_create_note', arguments: { title: 'after', body: 'b' } });
    const noteId = (created.structuredContent as { id: string }).id;
    const deleted = await client.callTool({ name: 'notes_delete_note', arguments: { id: noteId } });
    expect(deleted.structuredContent).toEqual({ deleted: noteId });
    expect(logs).toEqual([]);
  });
});
