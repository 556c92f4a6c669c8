// The notes server as a child process, driven a message at a time: each message's bytes are followed by a ping
// whose answer marks where the message's own answers end (the line guard answers in order, before the ping).
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { assertBuilt, NOTES_SERVER, REPO_ROOT } from '../integration/helpers/built-servers.js';
import type { Era } from './jsonrpc-grammar.js';
import type { WireAnswer } from './wire-expectations.js';

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'kiln-fuzz', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

export class StdioWire {
  /** Complete stdout lines, kept here as they arrive: re-splitting the whole stdout per check would be quadratic. */
  private readonly lines: string[] = [];
  private partial = '';
  private read = 0;
  private markers = 0;
  private wake: () => void = () => undefined;
  private stderr = '';
  private readonly exited: Promise<void>;

  private constructor(
    readonly era: Era,
    readonly child: ChildProcessWithoutNullStreams,
  ) {
    // Not the integration suite's RawStdioServer: it re-splits all of stdout on every chunk, which a long fuzz run
    // turns quadratic.
    // Decoded by the stream, so a character split across two chunks survives.
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      const parts = (this.partial + chunk).split('\n');
      this.partial = parts.pop() ?? '';
      this.lines.push(...parts);
      this.wake();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-4_000);
    });
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    void this.exited.then(() => this.wake());
  }

  /** Spawns the built notes server and opens the era's exchange: the 2025 handshake, or a first enveloped request. */
  static async open(era: Era): Promise<StdioWire> {
    assertBuilt(NOTES_SERVER);
    const child = spawn(process.execPath, [NOTES_SERVER], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', MCP_LOG_LEVEL: 'error' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const wire = new StdioWire(era, child);
    if (era === 'handshake') {
      const initialize = {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'kiln-fuzz', version: '1.0.0' },
      };
      wire.write(JSON.stringify({ jsonrpc: '2.0', id: 'open', method: 'initialize', params: initialize }));
      await wire.answerTo('open');
      wire.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    }
    await wire.exchange(Buffer.alloc(0), []);
    return wire;
  }

  /**
   * Writes `bytes` and a line break, then the marker ping; resolves with every message written in answer before the
   * marker's response, and any answer to `owedIds` that arrives after it (a handler may still have been running).
   */
  async exchange(bytes: Buffer, owedIds: readonly (string | number)[], timeoutMs = 10_000): Promise<WireAnswer[]> {
    const marker = `kiln-fuzz-marker-${++this.markers}`;
    this.child.stdin.write(Buffer.concat([bytes, Buffer.from('\n')]));
    this.write(this.request(marker, 'ping').toString('utf8'));
    const deadline = Date.now() + timeoutMs;
    const answers = (): WireAnswer[] => this.linesFrom(this.read).map((line) => JSON.parse(line) as WireAnswer);
    await this.until(() => answers().some((answer) => answer.id === marker), deadline, `the marker ${marker}`);
    await this.until(
      () => owedIds.every((id) => answers().some((answer) => answer.id === id)),
      deadline,
      `answers to ${JSON.stringify(owedIds)}`,
    ).catch(() => undefined);
    const seen = answers();
    this.read += seen.length;
    return seen.filter((answer) => answer.id !== marker);
  }

  /** Every stdout line from index `from`, unparsed. */
  linesFrom(from: number): string[] {
    return this.lines.slice(from);
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  async close(): Promise<void> {
    if (!this.alive) return;
    this.child.stdin.end();
    await this.exited;
  }

  /** A request shaped for this connection's era (the envelope in `_meta` on 2026-07-28), as one line's bytes. */
  request(id: string, method: string): Buffer {
    const params = this.era === 'envelope' ? { params: { _meta: ENVELOPE } } : {};
    return Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, method, ...params }));
  }

  private write(line: string): void {
    this.child.stdin.write(`${line}\n`);
  }

  private async answerTo(id: string): Promise<void> {
    await this.until(
      () => this.linesFrom(this.read).some((line) => line.includes(`"id":"${id}"`)),
      Date.now() + 10_000,
      id,
    );
    this.read = this.lines.length;
  }

  private async until(done: () => boolean, deadline: number, what: string): Promise<void> {
    while (!done()) {
      if (!this.alive) throw new Error(`The server exited while waiting for ${what}: ${this.stderr}`);
      if (Date.now() > deadline) throw new Error(`No answer with ${what} in time.`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()) + 1);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }
}
