// Notifications over real HTTP with the official SDK client, in both eras. 2026-07-28: subscriptions/listen streams
// (acknowledged first, each notification tagged with its subscriptionId, filtered by what the listener asked for),
// fed by ctx.notify* and by the app's notifier outside any request. 2025-11-25: a live session's GET stream, with
// resource updates only for subscribed URIs. Progress and log lines ride the request's own response stream, log
// lines only at the level the client chose, and never a listen stream.
import {
  type JSONRPCMessage,
  LOG_LEVEL_META_KEY,
  type LoggingMessageNotificationParams,
  type Progress,
  SUBSCRIPTION_ID_META_KEY,
} from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectHttpClient, type HttpSdkClient, notificationsOf } from './helpers/http-sdk-client.js';
import type { Era } from './helpers/http-server.js';
import { docUri } from './helpers/notifying-fixture.js';
import { type NotifyingServer, startNotifyingServer } from './helpers/notifying-server.js';
import { openListenStream, postEnvelope } from './helpers/raw-mcp-http.js';
import { frameMessage, frameMethod, type SseStream } from './helpers/sse-frames.js';

const ACKNOWLEDGED = 'notifications/subscriptions/acknowledged';
const TOOLS_CHANGED = 'notifications/tools/list_changed';
const PROMPTS_CHANGED = 'notifications/prompts/list_changed';
const RESOURCE_UPDATED = 'notifications/resources/updated';

let server: NotifyingServer;
const opened: HttpSdkClient[] = [];
const rawStreams: SseStream[] = [];

async function connect(era: Era): Promise<HttpSdkClient> {
  const connected = await connectHttpClient(server.endpointUrl, era);
  opened.push(connected);
  if (era === 'handshake') await connected.streamOpen;
  return connected;
}

const call = (caller: HttpSdkClient, name: string, args: Record<string, unknown> = {}) =>
  caller.client.callTool({ name, arguments: args });

const subscriptionIdOf = (message: JSONRPCMessage | undefined) =>
  (message as { params?: { _meta?: Record<string, unknown> } } | undefined)?.params?._meta?.[SUBSCRIPTION_ID_META_KEY];

const urisOf = (messages: readonly JSONRPCMessage[]) =>
  messages.map((m) => (m as { params?: { uri?: string } }).params?.uri);

/** Waits until the wire holds `count` notifications of `method`; returns them. */
async function arrived(listener: HttpSdkClient, method: string, count = 1) {
  await vi.waitFor(() => expect(notificationsOf(listener.wire, method).length).toBeGreaterThanOrEqual(count), {
    timeout: 3_000,
  });
  return notificationsOf(listener.wire, method);
}

beforeAll(async () => {
  server = await startNotifyingServer();
});
afterEach(async () => {
  for (const stream of rawStreams.splice(0)) stream.close();
  await Promise.allSettled(opened.splice(0).map((c) => c.close()));
});
afterAll(() => server?.close());

