// Kiln's error type. It extends the SDK's ProtocolError so a throw from a resource or prompt handler reaches the
// wire as a JSON-RPC error with its own code and data, and tool failures become the `isError` envelope.
import { ProtocolError } from '@modelcontextprotocol/server';

export interface McpErrorData {
  /** A stable machine-readable identifier, matched against a tool's `@Errors` contract. */
  reason?: string;
  /** What the caller should do next; filled from the contract when the reason matches. */
  recovery?: { hint: string };
  [key: string]: unknown;
}

export class McpError extends ProtocolError {
  declare readonly data: McpErrorData | undefined;

  constructor(code: number, message: string, data?: McpErrorData, options?: { cause?: unknown }) {
    super(code, message, data);
    this.name = 'McpError';
    if (options?.cause !== undefined) Object.defineProperty(this, 'cause', { value: options.cause, enumerable: false });
  }

  /** The `data.reason` the error carries, if any. */
  get reason(): string | undefined {
    return typeof this.data?.reason === 'string' ? this.data.reason : undefined;
  }
}

/** True for any error carrying a numeric JSON-RPC code: Kiln's own and the SDK's. */
export function isProtocolError(error: unknown): error is ProtocolError {
  return error instanceof ProtocolError;
}
