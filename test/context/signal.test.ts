// ctx.signal: a caller's abort reaches the running handler through the full pipeline.
import { type Context, Tool } from 'mcp-kiln';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bootApp, closeBootedApps, fixtureModule } from '../di/boot-app.js';

afterEach(closeBootedApps);

const Observed = z.object({
  abortedAtStart: z.boolean().describe('ctx.signal.aborted when the handler began'),
  abortedAtEnd: z.boolean().describe('ctx.signal.aborted when the handler finished'),
});

function slowToolFixture() {
  let markStarted: () => void = () => undefined;
  const started = new Promise<void>((resolve) => {
    markStarted = resolve;
  });
  @Tool('slow_export', {
    description: 'Exports slowly, stopping when cancelled.',
    input: z.object({}),
    output: Observed,
  })
  class SlowExportTool {
    async handle(_input: unknown, ctx: Context) {
      const abortedAtStart = ctx.signal.aborted;
      markStarted();
      // Waits for the abort, with a ceiling so a broken signal fails the assertion instead of hanging the test.
      if (!abortedAtStart) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 2_000);
          ctx.signal.addEventListener('abort', () => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return { abortedAtStart, abortedAtEnd: ctx.signal.aborted };
    }
  }
  return { module: fixtureModule({ tools: [SlowExportTool] }), started };
}

describe('ctx.signal', () => {
  it('shows the handler an abort that happens mid-call', async () => {
    const { module, started } = slowToolFixture();
    const app = await bootApp(module);
    const controller = new AbortController();
    const call = app.callTool('slow_export', {}, { signal: controller.signal });
    await started;
    controller.abort();
    expect((await call).structuredContent).toEqual({ abortedAtStart: false, abortedAtEnd: true });
  });

  it('shows the handler a signal the caller aborted before the call', async () => {
    const { module } = slowToolFixture();
    const app = await bootApp(module);
    const result = await app.callTool('slow_export', {}, { signal: AbortSignal.abort() });
    expect(result.structuredContent).toEqual({ abortedAtStart: true, abortedAtEnd: true });
  });
});
