// A compiled Kiln server as a real process on a free loopback port, for tests that need several instances: it is
// ready once it prints its MCP endpoint, its stderr log lines are kept for assertions, and it is stopped (or killed)
// only through its own ChildProcess.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { trackChild } from './tracked-children.js';

const START_TIMEOUT_MS = 15_000;

export interface KilnProcess {
  readonly pid: number;
  /** `http://127.0.0.1:PORT` */
  readonly origin: string;
  readonly endpoint: string;
  /** Parsed pino lines from stderr, oldest first. */
  readonly logLines: ReadonlyArray<Record<string, unknown>>;
  readonly running: boolean;
  /** SIGKILL, as a crash would. */
  kill(): Promise<void>;
  /** SIGTERM, then SIGKILL if it has not exited in time; resolves with how it exited. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export async function startKilnProcess(script: string, env: Readonly<Record<string, string>>): Promise<KilnProcess> {
  const child = spawn(process.execPath, [script], {
    env: { ...process.env, MCP_TRANSPORT_TYPE: 'http', MCP_HTTP_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  trackChild(child);
  const logLines: Array<Record<string, unknown>> = [];
  let pendingErr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    pendingErr += chunk.toString();
    const lines = pendingErr.split('\n');
    pendingErr = lines.pop() ?? '';
    for (const line of lines) {
      try {
        logLines.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        logLines.push({ msg: line });
      }
    }
  });
  let stdout = '';
  const endpoint = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${script} did not print its endpoint in time:\n${stdout}`)),
      START_TIMEOUT_MS,
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const found = /MCP endpoint: (\S+)/.exec(stdout)?.[1];
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      const log = logLines.map((line) => JSON.stringify(line)).join('\n');
      reject(new Error(`${script} exited with ${code} before listening:\n${stdout}\n${log}`));
    });
  });
  const running = () => child.exitCode === null && child.signalCode === null;
  const end = async (signal: NodeJS.Signals) => {
    if (running()) {
      const exited = once(child, 'exit');
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    return { code: child.exitCode, signal: child.signalCode };
  };
  return {
    pid: child.pid as number,
    origin: new URL(endpoint).origin,
    endpoint,
    logLines,
    get running() {
      return running();
    },
    kill: async () => {
      await end('SIGKILL');
    },
    stop: () => end('SIGTERM'),
  };
}
