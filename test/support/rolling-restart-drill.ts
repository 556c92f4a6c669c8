// The rolling-restart drill: Redis, three real Kiln processes (the sessions fixture) and a real HAProxy running
// deploy/haproxy/haproxy.cfg, with steady traffic from official SDK clients on both protocol versions: 2026-07-28
// clients calling a tool in a loop, 2025-11-25 clients in sessions with an open GET stream calling it too and
// subscribed to numbered resources a publisher updates. The instances are restarted one after another (SIGTERM, wait
// for the exit, start again on the same port), then one is killed with SIGKILL and started again. Counts what the
// clients saw. Used by test/deploy/rolling-restart.test.ts (which asserts) and bench/rolling-restart.ts (which prints).
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { assertBuilt, SESSIONS_FIXTURE } from '../integration/helpers/built-servers.js';
import { type Haproxy, startHaproxy } from './haproxy.js';
import { type KilnProcess, startKilnProcess } from './kiln-process.js';
import { ephemeralPort, type RedisSingleServer, startRedisServer } from './redis-servers.js';

export interface DrillOptions {
  readonly envelopeClients?: number;
  readonly handshakeClients?: number;
  /** Numbered resource updates published while the instances restart (at most). */
  readonly events?: number;
  readonly log?: (line: string) => void;
}

export interface PhaseCounts {
  readonly envelopeCalls: number;
  readonly envelopeFailures: number;
  readonly handshakeCalls: number;
  readonly handshakeFailures: number;
  readonly errors: readonly string[];
}

export interface DrillFigures {
  readonly rolling: PhaseCounts & {
    readonly restarts: readonly {
      readonly exitCode: number | null;
      readonly stopMs: number;
      readonly backMs: number;
    }[];
    readonly sessions: number;
    readonly sessionsLost: number;
    readonly eventsPublished: number;
    readonly eventsMissing: number;
    readonly eventsDuplicated: number;
    readonly eventsOutOfOrder: number;
    readonly instancesServing: number;
    readonly tasksCreated: number;
    readonly tasksCompleted: number;
    /** Tasks that ended failed, or that tasks/get stopped finding. */
    readonly tasksLost: number;
  };
  readonly hardKill: PhaseCounts & {
    /** From the kill to the last failed call (0 when none failed). */
    readonly failingForMs: number;
  };
}

