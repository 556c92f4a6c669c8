// The apps the differential tests compare: the diff probes served over HTTP with the fast path on or off, and their
// teardown. Each test adds what its corpus needs (session mode, a requestState key, keep-alive timing).
import { createTestingModule, type TestingApp } from 'mcp-kiln/testing';
import type { HttpServing } from '../../../modules/http/index.js';
import { DiffModule } from './diff-probes.module.js';

export const DIFF_REQUEST_STATE_KEY = 'diff-request-state-key-0123456789abcdefgh';

export function compileDiffApp(name: string, fastPath: 'on' | 'off', env: Record<string, string>): Promise<TestingApp> {
  return createTestingModule({ imports: [DiffModule] }).compile({
    name,
    version: '1.0.0',
    // A server-wide hint for reads, under the per-resource hints of the probes (fast-path-diff.test.ts).
    cacheHints: { 'resources/read': { ttlMs: 5000 } },
    env: {
      MCP_TRANSPORT_TYPE: 'http',
      MCP_HTTP_PORT: '0',
      MCP_HTTP_FAST_PATH: fastPath,
      MCP_LOG_LEVEL: 'error',
      ...env,
    },
  });
}

export async function closeDiffSides(
  sides: Iterable<{ readonly serving?: HttpServing; readonly testing?: TestingApp } | undefined>,
): Promise<void> {
  for (const side of sides) {
    await side?.serving?.close();
    await side?.testing?.close();
  }
}
