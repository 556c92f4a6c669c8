// Two HTTP instances sharing one change-event bus (the seam a Redis bus plugs into): a change published on one
// instance reaches the other instance's 2026-07-28 listen streams and its live 2025 sessions.
import { InMemoryServerEventBus } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NotesModule } from '../../examples/notes/notes.module.js';
import { type HttpServing, http } from '../../modules/http/index.js';
import { NOTIFIER } from '../../src/index.js';
import { createTestingModule, type TestingApp } from '../../src/testing/index.js';
import { connectHttpClient, notificationsOf } from './helpers/http-sdk-client.js';

const TOOLS_CHANGED = 'notifications/tools/list_changed';
const instances: { app: TestingApp; serving: HttpServing }[] = [];

async function startInstance(bus: InMemoryServerEventBus) {
  const testing = await createTestingModule({ imports: [NotesModule] }).compile({
    env: { MCP_TRANSPORT_TYPE: 'http', MCP_HTTP_PORT: '0', MCP_SESSION_MODE: 'stateful' },
  });
  const serving = await testing.app.serve(http({ bus }));
  instances.push({ app: testing, serving });
  return { app: testing, serving };
}

afterEach(async () => {
  for (const { app, serving } of instances.splice(0)) {
    await serving.close();
    await app.close();
  }
});

describe('a bus shared by two instances', () => {
  it('carries a change published on one instance to both eras on the other', async () => {
    const bus = new InMemoryServerEventBus();
    const publisher = await startInstance(bus);
    const other = await startInstance(bus);
    const handshake = await connectHttpClient(other.serving.endpointUrl, 'handshake');
    const envelope = await connectHttpClient(other.serving.endpointUrl, 'envelope');
    try {
      await handshake.streamOpen;
      await envelope.client.listen({ toolsListChanged: true });

      publisher.app.get(NOTIFIER).toolsChanged();

      await vi.waitFor(() => {
        expect(notificationsOf(handshake.wire, TOOLS_CHANGED)).toHaveLength(1);
        expect(notificationsOf(envelope.wire, TOOLS_CHANGED)).toHaveLength(1);
      });
    } finally {
      await handshake.close();
      await envelope.close();
    }
  });

  it('delivers a change once to a session on the publishing instance itself', async () => {
    const bus = new InMemoryServerEventBus();
    const only = await startInstance(bus);
    const handshake = await connectHttpClient(only.serving.endpointUrl, 'handshake');
    try {
      await handshake.streamOpen;
      only.app.get(NOTIFIER).toolsChanged();
      await vi.waitFor(() => expect(notificationsOf(handshake.wire, TOOLS_CHANGED)).toHaveLength(1));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(notificationsOf(handshake.wire, TOOLS_CHANGED)).toHaveLength(1);
    } finally {
      await handshake.close();
    }
  });
});
