// When holdYoungGeneration holds V8's young generation and when it leaves it alone, without touching this process's
// V8 flags (each case below is one that sets none); what holding does to V8 is checked in a real process by
// test/integration/young-generation.test.ts.
import { describe, expect, it } from 'vitest';
import { V8_FLAGS_SET, v8FlagsSet } from '../../src/loading/v8-flags.js';
import {
  bootSemiSpace,
  holdYoungGeneration,
  outsideHold,
  releaseYoungGeneration,
} from '../../src/loading/young-generation.js';
import { freshV8FlagsRecord } from '../support/v8-flags-record.js';

describe('holdYoungGeneration', () => {
  const global = freshV8FlagsRecord();

  it('reads fixed by default, grow when set, and refuses anything else with what it accepts', () => {
    expect(bootSemiSpace({})).toBe('fixed');
    expect(bootSemiSpace({ MCP_V8_BOOT_SEMI_SPACE: '' })).toBe('fixed');
    expect(bootSemiSpace({ MCP_V8_BOOT_SEMI_SPACE: 'grow' })).toBe('grow');
    expect(() => bootSemiSpace({ MCP_V8_BOOT_SEMI_SPACE: 'off' })).toThrow(
      'MCP_V8_BOOT_SEMI_SPACE must be one of fixed, grow (got "off").',
    );
  });

  it('leaves V8 alone when set to grow, in a worker thread, or when the node command line names a semi-space flag', () => {
    expect(holdYoungGeneration({ MCP_V8_BOOT_SEMI_SPACE: 'grow' }, { mainThread: true, startFlags: [] })).toBe(false);
    expect(holdYoungGeneration({}, { mainThread: false, startFlags: [] })).toBe(false);
    for (const flag of ['--max-semi-space-size=16', '--min-semi-space-size=4', '--semi-space-growth-factor=4']) {
      expect(holdYoungGeneration({}, { mainThread: true, startFlags: ['--enable-source-maps', flag] })).toBe(false);
    }
    expect(v8FlagsSet()).toEqual([]);
  });

  it('holds once per process: a runtime that held it, or let it go, does not hold it again', () => {
    global[V8_FLAGS_SET] = [{ flag: '--semi-space-growth-factor=1', undo: '--semi-space-growth-factor=2' }];
    expect(holdYoungGeneration({}, { mainThread: true, startFlags: [] })).toBe(false);
    global[V8_FLAGS_SET].push({ flag: '--semi-space-growth-factor=2', undo: '--semi-space-growth-factor=1' });
    expect(holdYoungGeneration({}, { mainThread: true, startFlags: [] })).toBe(false);
    expect(v8FlagsSet()).toHaveLength(2);
  });

  it('lets go only of a young generation it holds', () => {
    expect(releaseYoungGeneration()).toBe(false);
    global[V8_FLAGS_SET] = [
      { flag: '--semi-space-growth-factor=1', undo: '--semi-space-growth-factor=2' },
      { flag: '--semi-space-growth-factor=2', undo: '--semi-space-growth-factor=1' },
    ];
    expect(releaseYoungGeneration()).toBe(false);
    expect(v8FlagsSet()).toHaveLength(2);
  });
});

describe('outsideHold', () => {
  const global = freshV8FlagsRecord();
  const held = () => {
    global[V8_FLAGS_SET] = [{ flag: '--semi-space-growth-factor=1', undo: '--semi-space-growth-factor=2' }];
  };

  it('only runs the load while the young generation is not held', () => {
    const set: string[] = [];
    expect(
      outsideHold(
        () => 'loaded',
        (flag) => set.push(flag),
      ),
    ).toBe('loaded');
    global[V8_FLAGS_SET] = [
      { flag: '--semi-space-growth-factor=1', undo: '--semi-space-growth-factor=2' },
      { flag: '--semi-space-growth-factor=2', undo: '--semi-space-growth-factor=1' },
    ];
    expect(
      outsideHold(
        () => 'loaded',
        (flag) => set.push(flag),
      ),
    ).toBe('loaded');
    expect(set).toEqual([]);
  });

  it("runs the load under V8's own growth factor and holds again after, also when the load throws", () => {
    held();
    const set: string[] = [];
    const record = (flag: string) => set.push(flag);
    expect(outsideHold(() => set.slice(), record)).toEqual(['--semi-space-growth-factor=2']);
    expect(() =>
      outsideHold(() => {
        throw new Error('no such module');
      }, record),
    ).toThrow('no such module');
    expect(set).toEqual([
      '--semi-space-growth-factor=2',
      '--semi-space-growth-factor=1',
      '--semi-space-growth-factor=2',
      '--semi-space-growth-factor=1',
    ]);
    // The record of what the runtime set (which names the code caches) is left as it was.
    expect(v8FlagsSet()).toHaveLength(1);
  });

  it('leaves the hold off for a load nested in another, until the outer one is done', () => {
    held();
    const set: string[] = [];
    const record = (flag: string) => set.push(flag);
    outsideHold(() => outsideHold(() => set.push('inner load'), record), record);
    expect(set).toEqual(['--semi-space-growth-factor=2', 'inner load', '--semi-space-growth-factor=1']);
  });
});
