// Two hosts in one process sharing an in-memory registry behave as two instances would: a session opened on one is
// rebuilt on the other from its record alone, and a record naming a principal other than the caller's is no
// session for that caller (404), on every instance.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemorySessionRegistry } from '../../modules/http/index.js';
import {
  handshakeToolsList,
  jsonRpcError,
  jsonRpcMessages,
  openRawSession,
  post,
  type RunningServer,
  sessionHeaders,
  startHttpServer,
} from './helpers/http-server.js';
import { sessionRecord } from './session-registry-contract.js';

const registry = new InMemorySessionRegistry();
let opener: RunningServer;
let other: RunningServer;

beforeAll(async () => {
  const env = { MCP_SESSION_MODE: 'stateful' };
  [opener, other] = await Promise.all([startHttpServer(env, { registry }), startHttpServer(env, { registry })]);
});

afterAll(async () => {
  await opener?.close();
  await other?.close();
});

describe('a session recorded by another instance', () => {
  it('is rebuilt from its record and served with the same id', async () => {
    const sessionId = await openRawSession(opener.endpoint);
    const response = await post(
      other.endpoint,
      { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'probe_whoami', arguments: {} } },
      sessionHeaders(sessionId),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBe(sessionId);
    const [answer] = await jsonRpcMessages(response);
    expect(answer).toMatchObject({ id: 7, result: { structuredContent: { sessionId, era: 'handshake' } } });
    expect(other.serving.liveSessions()).toBe(1);
  });

  it('answers 404 to a caller other than the principal the record names', async () => {
    const owned = sessionRecord({ principal: 'user:ada' });
    const unowned = sessionRecord();
    await registry.add(owned);
    await registry.add(unowned);
    for (const server of [opener, other]) {
      const refused = await post(server.endpoint, handshakeToolsList(), sessionHeaders(owned.id));
      expect(refused.status).toBe(404);
      expect((await jsonRpcError(refused)).error.data).toMatchObject({ reason: 'session_not_found' });
      const served = await post(server.endpoint, handshakeToolsList(), sessionHeaders(unowned.id));
      expect(served.status).toBe(200);
      await served.text();
    }
  });

  it('answers 404 for ids no instance issued or recorded', async () => {
    for (const id of [randomUUID(), 'not-a-session', '{tag}:x']) {
      const response = await post(other.endpoint, handshakeToolsList(), sessionHeaders(id));
      expect(response.status).toBe(404);
      await response.text();
    }
  });
});
