// StdioLineGuard driven as a real stream: valid lines pass unchanged however stdin chunks them (characters split across
// chunks included), and every line the SDK would drop or choke on is answered with one JSON-RPC error line instead.
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { type StdinRejection, StdioLineGuard } from '../../src/transports/stdio-line-guard.js';

interface GuardRun {
  /** What the guard passed on, split into lines. */
  readonly lines: string[];
  /** How many chunks it passed on: one per line, so the SDK never buffers more than one. */
  readonly chunks: number;
  readonly rejections: StdinRejection[];
}

async function feed(chunks: readonly (Buffer | string)[], maxLineBytes?: number): Promise<GuardRun> {
  const rejections: StdinRejection[] = [];
  const guard = new StdioLineGuard({ onRejected: (rejection) => rejections.push(rejection), maxLineBytes });
  const out: Buffer[] = [];
  guard.on('data', (chunk: Buffer) => out.push(chunk));
  const ended = once(guard, 'end');
  for (const chunk of chunks) guard.write(chunk);
  guard.end();
  await ended;
  return { lines: Buffer.concat(out).toString('utf8').split('\n').slice(0, -1), chunks: out.length, rejections };
}

function inPieces(bytes: Buffer, size: number): Buffer[] {
  const pieces: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; offset += size) pieces.push(bytes.subarray(offset, offset + size));
  return pieces;
}

const request = (id: number, params: Record<string, unknown> = {}) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params });

describe('StdioLineGuard', () => {
  it('passes valid messages on unchanged, one chunk per line, however the input is chunked', async () => {
    const text = `${request(1)}\n\n  \n${request(2, { a: 'b' })}\r\n${JSON.stringify({ jsonrpc: '2.0', method: 'n' })}`;
    const run = await feed(inPieces(Buffer.from(text), 1));
    expect(run.lines).toEqual([
      request(1),
      `${request(2, { a: 'b' })}\r`,
      JSON.stringify({ jsonrpc: '2.0', method: 'n' }),
    ]);
    expect(run.chunks).toBe(3);
    expect(run.rejections).toEqual([]);
  });

  it('keeps multi-byte characters whole when a chunk boundary falls inside one', async () => {
    const line = request(1, { body: '€é𝄞'.repeat(5) });
    for (const size of [1, 2, 3, 5, 7]) {
      const run = await feed(inPieces(Buffer.from(`${line}\n`), size));
      expect(run.lines).toEqual([line]);
    }
  });

  it('keeps a note of 120,000 "€" intact through 64 KiB chunks', async () => {
    const body = '€'.repeat(120_000);
    const run = await feed(inPieces(Buffer.from(`${request(1, { body })}\n`), 64 * 1024));
    const forwarded = JSON.parse(run.lines[0] ?? '') as { params: { body: string } };
    expect(forwarded.params.body).toBe(body);
    expect(run.lines[0]).not.toContain('\uFFFD');
  });

  it('passes a 3 MB line split into 3,000 chunks on whole, as a single chunk', async () => {
    const line = request(1, { body: 'x'.repeat(3_000_000) });
    const run = await feed(inPieces(Buffer.from(`${line}\n${request(2)}\n`), 1024));
    expect(run.lines).toEqual([line, request(2)]);
    expect(run.chunks).toBe(2);
  });

  it('answers a line over the cap once with -32600 (id null), skips the rest of it and reads the next line', async () => {
    const long = request(1, { body: 'x'.repeat(5000) });
    const run = await feed([...inPieces(Buffer.from(`${long}\n`), 100), `${request(2)}\n`], 1024);
    expect(run.lines).toEqual([request(2)]);
    expect(run.rejections).toHaveLength(1);
    expect(run.rejections[0]).toMatchObject({ code: -32600, id: null });
    expect(run.rejections[0]?.message).toContain('limit of 1024 bytes');
    expect(run.rejections[0]?.message).toContain('MCP_STDIO_MAX_LINE_BYTES');
  });

  it('reads a line of exactly the cap, newline and carriage return aside', async () => {
    const line = request(1, { body: '' });
    const padded = request(1, { body: 'x'.repeat(1024 - line.length) });
    expect(Buffer.byteLength(padded)).toBe(1024);
    expect((await feed([`${padded}\n`], 1024)).lines).toEqual([padded]);
    expect((await feed([`${padded}x\n`], 1024)).rejections).toHaveLength(1);
  });

  it('answers an over-long last line that never ends once, however many chunks it spans', async () => {
    const run = await feed(inPieces(Buffer.from('x'.repeat(50_000)), 1000), 1024);
    expect(run.rejections).toHaveLength(1);
    expect(run.lines).toEqual([]);
  });

  it('answers a line that is not JSON with -32700 and id null', async () => {
    const run = await feed(['{this is not json\n', `${request(3)}\n`]);
    expect(run.lines).toEqual([request(3)]);
    expect(run.rejections).toEqual([
      expect.objectContaining({ code: -32700, id: null, message: expect.stringContaining('not valid JSON') }),
    ]);
  });

  it('answers JSON that is not a JSON-RPC message with -32600 and its id, as one line of JSON', async () => {
    const run = await feed([`${JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'x', params: [1] })}\n`]);
    expect(run.lines).toEqual([]);
    const [rejection] = run.rejections;
    expect(rejection).toMatchObject({ code: -32600, id: 9 });
    expect(rejection?.answer.endsWith('\n')).toBe(true);
    expect(rejection?.answer.slice(0, -1)).not.toContain('\n');
    expect(JSON.parse(rejection?.answer ?? '')).toEqual({
      jsonrpc: '2.0',
      id: 9,
      error: {
        code: -32600,
        message: expect.stringMatching(/^Invalid Request: "params" is an array/),
        data: { reason: 'invalid_message', recovery: { hint: expect.any(String) } },
      },
    });
  });

  it('answers a batch with one -32600 error, id null', async () => {
    const batch = JSON.stringify([JSON.parse(request(1)), JSON.parse(request(2))]);
    const run = await feed([`${batch}\n`]);
    expect(run.lines).toEqual([]);
    expect(run.rejections).toEqual([
      expect.objectContaining({ code: -32600, id: null, message: expect.stringContaining('batches') }),
    ]);
  });

  it('refuses a cap that is not a positive integer', () => {
    expect(() => new StdioLineGuard({ onRejected: () => undefined, maxLineBytes: 0 })).toThrow(RangeError);
  });
});
