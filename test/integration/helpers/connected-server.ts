// An SDK Client connected to a compiled server over real stdio pipes. What the child sends is kept three ways: the
// raw inbound messages, the notifications/message the SDK dispatched, and the process log the child wrote to stderr.
import {
  Client,
  type ClientCapabilities,
  type JSONRPCMessage,
  type LoggingMessageNotificationParams,
} from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { expect, vi } from 'vitest';
import { assertBuilt, REPO_ROOT } from './built-servers.js';
import type { EraCase } from './eras.js';

export interface ConnectedServer {
  readonly client: Client;
  /** notifications/message received since the last clearLogs(). */
  readonly logs: LoggingMessageNotificationParams[];
  clearLogs(): void;
  /** Every message the client received, as it came off the pipe, before the SDK dispatched it. */
  readonly wire: JSONRPCMessage[];
  /** Everything the child wrote to stderr so far. */
  stderr(): string;
  /** The process log so far: one parsed pino line per complete stderr line. */
  processLog(): ProcessLogLine[];
  close(): Promise<void>;
}

export type ProcessLogLine = Readonly<Record<string, unknown>>;

export async function connectServer(
  serverPath: string,
  eraCase: EraCase,
  env: Readonly<Record<string, string>> = {},
  /** What the client declares (2025: at initialize; 2026-07-28: on every request's envelope). */
  capabilities?: ClientCapabilities,
): Promise<ConnectedServer> {
  assertBuilt(serverPath);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [serverPath],
    cwd: REPO_ROOT,
    // The SDK's safe default environment, not the developer's: a stray MCP_LOG_LEVEL must not change results.
    env: { ...getDefaultEnvironment(), ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client(
    { name: 'kiln-integration', version: '1.0.0' },
    capabilities ? { ...eraCase.clientOptions, capabilities } : eraCase.clientOptions,
  );
  const logs: LoggingMessageNotificationParams[] = [];
  client.setNotificationHandler('notifications/message', (notification) => {
    logs.push(notification.params);
  });
  await client.connect(transport);
  const wire: JSONRPCMessage[] = [];
  const dispatch = transport.onmessage;
  transport.onmessage = (...args: Parameters<NonNullable<typeof dispatch>>) => {
    wire.push(args[0]);
    dispatch?.(...args);
  };
  return {
    client,
    logs,
    wire,
    clearLogs: () => {
      logs.length = 0;
    },
    stderr: () => stderr,
    // Only JSON lines are the process log; anything else on stderr (a Node warning) is not Kiln's to assert on.
    processLog: () =>
      stderr
        .split('\n')
        .slice(0, -1)
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as ProcessLogLine),
    close: () => client.close(),
  };
}

/**
 * Waits for the process-log lines `select` picks to reach `count`. stderr is a second pipe, so a line written before
 * the response can still arrive after it; waiting keeps an assertion on the log (or on an absence) from racing.
 */
export async function waitForProcessLog(
  server: ConnectedServer,
  select: (line: ProcessLogLine) => boolean,
  count = 1,
): Promise<ProcessLogLine[]> {
  let selected: ProcessLogLine[] = [];
  await vi.waitFor(
    () => {
      selected = server.processLog().filter(select);
      expect(selected.length).toBeGreaterThanOrEqual(count);
    },
    { timeout: 5_000 },
  );
  return selected;
}
