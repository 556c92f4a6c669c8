// A compiled server spawned with child_process and driven by hand-written JSON-RPC lines, for what the SDK client
// hides: the raw stdout bytes and how the process exits.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { assertBuilt, REPO_ROOT } from './built-servers.js';
import type { EraCase } from './eras.js';

export interface RawExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface RawStdioServer {
  readonly child: ChildProcessWithoutNullStreams;
  send(message: Readonly<Record<string, unknown>>): void;
  /** Resolves with the response carrying `id`, parsed. */
  response(id: number): Promise<Record<string, unknown>>;
  /** Every stdout line so far, unparsed (a partial last line excluded). */
  stdoutLines(): string[];
  stderr(): string;
  readonly exited: Promise<RawExit>;
}

export function spawnRawServer(serverPath: string, env: Readonly<Record<string, string>> = {}): RawStdioServer {
  assertBuilt(serverPath);
  const child = spawn(process.execPath, [serverPath], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiters = new Map<number, (message: Record<string, unknown>) => void>();
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    for (const line of completeLines(stdout)) {
      const message = tryParse(line);
      const id = message?.id;
      if (typeof id === 'number' && waiters.has(id)) {
        waiters.get(id)?.(message as Record<string, unknown>);
        waiters.delete(id);
      }
    }
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exited = new Promise<RawExit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return {
    child,
    send: (message) => {
      child.stdin.write(`${JSON.stringify(message)}\n`);
    },
    response: (id) =>
      new Promise((resolve, reject) => {
        const seen = completeLines(stdout)
          .map(tryParse)
          .find((m) => m?.id === id);
        if (seen) return resolve(seen);
        waiters.set(id, resolve);
        void exited.then((exit) => reject(new Error(`Server exited (${JSON.stringify(exit)}) before answering ${id}`)));
      }),
    stdoutLines: () => completeLines(stdout),
    stderr: () => stderr,
    exited,
  };
}

/**
 * The messages that open a connection, written as a client puts them on the wire: the 2025 handshake, or nothing on
 * 2026-07-28, where the first request itself carries the envelope (requestMeta) that selects the era.
 */
export function openingMessages(eraCase: EraCase): Record<string, unknown>[] {
  if (eraCase.era === 'handshake') {
    return [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: eraCase.protocolVersion,
          capabilities: {},
          clientInfo: { name: 'raw-integration', version: '1.0.0' },
        },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
    ];
  }
  return [];
}

/** `params._meta` a request needs in its era: nothing on a 2025 session, the full envelope on 2026-07-28. */
export function requestMeta(eraCase: EraCase): Record<string, unknown> {
  if (eraCase.era === 'handshake') return {};
  return {
    'io.modelcontextprotocol/protocolVersion': eraCase.protocolVersion,
    'io.modelcontextprotocol/clientInfo': { name: 'raw-integration', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
}

function completeLines(text: string): string[] {
  return text.split('\n').slice(0, -1);
}

function tryParse(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
