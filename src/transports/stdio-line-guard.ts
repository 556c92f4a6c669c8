// Splits stdin into newline-delimited messages and answers what the SDK transport would drop without a word to the
// client: a line that is not JSON (-32700), JSON that is not a JSON-RPC 2.0 message or is a batch (-32600), and a
// line over the length cap (-32600), which would otherwise overflow the SDK's read buffer and close its transport.
import { Transform, type TransformCallback } from 'node:stream';
import { edgeError, type JsonRpcId, jsonRpcErrorResponse } from '../errors/json-rpc-body.js';
import { type KilnReason } from '../errors/reasons.js';
import { jsonRpcShapeProblem } from './jsonrpc-shape.js';

/** Well under the SDK's 10 MiB read buffer, whose overflow closes its transport and leaves the process deaf. */
export const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;

const NEWLINE = 0x0a;
const NEWLINE_BYTES = Buffer.from('\n');

export interface StdinRejection {
  readonly code: number;
  readonly id: JsonRpcId;
  readonly message: string;
  /** The error line to write to stdout. */
  readonly answer: string;
}

export interface StdioLineGuardOptions {
  readonly onRejected: (rejection: StdinRejection) => void;
  /** Sees each well-formed message first; true when it served the message, which then never reaches the SDK. */
  readonly intercept?: (message: unknown) => boolean;
  /** The longest line read, in bytes without its newline; a longer one is answered and skipped. */
  readonly maxLineBytes?: number;
}

export class StdioLineGuard extends Transform {
  readonly maxLineBytes: number;
  private readonly onRejected: (rejection: StdinRejection) => void;
  private readonly intercept: ((message: unknown) => boolean) | undefined;
  // The line so far, kept as the byte ranges it arrived in: each chunk is searched once, the line is joined once at
  // its newline (linear, however many chunks it spans) and decoded whole, so a character split across chunks survives.
  private pieces: Buffer[] = [];
  private pendingBytes = 0;
  /** Set while the rest of a line already answered as too long is dropped, unbuffered, up to its newline. */
  private skipping = false;

  constructor({ onRejected, intercept, maxLineBytes = DEFAULT_MAX_LINE_BYTES }: StdioLineGuardOptions) {
    super();
    if (!Number.isSafeInteger(maxLineBytes) || maxLineBytes < 1) {
      throw new RangeError(`maxLineBytes must be a positive integer (got ${maxLineBytes}).`);
    }
    this.maxLineBytes = maxLineBytes;
    this.onRejected = onRejected;
    this.intercept = intercept;
  }

  /** Passes `message` on to the SDK's transport, as a line read from stdin (a call the interceptor gave back). */
  dispatch(message: unknown): void {
    this.push(Buffer.from(`${JSON.stringify(message)}\n`));
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let start = 0;
    for (let newline = chunk.indexOf(NEWLINE); newline !== -1; newline = chunk.indexOf(NEWLINE, start)) {
      this.collect(chunk.subarray(start, newline));
      this.endLine();
      start = newline + 1;
    }
    this.collect(chunk.subarray(start));
    done();
  }

  override _flush(done: TransformCallback): void {
    this.endLine();
    done();
  }

  private collect(piece: Buffer): void {
    if (this.skipping || piece.length === 0) return;
    if (this.pendingBytes + piece.length > this.maxLineBytes) {
      this.pieces = [];
      this.pendingBytes = 0;
      this.skipping = true;
      this.reject(
        'message_too_large',
        `Invalid Request: the line is longer than this server's limit of ${this.maxLineBytes} bytes, so it was ` +
          'skipped unread. Send smaller messages (split large content across calls), or ask the server operator to ' +
          'raise MCP_STDIO_MAX_LINE_BYTES.',
      );
      return;
    }
    this.pieces.push(piece);
    this.pendingBytes += piece.length;
  }

  private endLine(): void {
    if (this.skipping) {
      this.skipping = false;
      return;
    }
    if (this.pendingBytes === 0) return;
    const line = Buffer.concat(this.pieces, this.pendingBytes);
    this.pieces = [];
    this.pendingBytes = 0;
    this.forward(line);
  }

  private forward(line: Buffer): void {
    const text = line.toString('utf8');
    if (/^\s*$/.test(text)) return;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch (error) {
      const reason = (error as Error).message;
      this.reject(
        'parse_error',
        `Parse error: the line is not valid JSON (${reason}). Send one JSON-RPC message per line.`,
      );
      return;
    }
    const shape = jsonRpcShapeProblem(message);
    if (shape) {
      this.reject('invalid_message', `Invalid Request: ${shape.problem}.`, shape.id);
      return;
    }
    if (this.intercept?.(message)) return;
    this.push(Buffer.concat([line, NEWLINE_BYTES]));
  }

  private reject(reason: KilnReason, message: string, id: JsonRpcId = null): void {
    const error = edgeError(reason, message);
    this.onRejected({ code: error.code, id, message, answer: `${JSON.stringify(jsonRpcErrorResponse(id, error))}\n` });
  }
}