describe('2026-07-28 subscriptions/listen', () => {
  it('acknowledges first, then delivers tools/list_changed tagged with the subscription id', async () => {
    const listener = await connect('envelope');
    const caller = await connect('envelope');
    const handled: unknown[] = [];
    listener.client.setNotificationHandler(TOOLS_CHANGED, (notification) => {
      handled.push(notification);
    });

    const subscription = await listener.client.listen({ toolsListChanged: true });
    expect(subscription.honoredFilter).toEqual({ toolsListChanged: true });
    await call(caller, 'fixture_change_tools');
    await vi.waitFor(() => expect(handled).toHaveLength(1));

    const [ack, changed, ...rest] = listener.wire;
    expect(rest).toEqual([]);
    expect(ack).toMatchObject({ method: ACKNOWLEDGED, params: { notifications: { toolsListChanged: true } } });
    expect(changed).toMatchObject({ method: TOOLS_CHANGED });
    expect(subscriptionIdOf(changed)).toBeDefined();
    expect(subscriptionIdOf(changed)).toBe(subscriptionIdOf(ack));
  });

  it('sends a listener only the kinds it asked for', async () => {
    const promptsOnly = await connect('envelope');
    const caller = await connect('envelope');
    const subscription = await promptsOnly.client.listen({ promptsListChanged: true });
    expect(subscription.honoredFilter).toEqual({ promptsListChanged: true });

    await call(caller, 'fixture_change_tools');
    await call(caller, 'fixture_change_prompts');
    // One stream, in order: had the tool change been delivered, it would have arrived before this.
    await arrived(promptsOnly, PROMPTS_CHANGED);
    expect(promptsOnly.wire.map((m) => (m as { method?: string }).method)).toEqual([ACKNOWLEDGED, PROMPTS_CHANGED]);
  });

  it('delivers resources/updated only for the URIs in resourceSubscriptions', async () => {
    const watcher = await connect('envelope');
    const caller = await connect('envelope');
    const subscription = await watcher.client.listen({ resourceSubscriptions: [docUri('watched')] });
    expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: [docUri('watched')] });

    await call(caller, 'fixture_update_resource', { uri: docUri('elsewhere') });
    await call(caller, 'fixture_update_resource', { uri: docUri('watched') });
    expect(urisOf(await arrived(watcher, RESOURCE_UPDATED))).toEqual([docUri('watched')]);
  });

  it("reaches listeners from the app's notifier outside any request", async () => {
    const listener = await connect('envelope');
    await listener.client.listen({ toolsListChanged: true, promptsListChanged: true });

    server.notifier.toolsChanged();
    server.notifier.promptsChanged();
    await arrived(listener, PROMPTS_CHANGED);
    expect(notificationsOf(listener.wire, TOOLS_CHANGED)).toHaveLength(1);
  });

  it('reaches listeners from a service that injected NOTIFIER and publishes after the call answered', async () => {
    const listener = await connect('envelope');
    const caller = await connect('envelope');
    await listener.client.listen({ toolsListChanged: true });

    await call(caller, 'fixture_schedule_tools_change');
    const [changed] = await arrived(listener, TOOLS_CHANGED);
    expect(subscriptionIdOf(changed)).toBeDefined();
  });

  it('never carries progress or log lines, which go to the request that produced them', async () => {
    const listen = await openListenStream(server.endpointUrl, {
      toolsListChanged: true,
      promptsListChanged: true,
      resourcesListChanged: true,
    });
    rawStreams.push(listen);
    const ack = await listen.next();
    expect(frameMethod(ack)).toBe(ACKNOWLEDGED);
    expect(ack.id).toBeUndefined();

    const caller = await connect('envelope');
    // onprogress makes the SDK send a progress token.
    await caller.client.callTool(
      { name: 'fixture_run_steps', arguments: { steps: 2 } },
      { onprogress: () => undefined },
    );
    await caller.client.callTool({
      name: 'fixture_log_lines',
      arguments: {},
      _meta: { [LOG_LEVEL_META_KEY]: 'debug' },
    });
    expect(notificationsOf(caller.wire, 'notifications/progress')).toHaveLength(2);
    expect(notificationsOf(caller.wire, 'notifications/message')).toHaveLength(2);

    // The listen stream's next frame is this change: nothing request-scoped reached it in between.
    server.notifier.toolsChanged();
    const next = await listen.next();
    expect(frameMethod(next)).toBe(TOOLS_CHANGED);
    expect(subscriptionIdOf(frameMessage(next))).toBe('listen-1');
  });
});

describe('2025-11-25 live session', () => {
  it('hears list changes on its GET stream, from a tool call and from outside any request', async () => {
    const session = await connect('handshake');
    const caller = await connect('handshake');
    const heard: string[] = [];
    session.client.setNotificationHandler(TOOLS_CHANGED, () => void heard.push('tools'));
    session.client.setNotificationHandler(PROMPTS_CHANGED, () => void heard.push('prompts'));

    await call(caller, 'fixture_change_tools');
    await vi.waitFor(() => expect(heard).toEqual(['tools']));
    server.notifier.promptsChanged();
    await vi.waitFor(() => expect(heard).toEqual(['tools', 'prompts']));
    expect(notificationsOf(session.wire, TOOLS_CHANGED)[0]).not.toHaveProperty('params._meta');
  });

  it('hears resources/updated only for URIs it subscribed to, and not after unsubscribing', async () => {
    const session = await connect('handshake');
    const caller = await connect('handshake');
    const watched = docUri('watched');
    // Each step ends with a tool-list change on the same GET stream: once it has arrived, anything sent before it has.
    let fences = 0;
    const fence = async () => {
      server.notifier.toolsChanged();
      await arrived(session, TOOLS_CHANGED, ++fences);
    };

    await call(caller, 'fixture_update_resource', { uri: watched });
    await fence();
    expect(notificationsOf(session.wire, RESOURCE_UPDATED)).toEqual([]);

    await session.client.subscribeResource({ uri: watched });
    await call(caller, 'fixture_update_resource', { uri: docUri('elsewhere') });
    await call(caller, 'fixture_update_resource', { uri: watched });
    await fence();
    expect(urisOf(notificationsOf(session.wire, RESOURCE_UPDATED))).toEqual([watched]);

    await session.client.unsubscribeResource({ uri: watched });
    server.notifier.resourceUpdated(watched);
    await fence();
    expect(urisOf(notificationsOf(session.wire, RESOURCE_UPDATED))).toEqual([watched]);
    expect(notificationsOf(caller.wire, RESOURCE_UPDATED)).toEqual([]);
  });
});

