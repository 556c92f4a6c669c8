// Every failure a handler throws is classified and logged in one place: protocol errors pass with the contract's
// hint filled in and log at notice, anything else is masked on the wire and logged in full at error, unless the call
// had been cancelled: a handler that stops because its signal aborted did what it was asked, logged at info.
// Tools answer with an isError result; resource reads, prompt gets and completions with a JSON-RPC error.
import type { ErrorContract } from '../../decorators/types.js';
import { McpError } from '../errors/mcp-error.js';
import type { Logger } from '../logging/index.js';
import { classifyError, type ErrorEnvelope } from './error-envelope.js';

export interface FailureReport {
  readonly requestId: string;
  readonly contract: ErrorContract;
  /** Names the operation in the masked message (`notes_get_note`, `resource note`). */
  readonly operation: string;
  /** Names it in the log line (`Tool notes_get_note`); defaults to `operation`. */
  readonly label?: string;
  /** How the log line names what failed; defaults to `{ operation }`. */
  readonly subject?: Readonly<Record<string, string>>;
  readonly logger: Logger;
  /** Whether the call's signal had aborted (the client cancelled, or went away) when the handler failed. */
  readonly cancelled?: boolean;
}

/** Classifies and logs a handler failure, returning the envelope the caller sees. */
export function reportFailure(error: unknown, report: FailureReport): ErrorEnvelope {
  const { envelope, unexpected } = classifyError(error, report);
  const fields = {
    requestId: report.requestId,
    ...(report.subject ?? { operation: report.operation }),
    code: envelope.code,
  };
  const label = report.label ?? report.operation;
  if (unexpected && report.cancelled) {
    const why = error instanceof Error ? error.message : String(error);
    report.logger.info({ ...fields, cancelled: true }, `${label} cancelled (${why})`);
  } else if (unexpected) report.logger.error({ ...fields, err: error }, `${label} failed unexpectedly`);
  else report.logger.notice({ ...fields, reason: envelope.data.reason }, envelope.message);
  return envelope;
}

/** The JSON-RPC error for a failed resource read, prompt get or completion. */
export function toProtocolFailure(error: unknown, report: FailureReport): McpError {
  const envelope = reportFailure(error, report);
  return new McpError(envelope.code, envelope.message, envelope.data);
}
