// How a call ended, in the terms spans, metrics and the audit trail report it: ok, a tool error (an isError result),
// a JSON-RPC error, or an input round; with the error's type, code and reason.
import { isInputRequiredResult } from '@modelcontextprotocol/server';
import { isProtocolError } from '../errors/mcp-error.js';
import type { Outcome } from '../telemetry/semantic-names.js';

/** How an operation ended, as spans, metrics and the audit trail report it. */
export interface Ending {
  readonly outcome: Outcome;
  readonly errorType?: string;
  readonly statusCode?: string;
  readonly reason?: string;
  readonly message?: string;
}

/** A tool's failure is a result (`isError`), not a JSON-RPC error: the conventions call it `tool_error`. */
export function resultEnding(result: unknown): Ending {
  if (isInputRequiredResult(result)) return { outcome: 'input_required' };
  const toolResult = result as { isError?: unknown; structuredContent?: { error?: unknown } } | undefined;
  if (toolResult?.isError !== true) return { outcome: 'ok' };
  const envelope = toolResult.structuredContent?.error as
    | { message?: unknown; data?: { reason?: unknown } }
    | undefined;
  return {
    outcome: 'tool_error',
    errorType: 'tool_error',
    reason: typeof envelope?.data?.reason === 'string' ? envelope.data.reason : undefined,
    message: typeof envelope?.message === 'string' ? envelope.message : undefined,
  };
}

export function failureEnding(error: unknown): Ending {
  if (isProtocolError(error)) {
    const reason = (error.data as { reason?: unknown } | undefined)?.reason;
    return {
      outcome: 'error',
      errorType: String(error.code),
      statusCode: String(error.code),
      reason: typeof reason === 'string' ? reason : undefined,
      message: error.message,
    };
  }
  return {
    outcome: 'error',
    errorType: error instanceof Error ? error.name : '_OTHER',
    message: error instanceof Error ? error.message : undefined,
  };
}
