// 2025 sessions any instance can serve: two real Kiln processes on one Redis (STORAGE_PROVIDER_TYPE=redis) behind a
// round-robin proxy with no stickiness. The official SDK client keeps one session across both instances (tools,
// subscriptions, log level, capabilities, and answers to the server's own requests), a session missing on an
// instance is rebuilt there once however many requests ask, a DELETE anywhere ends it everywhere, and after one
// instance is killed the client carries on with the other. The processes are shared by every case; the last one
// kills an instance.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { KilnProcess } from '../support/kiln-process.js';
import { type KilnRedisCluster, startKilnRedisCluster } from '../support/kiln-redis-cluster.js';
import type { RedisSingleServer } from '../support/redis-servers.js';
import type { ProxiedExchange, RoundRobinProxy } from '../support/round-robin-proxy.js';

const HANDSHAKE_VERSION = '2025-11-25';
const ACCEPT = 'application/json, text/event-stream';
/** The client reconnects its GET stream after 100 ms, backing off; the proxy needs a moment to see the crash. */
const RECONNECT_WAIT = { timeout: 5_000, interval: 50 };
/** ioredis reconnects with a backoff of up to 2 s; health and requests follow once it has. */
const REDIS_WAIT = { timeout: 10_000, interval: 100 };

let redis: RedisSingleServer;
let instances: KilnProcess[] = [];
let proxy: RoundRobinProxy;
let cluster: KilnRedisCluster | undefined;
const clients: Client[] = [];

beforeAll(async () => {
  // A client that lost its stream opens a fresh one here; resuming with Last-Event-ID across instances is
  // redis-sessions-resume.test.ts's subject.
  cluster = await startKilnRedisCluster({ keyPrefix: 'sessions-test', resumability: false });
  ({ redis, instances, proxy } = cluster);
});

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await cluster?.stop();
});

interface Heard {
  readonly logs: string[];
  readonly updated: string[];
}

async function connect(
  endpoint: string,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport; heard: Heard }> {
  const heard: Heard = { logs: [], updated: [] };
  const client = new Client(
    { name: 'round-robin-client', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { confirm: true } }));
  client.setNotificationHandler('notifications/message', (notification) => {
    heard.logs.push(String(notification.params.level));
  });
  client.setNotificationHandler('notifications/resources/updated', (notification) => {
    heard.updated.push(notification.params.uri);
  });
  const transport = new StreamableHTTPClientTransport(new URL(endpoint), {
    reconnectionOptions: {
      initialReconnectionDelay: 100,
      maxReconnectionDelay: 500,
      reconnectionDelayGrowFactor: 1.5,
      maxRetries: 10,
    },
  });
  await client.connect(transport);
  clients.push(client);
  return { client, transport, heard };
}

const pidOf = (upstream: number) => (instances[upstream] as KilnProcess).pid;

/** The instance holding the client's GET stream: the upstream that took the latest GET. */
function streamHolderPid(): number {
  const gets = proxy.exchanges.filter((exchange) => exchange.method === 'GET' && exchange.upstream >= 0);
  const last = gets.at(-1);
  if (!last) throw new Error('The client opened no GET stream');
  return pidOf(last.upstream);
}

async function touch(client: Client, uri: string): Promise<number> {
  const result = await client.callTool({ name: 'fixture_touch_resource', arguments: { uri } });
  expect(result.isError).toBeFalsy();
  return (result.structuredContent as { pid: number }).pid;
}

async function createNote(client: Client, title: string): Promise<string> {
  const result = await client.callTool({ name: 'notes_create_note', arguments: { title, body: 'b' } });
  expect(result.isError).toBeFalsy();
  return (result.structuredContent as { id: string }).id;
}

function post(endpoint: string, message: unknown, headers: Record<string, string> = {}) {
  return fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers },
    body: JSON.stringify(message),
  });
}

