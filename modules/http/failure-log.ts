// Logs every 5xx the MCP endpoint answers, at error level and with its cause. The SDK writes some 500s itself and
// reports the cause only to its onerror callback, far from the response: an AsyncLocalStorage slot per exchange
// carries the cause to where the status is known, so no 500 goes out unlogged.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../../src/index.js';

interface Exchange {
  cause?: unknown;
}

export class FailureLog {
  private readonly exchanges = new AsyncLocalStorage<Exchange>();

  constructor(private readonly logger: Logger) {}

  /** Runs one exchange the host handed to the SDK; if it ends in a 5xx, logs it with the last cause reported. */
  watch(req: IncomingMessage, res: ServerResponse, work: () => Promise<void>): Promise<void> {
    const exchange: Exchange = {};
    res.once('close', () => {
      if (!res.headersSent || res.statusCode < 500) return;
      this.logger.error(
        { err: exchange.cause, method: req.method, path: req.url?.split('?')[0], status: res.statusCode },
        `MCP request answered HTTP ${res.statusCode}`,
      );
    });
    return this.exchanges.run(exchange, work);
  }

  /** An error reported during the current exchange (the SDK's onerror): the cause, should it end in a 5xx. */
  report(error: unknown): void {
    const exchange = this.exchanges.getStore();
    if (exchange) exchange.cause = error;
  }
}
