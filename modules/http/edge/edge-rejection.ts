// A request Kiln refuses before any protocol server runs, as a thrown value: the HTTP status and the JSON-RPC error
// to answer with. Body parsers and hooks throw it; the one error handler (http-errors.ts) writes it.
import { type JsonRpcErrorObject } from '../../../src/errors/index.js';

export class EdgeRejection extends Error {
  constructor(
    readonly status: number,
    readonly error: JsonRpcErrorObject,
    readonly headers: Readonly<Record<string, string>> = {},
    /** What made a 5xx happen, for the failure log. */
    cause?: unknown,
  ) {
    super(error.message, cause === undefined ? undefined : { cause });
    this.name = 'EdgeRejection';
  }
}