/** initialize + notifications/initialized straight to one instance; returns the session id. */
async function openRawSession(endpoint: string): Promise<string> {
  const opened = await post(endpoint, {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: HANDSHAKE_VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  expect(opened.status).toBe(200);
  await opened.text();
  const sessionId = opened.headers.get('mcp-session-id') as string;
  const initialized = await post(
    endpoint,
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    sessionHeaders(sessionId),
  );
  expect(initialized.status).toBe(202);
  return sessionId;
}

const sessionHeaders = (sessionId: string) => ({
  'mcp-session-id': sessionId,
  'mcp-protocol-version': HANDSHAKE_VERSION,
});

const toolsList = (sessionId: string, endpoint: string, id = 2) =>
  post(endpoint, { jsonrpc: '2.0', id, method: 'tools/list', params: {} }, sessionHeaders(sessionId));

const rehydrations = (instance: KilnProcess, sessionId: string) =>
  instance.logLines.filter((line) => line.msg === 'Rehydrated MCP session' && line.sessionId === sessionId).length;

async function health(instance: KilnProcess): Promise<{ sessions: number; clusterSessions: number; status: string }> {
  const response = await fetch(`${instance.origin}/healthz`);
  return (await response.json()) as { sessions: number; clusterSessions: number; status: string };
}

describe('an SDK client behind a round robin', () => {
  it('keeps one session on both instances: tools, log level, subscriptions and capabilities', async () => {
    const { client, transport, heard } = await connect(proxy.endpoint);
    const sessionId = transport.sessionId;
    expect(sessionId).toBeTruthy();

    await client.setLoggingLevel('warning');
    const quietCalls = [];
    for (let index = 0; index < 4; index++) quietCalls.push(await createNote(client, `quiet ${index}`));
    // Below the level set on whichever instance took setLevel: no instance mirrors the info line.
    expect(heard.logs).toEqual([]);
    await client.setLoggingLevel('info');
    for (let index = 0; index < 2; index++) await createNote(client, `loud ${index}`);
    expect(heard.logs).toEqual(['info', 'info']);

    // Two subscriptions in a row land on different instances; each touch below lands on one of them. The Redis bus
    // carries every touch to the instance holding the GET stream, the only one that delivers, and it knows both
    // subscriptions whichever instance took them: each update arrives once, whichever instance published it.
    await client.subscribeResource({ uri: 'notes://first' });
    await client.subscribeResource({ uri: 'notes://second' });
    const touched: Array<{ uri: string; pid: number }> = [];
    for (const uri of ['notes://first', 'notes://first', 'notes://second', 'notes://second', 'notes://other']) {
      touched.push({ uri, pid: await touch(client, uri) });
    }
    expect(new Set(touched.map((entry) => entry.pid))).toEqual(new Set(instances.map((instance) => instance.pid)));
    const expected = touched.filter((entry) => entry.uri !== 'notes://other').map((entry) => entry.uri);
    await vi.waitFor(() => expect(heard.updated).toEqual(expected));

    // A consent prompt (elicitation/create) needs the client's capabilities on the instance running the tool.
    const noteId = await createNote(client, 'to delete');
    const deleted = await client.callTool({ name: 'notes_delete_note', arguments: { id: noteId } });
    expect(deleted.isError).toBeFalsy();
    expect(deleted.structuredContent).toEqual({ deleted: noteId });

    expect(transport.sessionId).toBe(sessionId);
    const served = new Set(proxy.exchanges.filter((e) => e.method === 'POST').map((e) => e.upstream));
    expect(served).toEqual(new Set([0, 1]));
  });

  it('routes the answer to a server-to-client request to the instance waiting for it', async () => {
    const { client } = await connect(proxy.endpoint);
    const noteId = await createNote(client, 'routed answer');
    // The tools/call goes to one instance, the client's answer to its elicitation/create to the other.
    proxy.route(({ method, body }) => {
      const message = body as { method?: string; result?: unknown } | undefined;
      if (method !== 'POST' || !message) return undefined;
      if (message.method === 'tools/call') return 0;
      return 'result' in message ? 1 : undefined;
    });
    try {
      const deleted = await client.callTool({ name: 'notes_delete_note', arguments: { id: noteId } });
      expect(deleted.structuredContent).toEqual({ deleted: noteId });
    } finally {
      proxy.route(undefined);
    }
    const sent = (exchange: ProxiedExchange) => exchange.body as { method?: string; result?: unknown } | undefined;
    expect(proxy.exchanges.findLast((e) => sent(e)?.method === 'tools/call')?.upstream).toBe(0);
    const answer = proxy.exchanges.findLast((e) => sent(e)?.result !== undefined);
    // The answer names the instance that asked: `<instance>:<n>`, the id the SDK numbered `n` there.
    expect(answer).toMatchObject({ upstream: 1, body: { id: expect.stringMatching(/^[0-9a-f-]+:\d+$/) } });
  });
});

describe('one session, several instances', () => {
  it('is rebuilt once on an instance that lacks it, however many requests arrive at once', async () => {
    const [opener, other] = instances as [KilnProcess, KilnProcess];
    const sessionId = await openRawSession(opener.endpoint);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, index) => toolsList(sessionId, other.endpoint, index + 10)),
    );
    for (const response of responses) {
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('notes_create_note');
    }
    expect(rehydrations(other, sessionId)).toBe(1);
    expect(rehydrations(opener, sessionId)).toBe(0);
  });

  it('ends everywhere on a DELETE to any instance', async () => {
    const [opener, other] = instances as [KilnProcess, KilnProcess];
    // Deleted where it was opened, while the other instance serves a copy: that copy goes too.
    const copied = await openRawSession(opener.endpoint);
    const onOther = await toolsList(copied, other.endpoint);
    expect(onOther.status).toBe(200);
    await onOther.text();
    const servedBefore = (await health(other)).sessions;
    // Deleted on an instance that never saw it: it is rebuilt there to be ended.
    const remote = await openRawSession(opener.endpoint);

    for (const [sessionId, where] of [
      [copied, opener],
      [remote, other],
    ] as const) {
      const ended = await fetch(where.endpoint, { method: 'DELETE', headers: sessionHeaders(sessionId) });
      expect(ended.status).toBe(200);
      for (const instance of [other, opener]) {
        const after = await toolsList(sessionId, instance.endpoint);
        expect(after.status).toBe(404);
        expect(((await after.json()) as { error: { code: number } }).error.code).toBe(-32001);
      }
    }
    await vi.waitFor(async () => expect((await health(other)).sessions).toBe(servedBefore - 1));
  });

  it('answers 404 for a session no instance recorded', async () => {
    for (const instance of instances) {
      for (const unknown of ['00000000-0000-4000-8000-000000000000', 'not-a-session-id']) {
        const response = await toolsList(unknown, instance.endpoint);
        expect(response.status).toBe(404);
        await response.text();
      }
    }
  });

  it('reports local and cluster-wide session counts on /healthz', async () => {
    // Each instance counts the cluster at most once a second (probes are cheap), so the two agree within that.
    await vi.waitFor(async () => {
      const [first, second] = await Promise.all(instances.map(health));
      expect(first?.status).toBe('ok');
      expect(first?.clusterSessions).toBe(second?.clusterSessions);
      expect(first?.clusterSessions).toBeGreaterThanOrEqual(Math.max(first?.sessions ?? 0, second?.sessions ?? 0));
    }, REDIS_WAIT);
  });
});