const TOOL = 'fixture_touch_resource';
const CALL_SPACING_MS = 10;
const PUBLISH_SPACING_MS = 150;
const seqUri = (n: number) => `test://seq/${n}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class Counter {
  envelopeCalls = 0;
  envelopeFailures = 0;
  handshakeCalls = 0;
  handshakeFailures = 0;
  errors: string[] = [];
  lastFailureAt = 0;

  failed(era: 'envelope' | 'handshake', error: unknown): void {
    if (era === 'envelope') this.envelopeFailures++;
    else this.handshakeFailures++;
    this.lastFailureAt = performance.now();
    if (this.errors.length < 20) this.errors.push(`${era}: ${error instanceof Error ? error.message : String(error)}`);
  }

  counts(): PhaseCounts {
    const { envelopeCalls, envelopeFailures, handshakeCalls, handshakeFailures, errors } = this;
    return { envelopeCalls, envelopeFailures, handshakeCalls, handshakeFailures, errors: [...errors] };
  }
}

interface HandshakeClient {
  readonly client: Client;
  readonly transport: StreamableHTTPClientTransport;
  readonly sessionId: string;
  readonly updates: string[];
}

export async function runRollingRestart(options: DrillOptions = {}): Promise<DrillFigures> {
  const log = options.log ?? (() => undefined);
  const events = options.events ?? 60;
  assertBuilt(SESSIONS_FIXTURE);
  const redis: RedisSingleServer = await startRedisServer({ appendfsync: 'everysec' });
  const ports = [await ephemeralPort(), await ephemeralPort(), await ephemeralPort()] as const;
  const envFor = (port: number) => ({
    MCP_HTTP_PORT: String(port),
    MCP_SESSION_MODE: 'stateful',
    STORAGE_PROVIDER_TYPE: 'redis',
    REDIS_URL: redis.url,
    REDIS_KEY_PREFIX: 'drill',
    MCP_LOG_LEVEL: 'warning',
    MCP_HTTP_RESUMABILITY: 'true',
    MCP_HTTP_RESUMABILITY_RETRY_MS: '200',
    // Longer than HAProxy's fall x inter (2 x 500 ms), so it stops routing here before the listener closes.
    MCP_SHUTDOWN_READY_GRACE_MS: '1500',
    MCP_SHUTDOWN_DRAIN_MS: '10000',
  });
  const instances: KilnProcess[] = [];
  let haproxy: Haproxy | undefined;
  const clients: Client[] = [];
  try {
    for (const port of ports) instances.push(await startKilnProcess(SESSIONS_FIXTURE, envFor(port)));
    haproxy = await startHaproxy(ports.map((port) => `127.0.0.1:${port}`) as [string, string, string]);
    const endpoint = `${haproxy.origin}/mcp`;
    const pidsSeen = await untilEveryInstanceServes(endpoint, instances);
    log(`HAProxy routes to all three instances (pids ${[...pidsSeen].join(', ')})`);

    const counter = new Counter();
    let stopped = false;
    const envelope = await Promise.all(
      Array.from({ length: options.envelopeClients ?? 4 }, (_, index) => connectEnvelope(endpoint, index)),
    );
    const handshake = await Promise.all(
      Array.from({ length: options.handshakeClients ?? 3 }, (_, index) => connectHandshake(endpoint, index, events)),
    );
    clients.push(...envelope, ...handshake.map((entry) => entry.client));
    const tasks = { created: 0, completed: 0, lost: 0 };
    const workers = [
      ...envelope.map((client) => loop(() => stopped, 'envelope', client, counter)),
      ...handshake.map((entry) => loop(() => stopped, 'handshake', entry.client, counter)),
      taskLoop(() => stopped, endpoint, tasks, counter),
    ];

    // The publisher: a 2025 session of its own, updating test://seq/1, 2, ... while the instances restart.
    const publisher = await connectHandshake(endpoint, 99, 0);
    clients.push(publisher.client);
    let published = 0;
    let restarting = true;
    const publishing = (async () => {
      while (restarting && published < events) {
        try {
          await publisher.client.callTool({ name: TOOL, arguments: { uri: seqUri(published + 1) } });
          published++;
        } catch (error) {
          counter.failed('handshake', error);
        }
        await sleep(PUBLISH_SPACING_MS);
      }
    })();

    const restarts: { exitCode: number | null; stopMs: number; backMs: number }[] = [];
    for (let index = 0; index < instances.length; index++) {
      const old = instances[index] as KilnProcess;
      const stoppingAt = performance.now();
      const exit = await old.stop();
      const stopMs = Math.round(performance.now() - stoppingAt);
      const fresh = await startKilnProcess(SESSIONS_FIXTURE, envFor(ports[index] as number));
      instances[index] = fresh;
      await untilServedBy(endpoint, fresh.pid);
      const backMs = Math.round(performance.now() - stoppingAt);
      restarts.push({ exitCode: exit.code, stopMs, backMs });
      log(
        `instance ${index + 1} restarted: exit ${exit.code}, stopped in ${stopMs} ms, serving again after ${backMs} ms`,
      );
    }
    restarting = false;
    await publishing;
    const rollingCounts = counter.counts();
    const rollingTasks = { ...tasks };

    // Every session still there with its id; every update heard exactly once, in order.
    const expected = Array.from({ length: published }, (_, index) => seqUri(index + 1));
    await untilDelivered(handshake, published);
    let missing = 0;
    let duplicated = 0;
    let outOfOrder = 0;
    for (const entry of handshake) {
      const heard = entry.updates.filter((uri) => uri.startsWith('test://seq/'));
      missing += expected.filter((uri) => !heard.includes(uri)).length;
      duplicated += heard.length - new Set(heard).size;
      if (heard.some((uri, position) => uri !== expected[position])) outOfOrder++;
    }
    const sessionsLost = handshake.filter((entry) => entry.transport.sessionId !== entry.sessionId).length;
    const serving = await untilEveryInstanceServes(endpoint, instances);

    // A hard kill: what clients see when an instance dies without draining, and for how long.
    const killCounter = new Counter();
    stopped = true;
    await Promise.all(workers);
    rollingTasks.created = tasks.created;
    rollingTasks.completed = tasks.completed;
    rollingTasks.lost = tasks.lost;
    stopped = false;
    const killWorkers = [
      ...envelope.map((client) => loop(() => stopped, 'envelope', client, killCounter)),
      ...handshake.map((entry) => loop(() => stopped, 'handshake', entry.client, killCounter)),
    ];
    await sleep(500);
    const victim = instances[1] as KilnProcess;
    const killedAt = performance.now();
    await victim.kill();
    await sleep(3_000);
    instances[1] = await startKilnProcess(SESSIONS_FIXTURE, envFor(ports[1]));
    await untilServedBy(endpoint, instances[1].pid);
    await sleep(500);
    stopped = true;
    await Promise.all(killWorkers);
    const failingForMs = killCounter.lastFailureAt > killedAt ? Math.round(killCounter.lastFailureAt - killedAt) : 0;
    log(
      `hard kill: ${killCounter.envelopeFailures + killCounter.handshakeFailures} failed calls over ${failingForMs} ms`,
    );

    return {
      rolling: {
        ...rollingCounts,
        restarts,
        sessions: handshake.length,
        sessionsLost,
        eventsPublished: published,
        eventsMissing: missing,
        eventsDuplicated: duplicated,
        eventsOutOfOrder: outOfOrder,
        instancesServing: serving.size,
        tasksCreated: rollingTasks.created,
        tasksCompleted: rollingTasks.completed,
        tasksLost: rollingTasks.lost,
      },
      hardKill: { ...killCounter.counts(), failingForMs },
    };
  } finally {
    await Promise.allSettled(clients.map((client) => client.close()));
    await haproxy?.stop();
    await Promise.allSettled(instances.map((instance) => instance.kill()));
    await redis.stop();
  }
}

async function connectEnvelope(endpoint: string, index: number): Promise<Client> {
  const client = new Client(
    { name: `drill-envelope-${index}`, version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint)));
  return client;
}

async function connectHandshake(endpoint: string, index: number, subscriptions: number): Promise<HandshakeClient> {
  const updates: string[] = [];
  const client = new Client({ name: `drill-handshake-${index}`, version: '1.0.0' });
  client.setNotificationHandler('notifications/resources/updated', (notification) => {
    updates.push(notification.params.uri);
  });
  const transport = new StreamableHTTPClientTransport(new URL(endpoint), {
    reconnectionOptions: {
      initialReconnectionDelay: 100,
      maxReconnectionDelay: 500,
      reconnectionDelayGrowFactor: 1.5,
      maxRetries: 50,
    },
  });
  await client.connect(transport);
  for (let n = 1; n <= subscriptions; n++) await client.subscribeResource({ uri: seqUri(n) });
  return { client, transport, sessionId: transport.sessionId as string, updates };
}

/** Calls the tool until told to stop; every failure is counted (none is retried). */
async function loop(stopped: () => boolean, era: 'envelope' | 'handshake', client: Client, counter: Counter) {
  while (!stopped()) {
    try {
      const result = await client.callTool({ name: TOOL, arguments: { uri: `test://traffic/${era}` } });
      if (result.isError) counter.failed(era, new Error(JSON.stringify(result.content)));
      else if (era === 'envelope') counter.envelopeCalls++;
      else counter.handshakeCalls++;
    } catch (error) {
      counter.failed(era, error);
    }
    await sleep(CALL_SPACING_MS);
  }
}

