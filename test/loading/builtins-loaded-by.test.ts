// What the runtime loader loads before a module its chunks require: that module's listed built-ins, `node:` ones
// through the require it is given, `global:` ones by reading the global. That they then come from the node binary's
// code cache is checked in real servers by test/integration/builtin-code-cache.test.ts.
import { isBuiltin } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILTINS_LOADED_BY, loadBuiltinsLoadedBy } from '../../src/loading/builtins-loaded-by.js';

const probe = globalThis as { kilnProbeGlobal?: unknown };

describe('loadBuiltinsLoadedBy', () => {
  // A module of the test's own is listed for the first case, and taken out after each.
  const listed = BUILTINS_LOADED_BY as Record<string, readonly string[]>;
  afterEach(() => {
    delete listed['kiln-probe'];
    delete probe.kilnProbeGlobal;
  });

  it('requires the node: built-ins listed for a module, in order, and reads the globals', () => {
    let read = 0;
    Object.defineProperty(probe, 'kilnProbeGlobal', {
      configurable: true,
      get: () => {
        read++;
        return 'undici';
      },
    });
    listed['kiln-probe'] = ['node:zlib', 'global:kilnProbeGlobal', 'node:tls'];
    const required: string[] = [];
    loadBuiltinsLoadedBy('kiln-probe', (id) => required.push(id));
    expect(required).toEqual(['node:zlib', 'node:tls']);
    expect(read).toBe(1);
  });

  it('loads nothing for a module not listed', () => {
    const required: string[] = [];
    loadBuiltinsLoadedBy('zod', (id) => required.push(id));
    expect(required).toEqual([]);
  });

  it('lists only built-ins Node has and globals Node defines', () => {
    for (const loads of Object.values(BUILTINS_LOADED_BY)) {
      for (const load of loads) {
        if (load.startsWith('node:')) expect(isBuiltin(load), load).toBe(true);
        else expect(load.slice('global:'.length) in globalThis, load).toBe(true);
      }
    }
  });
});
