// SSE resumption of a 2025 session's GET stream over real HTTP (spec 2025-11-25, Streamable HTTP "Resumability"):
// a client that reconnects with Last-Event-ID gets exactly the frames it missed, only from its own session, within
// the retention Kiln is configured for; with resumability off, frames carry no ids and nothing is replayed.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { manualClock } from '../storage/storage-test-helpers.js';
import { docUri } from './helpers/notifying-fixture.js';
import { type NotifyingServer, startNotifyingServer } from './helpers/notifying-server.js';
import { RawHandshakeSession } from './helpers/raw-mcp-http.js';
import { type RecordingEventStores, recordingEventStores } from './helpers/recording-event-stores.js';
import { frameMessage, frameMethod, type SseFrame, type SseStream } from './helpers/sse-frames.js';

const GET_STREAM = '_GET_stream';
const TOOLS_CHANGED = 'notifications/tools/list_changed';
const PROMPTS_CHANGED = 'notifications/prompts/list_changed';
const RESOURCES_CHANGED = 'notifications/resources/list_changed';
const RESOURCE_UPDATED = 'notifications/resources/updated';

let server: NotifyingServer | undefined;
let stores: RecordingEventStores;
const openStreams: SseStream[] = [];

/** `now`: the clock the session event stores age frames on (real time when omitted). */
async function start(env: Record<string, string> = {}, now?: () => number): Promise<NotifyingServer> {
  server = await startNotifyingServer(env, (app) => {
    stores = recordingEventStores({ ...app.config.http.resumability, ...(now ? { now } : {}) });
    return app.config.http.resumability.enabled ? { eventStores: stores.factory } : {};
  });
  return server;
}

async function openSession(running: NotifyingServer): Promise<RawHandshakeSession> {
  return RawHandshakeSession.open(running.endpointUrl);
}

function track(stream: SseStream): SseStream {
  openStreams.push(stream);
  return stream;
}

/** Opens the GET stream and reads the frame `announce` causes, so the client holds an id to resume from. */
async function streamWithOneFrame(session: RawHandshakeSession, announce: () => void) {
  const stream = track(await session.openStream());
  announce();
  const first = await stream.next();
  return { stream, first };
}

/** What the server stored on a session's GET stream after `afterId`, as the client should get it back. */
function storedAfter(session: RawHandshakeSession, afterId: string) {
  const frames = stores.framesOf(session.sessionId).filter((f) => f.streamId === GET_STREAM);
  const from = frames.findIndex((f) => f.id === afterId);
  expect(from).toBeGreaterThanOrEqual(0);
  return frames.slice(from + 1).map((f) => ({ id: f.id, data: JSON.stringify(f.message) }));
}

const asSent = (frames: readonly SseFrame[]) => frames.map((f) => ({ id: f.id, data: f.data }));
const uriOf = (frame: SseFrame) => (frameMessage(frame) as { params?: { uri?: string } }).params?.uri;

afterEach(async () => {
  for (const stream of openStreams.splice(0)) stream.close();
  await server?.close();
  server = undefined;
});

