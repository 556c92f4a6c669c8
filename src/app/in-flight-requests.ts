// Tracks requests being served so shutdown can let them finish (stdin EOF, SIGTERM, and HTTP drain later) instead
// of dropping responses the handlers already paid for.
export class InFlightRequests {
  private readonly pending = new Set<Promise<unknown>>();

  get size(): number {
    return this.pending.size;
  }

  track<T>(work: Promise<T>): Promise<T> {
    this.pending.add(work);
    const forget = () => this.pending.delete(work);
    work.then(forget, forget);
    return work;
  }

  /** Resolves once every tracked request settled, or after `timeoutMs`, whichever comes first. */
  async drained(timeoutMs: number): Promise<boolean> {
    if (this.pending.size === 0) return true;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
      timer.unref();
    });
    const settled = Promise.allSettled([...this.pending]).then(() => true as const);
    try {
      return await Promise.race([settled, timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }
}
