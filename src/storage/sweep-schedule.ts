// Runs a provider's sweep of expired entries on an interval. The timer is unref'd so it never keeps a process alive,
// a tick that finds the previous sweep still running skips, and a failed sweep is logged rather than left unhandled.
export class SweepSchedule {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly sweep: () => Promise<unknown>,
    private readonly intervalMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Starts the timer unless it runs already, was stopped, or the interval is 0. */
  start(): void {
    if (this.timer || this.stopped || this.intervalMs <= 0) return;
    this.timer = setInterval(() => this.tick(), this.intervalMs);
    this.timer.unref();
  }

  /** Stops the timer for good and waits for a sweep in flight, so nothing touches storage once this resolves. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private tick(): void {
    if (this.running) return;
    this.running = this.sweep()
      .then(
        () => undefined,
        (error: unknown) => this.onError(error),
      )
      .finally(() => {
        this.running = undefined;
      });
  }
}
