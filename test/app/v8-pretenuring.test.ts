// Which way applyV8Pretenuring goes, as its log line says; where V8 then allocates is checked in a real process by
// test/integration/v8-pretenuring.test.ts.
import { describe, expect, it, vi } from 'vitest';
import { applyV8Pretenuring } from '../../src/app/v8-pretenuring.js';
import { v8FlagsSet } from '../../src/loading/v8-flags.js';
import type { Logger } from '../../src/logging/index.js';
import { freshV8FlagsRecord } from '../support/v8-flags-record.js';

function spyLogger() {
  const debug = vi.fn();
  return { logger: { debug } as unknown as Logger, debug };
}

describe('applyV8Pretenuring', () => {
  // Each test starts from a process whose runtime has set no V8 flag yet.
  freshV8FlagsRecord();

  it('turns pretenuring off when set off and the node command line does not name the flag', () => {
    const { logger, debug } = spyLogger();
    applyV8Pretenuring('off', logger, ['--enable-source-maps', '--max-old-space-size=512']);
    expect(debug).toHaveBeenCalledWith(expect.stringContaining('turned off for this process'));
  });

  it('leaves it to NODE_OPTIONS or execArgv when either names the flag', () => {
    for (const flags of [
      ['--no-allocation-site-pretenuring'],
      ['--max-old-space-size=512 --allocation-site-pretenuring'],
    ]) {
      const { logger, debug } = spyLogger();
      applyV8Pretenuring('off', logger, flags);
      expect(debug).toHaveBeenCalledWith(expect.stringContaining('left alone'));
    }
  });

  it('turns it off once per process: a second app to serve finds it off', () => {
    const first = spyLogger();
    applyV8Pretenuring('off', first.logger, []);
    const second = spyLogger();
    applyV8Pretenuring('off', second.logger, []);
    expect(first.debug).toHaveBeenCalledWith(expect.stringContaining('turned off for this process'));
    expect(second.debug).not.toHaveBeenCalled();
    expect(v8FlagsSet()).toEqual([{ flag: '--no-allocation-site-pretenuring', undo: '--allocation-site-pretenuring' }]);
  });

  it('does nothing when set on', () => {
    const { logger, debug } = spyLogger();
    applyV8Pretenuring('on', logger, []);
    expect(debug).not.toHaveBeenCalled();
  });
});
