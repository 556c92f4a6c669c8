// ctx.log and ctx.progress as a client receives them over real stdio: logging follows each era's rules
// (logging/setLevel on a 2025 session, the request's `_meta` log level on 2026-07-28), every line arrives with the
// sensitive field masked, and progress reaches the caller that asked for it.
import type { JSONRPCMessage, JSONRPCNotification, LoggingLevel, Progress } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API_KEY } from './fixtures/pipeline/fixture-values.js';
import { PIPELINE_FIXTURE } from './helpers/built-servers.js';
import {
  type ConnectedServer,
  connectServer,
  type ProcessLogLine,
  waitForProcessLog,
} from './helpers/connected-server.js';
import { ERAS, LOG_LEVEL_META } from './helpers/eras.js';
import { structured } from './helpers/tool-results.js';

const TOPIC = 'ledger sync';
const REDACTED = '[REDACTED]';

/** What fixture_log_levels sends, one entry per level, once masked. */
const EVERY_LEVEL = [
  { level: 'debug', data: { topic: TOPIC, apiKey: REDACTED, message: 'Debug line' } },
  { level: 'info', data: { topic: TOPIC, apiKey: REDACTED, message: 'Info line' } },
  {
    level: 'notice',
    data: { topic: TOPIC, upstream: { host: 'ledger.internal', apiKey: REDACTED }, message: 'Notice line' },
  },
  { level: 'warning', data: { topic: TOPIC, apiKey: REDACTED, message: 'Warning line' } },
  {
    level: 'error',
    data: { topic: TOPIC, apiKey: REDACTED, message: 'Error line', error: 'Upstream refused the call' },
  },
];
const atOrAbove = (floor: LoggingLevel) => EVERY_LEVEL.slice(EVERY_LEVEL.findIndex((e) => e.level === floor));

const isNotification =
  (method: string) =>
  (message: JSONRPCMessage): message is JSONRPCNotification =>
    'method' in message && !('id' in message) && message.method === method;

describe.each(ERAS)('notifications ($era era)', (eraCase) => {
  let server: ConnectedServer;

  const callLogLevels = (meta?: Record<string, unknown>) =>
    server.client.callTool({
      name: 'fixture_log_levels',
      arguments: { topic: TOPIC },
      ...(meta ? { _meta: meta } : {}),
    });

  const isLastLogLine = (line: ProcessLogLine) => line.msg === 'Error line';

  beforeAll(async () => {
    server = await connectServer(PIPELINE_FIXTURE, eraCase, { MCP_LOG_LEVEL: 'debug' });
  });
  beforeEach(() => {
    server.clearLogs();
    server.wire.length = 0;
  });
  afterAll(() => server?.close());

  if (eraCase.era === 'handshake') {
    it('delivers every level, masked, once the client sets the level to debug', async () => {
      await server.client.setLoggingLevel('debug');
      expect(structured(await callLogLevels())).toEqual({ logged: 5 });
      expect(server.logs).toEqual(EVERY_LEVEL);
      expect(JSON.stringify(server.logs)).not.toContain(API_KEY);
    });

    it('drops the levels below the one logging/setLevel chose', async () => {
      await server.client.setLoggingLevel('warning');
      await callLogLevels();
      expect(server.logs).toEqual(atOrAbove('warning'));
    });
  } else {
    it('sends no notifications/message when the request carries no log level', async () => {
      const before = server.processLog().filter(isLastLogLine).length;
      expect(structured(await callLogLevels())).toEqual({ logged: 5 });
      // The handler did log: the absence below is the era's rule, not a call that never reached ctx.log.
      await waitForProcessLog(server, isLastLogLine, before + 1);
      expect(server.logs).toEqual([]);
      expect(server.wire.filter(isNotification('notifications/message'))).toEqual([]);
    });

    it('delivers every level, masked, when the request _meta asks for debug', async () => {
      await callLogLevels({ [LOG_LEVEL_META]: 'debug' });
      expect(server.logs).toEqual(EVERY_LEVEL);
      expect(JSON.stringify(server.logs)).not.toContain(API_KEY);
    });

    it('delivers only the levels at or above the request _meta log level', async () => {
      await callLogLevels({ [LOG_LEVEL_META]: 'warning' });
      expect(server.logs).toEqual(atOrAbove('warning'));
    });
  }

  it('masks the API key in the process log too', async () => {
    const before = server.processLog().filter(isLastLogLine).length;
    await callLogLevels();
    const [line] = (await waitForProcessLog(server, isLastLogLine, before + 1)).slice(-1);
    expect(line).toMatchObject({ level: 'error', topic: TOPIC, apiKey: REDACTED, error: 'Upstream refused the call' });
    expect(server.stderr()).not.toContain(API_KEY);
  });

  it('sends notifications/progress for each step, before the response, when the call carries a token', async () => {
    const received: Progress[] = [];
    const result = await server.client.callTool(
      { name: 'fixture_run_steps', arguments: { steps: 3 } },
      { onprogress: (progress) => received.push(progress) },
    );
    expect(structured(result)).toEqual({ completed: 3 });

    const onWire = server.wire.filter(isNotification('notifications/progress'));
    const params = onWire.map((n) => n.params as Progress & { progressToken: string | number });
    const token = params[0]?.progressToken;
    expect(token).toBeDefined();
    expect(params).toEqual(
      [1, 2, 3].map((step) => ({ progressToken: token, progress: step, total: 3, message: `Step ${step} of 3` })),
    );
    // The wire was cleared before this test, so the one result on it is this call's.
    const responseAt = server.wire.findIndex((m) => 'result' in m);
    expect(responseAt).toBeGreaterThan(server.wire.indexOf(onWire.at(-1) as JSONRPCMessage));
    // SDK 2.4.0 dispatches notifications a microtask late but responses at once, and drops the progress callback with
    // the response: notifications that share a read with the response never reach onprogress. What does arrive is
    // the wire's sequence, in order.
    expect(received).toEqual(params.slice(0, received.length).map(({ progressToken: _token, ...rest }) => rest));
  });

  it('sends no progress when the call carries no progress token', async () => {
    expect(structured(await server.client.callTool({ name: 'fixture_run_steps', arguments: { steps: 2 } }))).toEqual({
      completed: 2,
    });
    expect(server.wire.filter(isNotification('notifications/progress'))).toEqual([]);
  });
});
