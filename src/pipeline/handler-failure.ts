// Resource reads, prompt gets and completions answer failures as JSON-RPC errors (they have no isError result).
// Same classification as tools: protocol errors pass with the contract's hint filled in, anything else is masked.
import type { ErrorContract } from '../../decorators/types.js';
import { McpError } from '../errors/index.js';
import type { Logger } from '../logging/index.js';
import { classifyError } from './error-envelope.js';

export function toProtocolFailure(
  error: unknown,
  options: { requestId: string; contract: ErrorContract; operation: string; logger: Logger },
): McpError {
  const { envelope, unexpected } = classifyError(error, options);
  const fields = { requestId: options.requestId, operation: options.operation, code: envelope.code };
  if (unexpected) options.logger.error({ ...fields, err: error }, `${options.operation} failed unexpectedly`);
  else options.logger.notice({ ...fields, reason: envelope.data.reason }, envelope.message);
  return new McpError(envelope.code, envelope.message, envelope.data);
}
