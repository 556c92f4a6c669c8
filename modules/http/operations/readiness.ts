// Readiness (`/readyz`): whether this instance can do its work now. Not draining, the storage backend answering, the
// session registry answering, the change-event bus subscribed. Probes come often (a load balancer every second or
// two, from every balancer), so checks that cost a round trip run at most once per `cacheMs`, however many probes
// arrive, and each has a deadline so a stalled backend answers "not ready" instead of hanging the probe.

/** One named check: resolves when fine, rejects (or times out) with why not. */
export interface ReadinessCheck {
  readonly name: string;
  run(): Promise<void> | void;
}

export interface ReadinessReport {
  readonly ready: boolean;
  /** Each check's outcome: `ok`, or why it failed. */
  readonly checks: Readonly<Record<string, string>>;
}

export interface ReadinessOptions {
  /** How long a report is reused (default 1000 ms). */
  readonly cacheMs?: number;
  /** How long one check may take before it counts as failed (default 1000 ms). */
  readonly timeoutMs?: number;
  readonly now?: () => number;
}

export class Readiness {
  private cached: { at: number; report: Promise<ReadinessReport> } | undefined;
  private readonly cacheMs: number;
  private readonly timeoutMs: number;
  private readonly now: () => number;

  /** `gate` is checked on every probe, never cached: draining shows at once. */
  constructor(
    private readonly gate: ReadinessCheck,
    private readonly checks: readonly ReadinessCheck[],
    options: ReadinessOptions = {},
  ) {
    this.cacheMs = options.cacheMs ?? 1000;
    this.timeoutMs = options.timeoutMs ?? 1000;
    this.now = options.now ?? Date.now;
  }

  async report(): Promise<ReadinessReport> {
    const now = this.now();
    if (!this.cached || now - this.cached.at >= this.cacheMs) {
      this.cached = { at: now, report: this.runChecks() };
    }
    const [gate, cached] = await Promise.all([outcomeOf(this.gate, this.timeoutMs), this.cached.report]);
    const checks = { [this.gate.name]: gate, ...cached.checks };
    return { ready: gate === 'ok' && cached.ready, checks };
  }

  private async runChecks(): Promise<ReadinessReport> {
    const outcomes = await Promise.all(this.checks.map((check) => outcomeOf(check, this.timeoutMs)));
    const checks = Object.fromEntries(this.checks.map((check, index) => [check.name, outcomes[index] as string]));
    return { ready: outcomes.every((outcome) => outcome === 'ok'), checks };
  }
}

async function outcomeOf(check: ReadinessCheck, timeoutMs: number): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${timeoutMs} ms`), timeoutMs);
  });
  const ran = (async () => {
    try {
      await check.run();
      return 'ok';
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  })();
  try {
    return await Promise.race([ran, late]);
  } finally {
    clearTimeout(timer);
  }
}
