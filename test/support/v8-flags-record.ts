// The runtime's record of the V8 flags it set (src/loading/v8-flags.ts) lives on globalThis, shared by every copy of
// the runtime in a process: a test that reads or writes it starts from an empty record and leaves the record as it
// found it.
import { afterEach, beforeEach } from 'vitest';
import { V8_FLAGS_SET, type V8FlagChange } from '../../src/loading/v8-flags.js';

export type V8FlagsRecord = { [V8_FLAGS_SET]?: V8FlagChange[] };

/** Call inside a describe: each of its tests starts with no flag recorded. Returns the record's holder. */
export function freshV8FlagsRecord(): V8FlagsRecord {
  const global = globalThis as V8FlagsRecord;
  let before: V8FlagChange[] | undefined;
  beforeEach(() => {
    before = global[V8_FLAGS_SET];
    delete global[V8_FLAGS_SET];
  });
  afterEach(() => {
    if (before) global[V8_FLAGS_SET] = before;
    else delete global[V8_FLAGS_SET];
  });
  return global;
}
