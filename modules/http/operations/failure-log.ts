// Logs every 5xx the MCP endpoint answers, at error level and with its cause. The SDK writes some 500s itself and
// reports the cause only to its onerror callback, far from the response and with no word of which request it was.
// The cause logged with a 5xx is the one reported last while that exchange was open: exact for a lone failure, and
// for failures that overlap in time possibly a neighbour's. (An AsyncLocalStorage slot per exchange would be exact,
// but on Node 20 it turns on async hooks for every promise in the process: about 15% of a 2025 request's CPU.)
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../../../src/index.js';

export class FailureLog {
  /** How many causes were reported so far; an exchange remembers the count it opened at. */
  #reports = 0;
  #latest: { readonly cause: unknown; readonly number: number } | undefined;

  constructor(private readonly logger: Logger) {}

  /** Runs one exchange the host handed to the SDK; if it ends in a 5xx, logs it with the cause reported meanwhile. */
  watch(req: IncomingMessage, res: ServerResponse, work: () => Promise<void>): Promise<void> {
    const openedAt = this.#reports;
    res.on('close', () => {
      if (!res.headersSent || res.statusCode < 500) return;
      const latest = this.#latest;
      this.logger.error(
        {
          err: latest !== undefined && latest.number > openedAt ? latest.cause : undefined,
          method: req.method,
          path: req.url?.split('?')[0],
          status: res.statusCode,
        },
        `MCP request answered HTTP ${res.statusCode}`,
      );
    });
    return work();
  }

  /** An error reported while serving (the SDK's onerror): the cause, should an open exchange end in a 5xx. */
  report(error: unknown): void {
    this.#reports += 1;
    this.#latest = { cause: error, number: this.#reports };
  }
}
