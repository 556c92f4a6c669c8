// The server under soak: the notes example on Kiln's HTTP host (2025 sessions enabled), in its own child process so
// its RSS is its own and the load generator never shares its heap or event loop.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

export interface SoakServer {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly endpointUrl: string;
  /** The /healthz endpoint, beside the MCP endpoint. */
  readonly healthUrl: string;
  stop(): Promise<void>;
}

export async function startSoakServer(): Promise<SoakServer> {
  const entry = fileURLToPath(new URL('./serve-one.js', import.meta.url));
  const child = spawn(process.execPath, [entry, 'kiln-stateful'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = (await Promise.race([
    once(child.stdout!.setEncoding('utf8'), 'data'),
    once(child, 'exit').then(([code]) => {
      throw new Error(`The notes server exited with code ${code} before listening.`);
    }),
  ])) as [string];
  const { endpointUrl } = JSON.parse(line.split('\n')[0]!) as { endpointUrl: string };
  return {
    child,
    pid: child.pid!,
    endpointUrl,
    healthUrl: new URL('/healthz', endpointUrl).href,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}
