// One warning per outage for work that must not fail its caller (storing an SSE frame, publishing a change event):
// the first failure is logged, the rest are not until the work succeeds again, which is logged once as well.
import type { Logger } from '../../src/index.js';

export class OutageWarning {
  private failing = false;

  constructor(
    private readonly logger: Logger | undefined,
    private readonly failedMessage: string,
    /** Logged at info when the work succeeds after a failure; none when the caller reports recovery itself. */
    private readonly recoveredMessage?: string,
  ) {}

  failed(error: unknown): void {
    if (this.failing) return;
    this.failing = true;
    this.logger?.warning({ err: error }, this.failedMessage);
  }

  succeeded(): void {
    if (!this.failing) return;
    this.failing = false;
    if (this.recoveredMessage !== undefined) this.logger?.info(this.recoveredMessage);
  }
}
