// What the soak adds to the autocannon slice typed in autocannon.d.ts: a sequence of requests each connection cycles
// through, each with its own method, headers and body.
declare module 'autocannon' {
  interface SequencedRequest {
    method?: 'POST' | 'GET';
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }

  interface Options {
    requests?: SequencedRequest[];
  }
}
