// `kiln dev`'s server: the compiled entry run as a child process with the developer's environment and terminal, stopped the way an orchestrator stops it (SIGTERM, then SIGKILL if it is still there after a few seconds).
import { type ChildProcess, spawn } from 'node:child_process';

const STOP_GRACE_MS = 5_000;

export class DevServerProcess {
  readonly #child: ChildProcess;
  readonly exited: Promise<number | null>;

  /** Starts `file`; its output goes to the terminal (the landing page and endpoint lines included). */
  constructor(file: string, env: NodeJS.ProcessEnv) {
    this.#child = spawn(process.execPath, ['--enable-source-maps', file], { env, stdio: 'inherit' });
    this.exited = new Promise((resolve) => this.#child.once('exit', (code) => resolve(code)));
  }

  /** Stops the server and resolves once it has exited (its port free again). */
  async stop(): Promise<void> {
    if (this.#child.exitCode !== null || this.#child.signalCode !== null) return;
    this.#child.kill('SIGTERM');
    const timer = setTimeout(() => this.#child.kill('SIGKILL'), STOP_GRACE_MS);
    await this.exited;
    clearTimeout(timer);
  }
}
