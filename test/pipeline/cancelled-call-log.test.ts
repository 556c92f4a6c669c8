// A call whose client cancelled it is logged as cancelled, at info, when its handler stops with an error because of
// it; the same error from a call nobody cancelled is still an unexpected failure, logged at error with the error.
import { type Context, LOGGER, Module, Tool } from 'mcp-kiln';
import { createTestingModule } from 'mcp-kiln/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createLogger } from '../../src/logging/index.js';
import { captureDestination } from '../logging/capture-destination.js';

@Tool('wait_for_abort', {
  description: 'Waits until its call is cancelled, then stops with the abort reason; fails on its own when told to.',
  input: z.object({ failAtOnce: z.boolean().describe('Throw without waiting') }),
})
class WaitForAbort {
  async handle(input: { failAtOnce: boolean }, ctx: Context): Promise<string> {
    if (input.failAtOnce) throw new Error('the disk is full');
    return new Promise((_resolve, reject) => {
      ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason));
    });
  }
}

@Module({ tools: [WaitForAbort] })
class CancelModule {}

async function run(failAtOnce: boolean) {
  const destination = captureDestination();
  const testing = await createTestingModule({ imports: [CancelModule] })
    .overrideProvider(LOGGER)
    .useValue(createLogger({ level: 'debug', destination }))
    .compile();
  const controller = new AbortController();
  const call = testing.callTool('wait_for_abort', { failAtOnce }, { signal: controller.signal });
  controller.abort(new Error('client disconnected'));
  const result = await call;
  await testing.close();
  const line = destination.lines.find((entry) => String(entry.msg).startsWith('Tool wait_for_abort'));
  return { result, line };
}

describe('a failed call', () => {
  it('is logged at info as cancelled when its client cancelled it', async () => {
    const { result, line } = await run(false);
    expect(result.isError).toBe(true);
    expect(line).toMatchObject({
      level: 'info',
      cancelled: true,
      msg: 'Tool wait_for_abort cancelled (client disconnected)',
    });
    expect(line).not.toHaveProperty('err');
  });

  it('is logged at error, with the error, when it failed on its own', async () => {
    const destination = captureDestination();
    const testing = await createTestingModule({ imports: [CancelModule] })
      .overrideProvider(LOGGER)
      .useValue(createLogger({ level: 'debug', destination }))
      .compile();
    const result = await testing.callTool('wait_for_abort', { failAtOnce: true });
    await testing.close();
    expect(result.isError).toBe(true);
    const line = destination.lines.find((entry) => String(entry.msg).startsWith('Tool wait_for_abort'));
    expect(line).toMatchObject({ level: 'error', msg: 'Tool wait_for_abort failed unexpectedly' });
    expect(line?.err).toMatchObject({ message: 'the disk is full' });
  });
});