describe('Redis going away and coming back', () => {
  it('degrades /healthz and answers 503 while Redis is down, and serves the sessions it recorded once it is back', async () => {
    const [opener, other] = instances as [KilnProcess, KilnProcess];
    const sessionId = await openRawSession(opener.endpoint);
    await redis.kill();
    await vi.waitFor(async () => expect((await health(opener)).status).toBe('degraded'), REDIS_WAIT);
    const refused = await toolsList(sessionId, other.endpoint);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    const body = (await refused.json()) as { error: { data: { reason: string; recovery: { hint: string } } } };
    expect(body.error.data).toMatchObject({ reason: 'storage_unavailable', recovery: { hint: /Retry/ } });

    // AOF with fsync always: the record is still there after the restart, so an instance that never saw the
    // session rebuilds it, and the one that opened it goes on serving it.
    await redis.restart();
    await vi.waitFor(async () => expect((await health(opener)).status).toBe('ok'), REDIS_WAIT);
    for (const instance of [other, opener]) {
      await vi.waitFor(async () => {
        const response = await toolsList(sessionId, instance.endpoint);
        expect(response.status).toBe(200);
        await response.text();
      }, REDIS_WAIT);
    }
    expect(rehydrations(other, sessionId)).toBe(1);
  });
});

describe('an instance killed with SIGKILL', () => {
  it('leaves its client on the other instance with the same session, capabilities, log level and subscriptions', async () => {
    const { client, transport, heard } = await connect(proxy.endpoint);
    const sessionId = transport.sessionId;
    await client.setLoggingLevel('error');
    await client.subscribeResource({ uri: 'notes://kept' });
    await touch(client, 'notes://warm-up');
    await touch(client, 'notes://warm-up');

    // Kill the instance holding the client's GET stream: the client has to reconnect that stream elsewhere.
    const holder = streamHolderPid();
    const victim = instances.find((instance) => instance.pid === holder) as KilnProcess;
    const survivor = instances.find((instance) => instance.pid !== holder) as KilnProcess;
    const getsBefore = proxy.exchanges.filter((e) => e.method === 'GET').length;
    await victim.kill();
    await vi.waitFor(() => {
      const gets = proxy.exchanges.filter((e) => e.method === 'GET');
      expect(gets.length).toBeGreaterThan(getsBefore);
      expect(pidOf((gets.at(-1) as { upstream: number }).upstream)).toBe(survivor.pid);
    }, RECONNECT_WAIT);

    expect(await touch(client, 'notes://kept')).toBe(survivor.pid);
    await vi.waitFor(() => expect(heard.updated).toContain('notes://kept'));
    await createNote(client, 'after the crash');
    expect(heard.logs).toEqual([]);
    const noteId = await createNote(client, 'delete after the crash');
    const deleted = await client.callTool({ name: 'notes_delete_note', arguments: { id: noteId } });
    expect(deleted.structuredContent).toEqual({ deleted: noteId });
    expect(transport.sessionId).toBe(sessionId);

    await client.close();
    expect(await survivor.stop()).toEqual({ code: 0, signal: null });
  });
});
