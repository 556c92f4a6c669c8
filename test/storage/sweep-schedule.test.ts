// The periodic sweep's timer on its own, driven by fake timers: it never keeps the process alive, never runs two
// sweeps at once, reports failures, and stops for good on stop().
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SweepSchedule } from '../../src/storage/sweep-schedule.js';

/** A sweep whose runs stay pending until the test settles them. */
function controlledSweep() {
  const pending: Array<{ resolve: () => void; reject: (error: unknown) => void }> = [];
  const sweep = vi.fn(
    () =>
      new Promise<number>((resolve, reject) => {
        pending.push({ resolve: () => resolve(0), reject });
      }),
  );
  return { sweep, pending };
}

describe('SweepSchedule', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs the sweep once per interval, and not before start()', async () => {
    const sweep = vi.fn(async () => 0);
    const schedule = new SweepSchedule(sweep, 1000, () => {});
    await vi.advanceTimersByTimeAsync(5000);
    expect(sweep).not.toHaveBeenCalled();
    schedule.start();
    schedule.start();
    await vi.advanceTimersByTimeAsync(999);
    expect(sweep).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(sweep).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(2000);
    expect(sweep).toHaveBeenCalledTimes(3);
    await schedule.stop();
  });

  it('skips a tick while the previous sweep is still running', async () => {
    const { sweep, pending } = controlledSweep();
    const schedule = new SweepSchedule(sweep, 1000, () => {});
    schedule.start();
    await vi.advanceTimersByTimeAsync(3000);
    expect(sweep).toHaveBeenCalledTimes(1);
    pending[0]?.resolve();
    await vi.advanceTimersByTimeAsync(1000);
    expect(sweep).toHaveBeenCalledTimes(2);
    pending[1]?.resolve();
    await schedule.stop();
  });

  it('hands a failed sweep to onError and keeps the schedule going', async () => {
    const failure = new Error('disk gone');
    const sweep = vi.fn(async () => {
      throw failure;
    });
    const onError = vi.fn();
    const schedule = new SweepSchedule(sweep, 1000, onError);
    schedule.start();
    await vi.advanceTimersByTimeAsync(2000);
    expect(onError.mock.calls).toEqual([[failure], [failure]]);
    await schedule.stop();
  });

  it('stop() waits for the sweep in flight, and no tick runs afterwards', async () => {
    const { sweep, pending } = controlledSweep();
    const schedule = new SweepSchedule(sweep, 1000, () => {});
    schedule.start();
    await vi.advanceTimersByTimeAsync(1000);
    let stopped = false;
    const stopping = schedule.stop().then(() => {
      stopped = true;
    });
    await Promise.resolve();
    expect(stopped).toBe(false);
    pending[0]?.resolve();
    await stopping;
    schedule.start();
    await vi.advanceTimersByTimeAsync(5000);
    expect(sweep).toHaveBeenCalledTimes(1);
  });

  it('does nothing with an interval of 0', async () => {
    const sweep = vi.fn(async () => 0);
    const schedule = new SweepSchedule(sweep, 0, () => {});
    schedule.start();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sweep).not.toHaveBeenCalled();
    await schedule.stop();
  });
});

describe('SweepSchedule timer', () => {
  it('is unref’d, so an idle server process can still exit', async () => {
    const setIntervalSpy = vi.spyOn(globalThis, 'setInterval');
    const schedule = new SweepSchedule(
      async () => 0,
      60_000,
      () => {},
    );
    try {
      schedule.start();
      const timer = setIntervalSpy.mock.results[0]?.value as NodeJS.Timeout;
      expect(timer.hasRef()).toBe(false);
    } finally {
      await schedule.stop();
      setIntervalSpy.mockRestore();
    }
  });
});
