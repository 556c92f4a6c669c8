// Splits stdin into newline-delimited messages and answers a line that is not JSON with a JSON-RPC parse error
// (id null), as JSON-RPC 2.0 requires; the SDK transport would otherwise drop it without a word to the client.
import { Transform, type TransformCallback } from 'node:stream';

export class StdioLineGuard extends Transform {
  private pending = '';

  constructor(private readonly onMalformed: (reason: string) => void) {
    super();
  }

  override _transform(chunk: Buffer | string, _encoding: BufferEncoding, done: TransformCallback): void {
    this.pending += chunk.toString();
    let newline = this.pending.indexOf('\n');
    while (newline !== -1) {
      this.forward(this.pending.slice(0, newline));
      this.pending = this.pending.slice(newline + 1);
      newline = this.pending.indexOf('\n');
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    if (this.pending.trim() !== '') this.forward(this.pending);
    this.pending = '';
    done();
  }

  private forward(line: string): void {
    if (line.trim() === '') return;
    try {
      JSON.parse(line);
    } catch (error) {
      this.onMalformed((error as Error).message);
      return;
    }
    this.push(`${line}\n`);
  }
}

/** The JSON-RPC 2.0 answer to a message that could not be parsed. */
export function parseErrorLine(reason: string): string {
  const error = {
    code: -32700,
    message: `Parse error: the line is not valid JSON (${reason}). Send one JSON-RPC message per line.`,
  };
  return `${JSON.stringify({ jsonrpc: '2.0', id: null, error })}\n`;
}