describe('resuming a 2025 GET stream', () => {
  it('replays exactly the frames sent while the client was away, in order, and then carries on live', async () => {
    const running = await start();
    const session = await openSession(running);
    const { stream, first } = await streamWithOneFrame(session, running.notifier.toolsChanged);
    expect(first.id).toBeDefined();
    expect(frameMethod(first)).toBe(TOOLS_CHANGED);

    stream.close();
    running.notifier.resourcesChanged();
    running.notifier.promptsChanged();
    running.notifier.toolsChanged();

    const resumed = track(await session.resumeStream(first.id as string));
    const replayed = await resumed.take(3);
    expect(replayed.map(frameMethod)).toEqual([RESOURCES_CHANGED, PROMPTS_CHANGED, TOOLS_CHANGED]);
    expect(asSent(replayed)).toEqual(storedAfter(session, first.id as string));
    expect(new Set([first.id, ...replayed.map((f) => f.id)]).size).toBe(4);

    // The next frame is the live one: nothing else was replayed after the missed three.
    running.notifier.promptsChanged();
    const live = await resumed.next();
    expect(frameMethod(live)).toBe(PROMPTS_CHANGED);
    expect(live.id).not.toBe(replayed.at(-1)?.id);
  });

  it("never replays another session's frames, though every session's GET stream has the same stream id", async () => {
    const running = await start();
    const alice = await openSession(running);
    const bob = await openSession(running);
    await alice.request('resources/subscribe', { uri: docUri('alice') });
    await bob.request('resources/subscribe', { uri: docUri('bob') });
    const bobStream = track(await bob.openStream());
    const { stream: aliceStream, first } = await streamWithOneFrame(alice, running.notifier.toolsChanged);
    expect(frameMethod(await bobStream.next())).toBe(TOOLS_CHANGED);

    aliceStream.close();
    running.notifier.resourceUpdated(docUri('bob'));
    running.notifier.resourceUpdated(docUri('alice'));
    running.notifier.promptsChanged();
    const bobLive = await bobStream.take(2);
    expect(bobLive.map(frameMethod)).toEqual([RESOURCE_UPDATED, PROMPTS_CHANGED]);
    expect(uriOf(bobLive[0] as SseFrame)).toBe(docUri('bob'));

    const resumed = track(await alice.resumeStream(first.id as string));
    const replayed = await resumed.take(2);
    expect(replayed.map(frameMethod)).toEqual([RESOURCE_UPDATED, PROMPTS_CHANGED]);
    expect(uriOf(replayed[0] as SseFrame)).toBe(docUri('alice'));
    expect(asSent(replayed)).toEqual(storedAfter(alice, first.id as string));

    // Both streams next carry the same live frame: neither got anything of the other's in between.
    running.notifier.resourcesChanged();
    expect(frameMethod(await resumed.next())).toBe(RESOURCES_CHANGED);
    expect(frameMethod(await bobStream.next())).toBe(RESOURCES_CHANGED);
  });

  it('keeps only the newest MCP_HTTP_RESUMABILITY_MAX_EVENTS frames, and resumes from an id already evicted', async () => {
    const running = await start({ MCP_HTTP_RESUMABILITY_MAX_EVENTS: '3' });
    const session = await openSession(running);
    const { stream, first } = await streamWithOneFrame(session, running.notifier.toolsChanged);

    stream.close();
    for (const publish of ['tools', 'prompts', 'resources', 'tools', 'prompts'] as const) {
      running.notifier[`${publish}Changed`]();
    }

    const resumed = track(await session.resumeStream(first.id as string));
    const replayed = await resumed.take(3);
    expect(replayed.map(frameMethod)).toEqual([RESOURCES_CHANGED, TOOLS_CHANGED, PROMPTS_CHANGED]);
    expect(asSent(replayed)).toEqual(storedAfter(session, first.id as string).slice(-3));

    running.notifier.toolsChanged();
    expect(frameMethod(await resumed.next())).toBe(TOOLS_CHANGED);
  });

  it('drops frames older than MCP_HTTP_RESUMABILITY_TTL_MS', async () => {
    const ttlMs = 300;
    const clock = manualClock();
    const running = await start({ MCP_HTTP_RESUMABILITY_TTL_MS: String(ttlMs) }, clock.now);
    const session = await openSession(running);
    const { stream, first } = await streamWithOneFrame(session, running.notifier.toolsChanged);
    const storedOnStream = () => stores.framesOf(session.sessionId).filter((f) => f.streamId === GET_STREAM).length;

    stream.close();
    const before = storedOnStream();
    running.notifier.toolsChanged();
    running.notifier.promptsChanged();
    // Both frames stored at the current instant, then aged past the TTL on the stores' clock.
    await vi.waitFor(() => expect(storedOnStream()).toBe(before + 2));
    clock.advanceMs(ttlMs + 100);
    running.notifier.resourcesChanged();

    const resumed = track(await session.resumeStream(first.id as string));
    const [replayed] = await resumed.take(1);
    expect(frameMethod(replayed as SseFrame)).toBe(RESOURCES_CHANGED);
    expect(asSent([replayed as SseFrame])).toEqual(storedAfter(session, first.id as string).slice(-1));

    running.notifier.promptsChanged();
    expect(frameMethod(await resumed.next())).toBe(PROMPTS_CHANGED);
  });
});

describe('event ids on the wire', () => {
  it('with MCP_HTTP_RESUMABILITY=false: no ids, no priming frame, and nothing replayed on reconnect', async () => {
    const running = await start({ MCP_HTTP_RESUMABILITY: 'false' });
    const session = await openSession(running);
    const response = await session.request('tools/call', {
      name: 'fixture_run_steps',
      arguments: { steps: 2 },
      _meta: { progressToken: 'steps' },
    });
    expect(response.map(frameMethod)).toEqual(['notifications/progress', 'notifications/progress', '(response)']);
    expect(response.map((f) => f.id)).toEqual([undefined, undefined, undefined]);

    const { stream, first } = await streamWithOneFrame(session, running.notifier.toolsChanged);
    expect(first).toMatchObject({ id: undefined });
    stream.close();
    running.notifier.promptsChanged();

    // Without a store the Last-Event-ID header is ignored: the reconnect is a fresh stream that starts live.
    const reopened = track(await session.resumeStream('1__GET_stream'));
    running.notifier.resourcesChanged();
    const next = await reopened.next();
    expect(frameMethod(next)).toBe(RESOURCES_CHANGED);
    expect(next.id).toBeUndefined();
  });

  it('by default: a POST response stream opens with a priming frame and every frame has its own id', async () => {
    const running = await start();
    const session = await openSession(running);
    const response = await session.request('tools/call', {
      name: 'fixture_run_steps',
      arguments: { steps: 2 },
      _meta: { progressToken: 'steps' },
    });
    expect(response[0]).toMatchObject({ data: '' });
    expect(response.slice(1).map(frameMethod)).toEqual([
      'notifications/progress',
      'notifications/progress',
      '(response)',
    ]);
    const ids = response.map((f) => f.id);
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
