// The fixtures that send notifications while or because they run: log messages, list changes and resource
// subscriptions, checked on both eras through official SDK clients.
import type { Client } from '@modelcontextprotocol/client';
import { createTestingModule, type TestingApp } from 'mcp-kiln/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EverythingModule } from './everything.module.js';

describe('fixtures that notify', () => {
  let app: TestingApp;

  // The process log level gates ctx.log's client mirror too, and the testing module defaults it to 'error'.
  beforeAll(async () => {
    app = await createTestingModule({ imports: [EverythingModule] }).compile({ env: { MCP_LOG_LEVEL: 'info' } });
  });
  afterAll(() => app.close());

  async function collect(client: Client, method: 'notifications/message'): Promise<unknown[]> {
    const seen: unknown[] = [];
    client.setNotificationHandler(method, (notification) => void seen.push(notification.params));
    return seen;
  }

  const TOOL_LOGS = ['Tool execution started', 'Tool processing data', 'Tool execution completed'].map((message) => ({
    level: 'info',
    data: { message },
  }));

  it('sends three info logs during test_tool_with_logging after logging/setLevel (2025)', async () => {
    const client = await app.connectClient({ era: 'handshake' });
    const seen = await collect(client, 'notifications/message');
    await client.setLoggingLevel('debug');
    await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    expect(seen).toEqual(TOOL_LOGS);
  });

  it('logs only for a request whose _meta carries a logLevel (2026-07-28)', async () => {
    const client = await app.connectClient({ era: 'envelope' });
    const seen = await collect(client, 'notifications/message');
    await client.callTool({ name: 'test_logging_tool', arguments: {} });
    await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    expect(seen).toEqual([]);

    await client.callTool({
      name: 'test_tool_with_logging',
      arguments: {},
      _meta: { 'io.modelcontextprotocol/logLevel': 'info' },
    });
    expect(seen).toEqual(TOOL_LOGS);
  });

  it('announces tool and prompt list changes on a 2025 connection', async () => {
    const client = await app.connectClient({ era: 'handshake' });
    const seen: string[] = [];
    client.setNotificationHandler('notifications/tools/list_changed', (n) => void seen.push(n.method));
    client.setNotificationHandler('notifications/prompts/list_changed', (n) => void seen.push(n.method));
    await client.callTool({ name: 'test_trigger_tool_change', arguments: {} });
    await client.callTool({ name: 'test_trigger_prompt_change', arguments: {} });
    await expect.poll(() => seen).toEqual(['notifications/tools/list_changed', 'notifications/prompts/list_changed']);
  });

  it('delivers list changes only to a listen stream that asked for them (2026-07-28)', async () => {
    const client = await app.connectClient({ era: 'envelope' });
    const seen: string[] = [];
    client.setNotificationHandler('notifications/tools/list_changed', (n) => void seen.push(n.method));
    client.setNotificationHandler('notifications/prompts/list_changed', (n) => void seen.push(n.method));
    const subscription = await client.listen({ promptsListChanged: true });
    await client.callTool({ name: 'test_trigger_tool_change', arguments: {} });
    await client.callTool({ name: 'test_trigger_prompt_change', arguments: {} });
    await expect.poll(() => seen).toEqual(['notifications/prompts/list_changed']);
    await subscription.close();
  });

  it('accepts resources/subscribe and resources/unsubscribe for the watched resource (2025)', async () => {
    const client = await app.connectClient({ era: 'handshake' });
    expect(client.getServerCapabilities()?.resources?.subscribe).toBe(true);
    await expect(client.subscribeResource({ uri: 'test://watched-resource' })).resolves.toEqual({});
    await expect(client.unsubscribeResource({ uri: 'test://watched-resource' })).resolves.toEqual({});
  });
});