describe.each(['handshake', 'envelope'] as const)('progress over HTTP (%s era)', (era) => {
  it('sends notifications/progress for each step before the result', async () => {
    const caller = await connect(era);
    const received: Progress[] = [];
    const result = await caller.client.callTool(
      { name: 'fixture_run_steps', arguments: { steps: 3 } },
      { onprogress: (progress) => received.push(progress) },
    );
    expect(result.structuredContent).toEqual({ completed: 3 });

    const progress = notificationsOf(caller.wire, 'notifications/progress');
    const params = progress.map((n) => n.params as Progress & { progressToken: unknown });
    const token = params[0]?.progressToken;
    expect(token).toBeDefined();
    expect(params).toEqual(
      [1, 2, 3].map((step) => ({ progressToken: token, progress: step, total: 3, message: `Step ${step}` })),
    );
    // The client was connected for this call alone, so the one response on its wire is this call's.
    const responseAt = caller.wire.findIndex((m) => 'result' in m);
    expect(caller.wire.indexOf(progress.at(-1) as JSONRPCMessage)).toBeLessThan(responseAt);
    // What reached onprogress is the wire's sequence (the SDK may drop the ones sharing a read with the result).
    expect(received).toEqual(params.slice(0, received.length).map(({ progressToken: _token, ...rest }) => rest));
  });
});

describe('2026-07-28 response stream frames', () => {
  it('carries the progress frames, then the result, with no event ids (the revision dropped resumption)', async () => {
    const frames = await postEnvelope(server.endpointUrl, 'tools/call', {
      name: 'fixture_run_steps',
      arguments: { steps: 2 },
      _meta: { progressToken: 'steps' },
    });
    expect(frames.map(frameMethod)).toEqual(['notifications/progress', 'notifications/progress', '(response)']);
    expect(frames.map((f) => f.id)).toEqual([undefined, undefined, undefined]);
    expect(frames.map((f) => (frameMessage(f) as { params?: { progress?: number } }).params?.progress)).toEqual([
      1,
      2,
      undefined,
    ]);
  });
});

describe('log lines over HTTP', () => {
  const levelsOn = (caller: HttpSdkClient) =>
    notificationsOf(caller.wire, 'notifications/message').map(
      (n) => (n.params as LoggingMessageNotificationParams).level,
    );

  it('2025: follow logging/setLevel, which the session keeps', async () => {
    const caller = await connect('handshake');
    const handled: LoggingMessageNotificationParams[] = [];
    caller.client.setNotificationHandler('notifications/message', (n) => void handled.push(n.params));

    await caller.client.setLoggingLevel('info');
    await call(caller, 'fixture_log_lines');
    expect(levelsOn(caller)).toEqual(['info', 'warning']);
    await vi.waitFor(() => expect(handled).toHaveLength(2));
    expect(handled.map((line) => line.data)).toEqual([
      { step: 'info', message: 'Info line' },
      { step: 'warning', message: 'Warning line' },
    ]);

    await caller.client.setLoggingLevel('warning');
    caller.wire.length = 0;
    await call(caller, 'fixture_log_lines');
    expect(levelsOn(caller)).toEqual(['warning']);
  });

  it('2026-07-28: sent only when the request _meta carries a log level, and only at or above it', async () => {
    const caller = await connect('envelope');
    const callWithLevel = async (level?: string) => {
      caller.wire.length = 0;
      await caller.client.callTool({
        name: 'fixture_log_lines',
        arguments: {},
        ...(level ? { _meta: { [LOG_LEVEL_META_KEY]: level } } : {}),
      });
      return levelsOn(caller);
    };

    expect(await callWithLevel()).toEqual([]);
    expect(await callWithLevel('info')).toEqual(['info', 'warning']);
    expect(await callWithLevel('warning')).toEqual(['warning']);
    expect(await callWithLevel()).toEqual([]);
  });
});