/** One 2026-07-28 request (no session) through the balancer, declaring `capabilities`; its JSON-RPC answer. */
async function envelopePost(
  endpoint: string,
  method: string,
  params: Record<string, unknown>,
  capabilities: Record<string, unknown> = {},
) {
  const name = method === 'tools/call' ? params.name : params.taskId;
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      'mcp-name': String(name),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'drill', version: '1.0.0' },
          'io.modelcontextprotocol/clientCapabilities': capabilities,
        },
      },
    }),
  });
  const text = await response.text();
  const json = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? '{}');
  return JSON.parse(json) as { result?: Record<string, unknown>; error?: { message: string } };
}

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
const taskRequest = (endpoint: string, method: string, params: Record<string, unknown>) =>
  envelopePost(endpoint, method, params, TASKS);

/** Starts a short task, polls it to its end through the balancer, and again; every task is accounted for. */
async function taskLoop(
  stopped: () => boolean,
  endpoint: string,
  tasks: { created: number; completed: number; lost: number },
  counter: Counter,
): Promise<void> {
  while (!stopped()) {
    let taskId: string | undefined;
    try {
      const created = await taskRequest(endpoint, 'tools/call', { name: 'fixture_job', arguments: { ms: 300 } });
      taskId = created.result?.taskId as string | undefined;
      if (!taskId) throw new Error(`no task: ${JSON.stringify(created)}`);
    } catch (error) {
      counter.failed('envelope', error);
      continue;
    }
    tasks.created++;
    const deadline = performance.now() + 20_000;
    for (;;) {
      const got = await taskRequest(endpoint, 'tasks/get', { taskId }).catch((error: unknown) => ({
        error: { message: String(error) },
        result: undefined,
      }));
      const status = got.result?.status;
      if (status === 'completed') {
        tasks.completed++;
        break;
      }
      if (status === 'failed' || status === 'cancelled' || performance.now() > deadline || got.error) {
        tasks.lost++;
        counter.failed('envelope', new Error(`task ${taskId}: ${JSON.stringify(got)}`));
        break;
      }
      await sleep(50);
    }
  }
}

