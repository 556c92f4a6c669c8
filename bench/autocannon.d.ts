// The slice of autocannon's programmatic API the benchmark uses (the package ships no types).
declare module 'autocannon' {
  interface Options {
    url: string;
    method?: 'POST' | 'GET';
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    /** Replaces every `[<id>]` in the body with a fresh id per request. */
    idReplacement?: boolean;
    /** A response whose body fails this counts as a mismatch. */
    verifyBody?: (body: string) => boolean;
  }

  interface Stats {
    average: number;
    total: number;
    p50: number;
    p99: number;
  }

  interface Result {
    requests: Stats;
    latency: Stats;
    throughput: Stats;
    errors: number;
    timeouts: number;
    mismatches: number;
    non2xx: number;
    '2xx': number;
    statusCodeStats: Record<string, { count: number }>;
  }

  export default function autocannon(options: Options): Promise<Result>;
}
