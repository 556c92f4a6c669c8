// A 2026-07-28 call refused by a @RateLimit or @Quota goes out with HTTP 429 and Retry-After, whichever path served it
// (the fast path's direct calls, its server, or the SDK's entry), so HTTP clients and proxies can back off without
// reading the JSON-RPC error. 2025 sessions keep 200: their answers travel on the session's streams.

const THROTTLE_REASONS: ReadonlySet<unknown> = new Set(['rate_limited', 'quota_exceeded']);

/** The Retry-After (whole seconds, at least 1) of a JSON-RPC error that refuses a call under a policy. */
export function throttleRetryAfter(error: unknown): string | undefined {
  const data = (error as { data?: { reason?: unknown; retryAfterMs?: unknown } } | undefined)?.data;
  if (!THROTTLE_REASONS.has(data?.reason)) return undefined;
  const ms = typeof data?.retryAfterMs === 'number' && Number.isFinite(data.retryAfterMs) ? data.retryAfterMs : 1000;
  return String(Math.max(1, Math.ceil(ms / 1000)));
}

/** The SDK entry's JSON answer with 429 and Retry-After when it refuses a call under a policy; others unchanged. */
export async function withThrottleStatus(response: Response): Promise<Response> {
  if (response.status !== 200 || !response.headers.get('content-type')?.includes('application/json')) return response;
  const text = await response.text();
  const same = () => new Response(text, { status: response.status, headers: response.headers });
  if (!text.includes('"rate_limited"') && !text.includes('"quota_exceeded"')) return same();
  let retryAfter: string | undefined;
  try {
    retryAfter = throttleRetryAfter((JSON.parse(text) as { error?: unknown }).error);
  } catch {
    return same();
  }
  if (retryAfter === undefined) return same();
  const headers = new Headers(response.headers);
  headers.set('retry-after', retryAfter);
  return new Response(text, { status: 429, headers });
}
