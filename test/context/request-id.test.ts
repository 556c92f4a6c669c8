// The request id Kiln makes for a request whose JSON-RPC id is not a string: two groups of five from an alphabet
// without the characters people misread (0/O, 1/I), different from call to call.
import { describe, expect, it } from 'vitest';
import { generateRequestId } from '../../src/context/request-context.js';

describe('generateRequestId', () => {
  it('reads as XXXXX-XXXXX in letters and digits no one confuses', () => {
    const ids = Array.from({ length: 2_000 }, generateRequestId);
    for (const id of ids) expect(id).toMatch(/^[A-HJ-NP-Z2-9]{5}-[A-HJ-NP-Z2-9]{5}$/);
    expect(new Set(ids).size).toBe(ids.length);
    // Every character of the alphabet turns up: the ids are spread over all 32.
    expect(new Set(ids.join('').replaceAll('-', '')).size).toBe(32);
  });
});