/** The pid a tools/call through the balancer was served by. */
async function servedBy(endpoint: string): Promise<number | undefined> {
  const answer = await envelopePost(endpoint, 'tools/call', { name: TOOL, arguments: { uri: 'test://probe' } }).catch(
    () => undefined,
  );
  return (answer?.result?.structuredContent as { pid?: number } | undefined)?.pid;
}

async function untilServedBy(endpoint: string, pid: number, timeoutMs = 20_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while ((await servedBy(endpoint)) !== pid) {
    if (performance.now() > deadline) throw new Error(`HAProxy did not route to pid ${pid} within ${timeoutMs} ms`);
    await sleep(50);
  }
}

async function untilEveryInstanceServes(endpoint: string, instances: readonly KilnProcess[]): Promise<Set<number>> {
  const wanted = new Set(instances.map((instance) => instance.pid));
  const seen = new Set<number>();
  const deadline = performance.now() + 20_000;
  while ([...wanted].some((pid) => !seen.has(pid))) {
    if (performance.now() > deadline) throw new Error(`HAProxy routed only to ${[...seen].join(', ')}`);
    const pid = await servedBy(endpoint);
    if (pid !== undefined) seen.add(pid);
  }
  return seen;
}

async function untilDelivered(clients: readonly HandshakeClient[], count: number, timeoutMs = 20_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  const heard = (entry: HandshakeClient) => new Set(entry.updates.filter((uri) => uri.startsWith('test://seq/'))).size;
  while (clients.some((entry) => heard(entry) < count) && performance.now() < deadline) await sleep(50);
}
