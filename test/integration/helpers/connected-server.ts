// An SDK Client connected to a compiled server over real stdio pipes: the child's stderr (the process log) and the
// notifications/message it sends are collected so tests can assert on both.
import { Client, type JSONRPCMessage, type LoggingMessageNotificationParams } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
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
  close(): Promise<void>;
}

export async function connectServer(
  serverPath: string,
  eraCase: EraCase,
  env: Readonly<Record<string, string>> = {},
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
  const client = new Client({ name: 'kiln-integration', version: '1.0.0' }, eraCase.clientOptions);
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
    close: () => client.close(),
  };
}
