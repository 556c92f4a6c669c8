// Turns anything a handler threw into the wire envelope `{ code, message, data: { reason?, recovery?, requestId } }`.
// Known protocol errors keep their code and message; the contract's hint fills in when the reason matches and the
// throw site gave none. Anything else is masked: the caller gets a requestId, the log gets the detail.
import type { ErrorContract } from '../../decorators/types.js';
import { findEntry } from '../context/error-contract.js';
import { JsonRpcErrorCode } from '../errors/json-rpc-error-code.js';
import { isProtocolError } from '../errors/mcp-error.js';

export interface ErrorEnvelope {
  readonly code: number;
  readonly message: string;
  readonly data: {
    readonly reason?: string;
    readonly recovery?: { readonly hint: string };
    readonly requestId: string;
    readonly [key: string]: unknown;
  };
}

export interface ClassifiedError {
  readonly envelope: ErrorEnvelope;
  /** True when the error was not a protocol error: its message stays in the log, never on the wire. */
  readonly unexpected: boolean;
}

export function classifyError(
  error: unknown,
  options: { readonly requestId: string; readonly contract: ErrorContract; readonly operation: string },
): ClassifiedError {
  const { requestId, contract, operation } = options;
  if (!isProtocolError(error)) {
    return {
      unexpected: true,
      envelope: {
        code: JsonRpcErrorCode.InternalError,
        message: `An unexpected error occurred in ${operation}. It was logged with request id ${requestId}.`,
        data: {
          requestId,
          recovery: { hint: `Retry once; if it fails again, report request id ${requestId} to the server operator.` },
        },
      },
    };
  }
  const data = isRecord(error.data) ? error.data : {};
  const reason = typeof data.reason === 'string' ? data.reason : undefined;
  const contractHint = findEntry(contract, reason)?.recovery;
  const recovery =
    isRecord(data.recovery) && typeof data.recovery.hint === 'string' ? { hint: data.recovery.hint } : undefined;
  return {
    unexpected: false,
    envelope: {
      code: error.code,
      message: error.message,
      data: {
        ...data,
        ...(reason !== undefined ? { reason } : {}),
        ...(recovery ? { recovery } : contractHint ? { recovery: { hint: contractHint } } : {}),
        requestId,
      },
    },
  };
}

/** The envelope as markdown, so content[] carries the same facts as structuredContent.error. */
export function renderErrorEnvelope(envelope: ErrorEnvelope): string {
  const lines = [`Error ${envelope.code}: ${envelope.message}`];
  if (envelope.data.reason) lines.push(`**Reason:** ${envelope.data.reason}`);
  if (envelope.data.recovery) lines.push(`**Recovery:** ${envelope.data.recovery.hint}`);
  lines.push(`**Request id:** ${envelope.data.requestId}`);
  return lines.join('\n');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
