// Property: the stdio edge (the line guard, then the SDK transport) answers every generated line as JSON-RPC requires,
// in both eras, against the built notes server as a real child process; the process survives all of it.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_LINE_BYTES } from '../../src/transports/stdio-line-guard.js';
import { expectNoLeak } from './answer-hygiene.js';
import { fuzzParameters, fuzzTimeout } from './fuzz-settings.js';
import { type Era, printable, wireMessage } from './jsonrpc-grammar.js';
import { expectNoInternalError } from './pipeline-reach.js';
import { StdioWire } from './stdio-wire.js';
import { distinctIds, expectEachAnswered, expectOwed, type Owed, owedFor, responsesIn } from './wire-expectations.js';

const RUNS = 400;
const NEWLINE = 0x0a;
const LF = Buffer.from('\n');

/** One to three messages written at once, so answers to lines still being handled interleave. */
/** What a line is owed; past the guard's length cap it is skipped unread, so its id cannot be known. */
function owedForLine(line: Buffer): Owed {
  return line.length > DEFAULT_MAX_LINE_BYTES ? { kind: 'error', ids: [null] } : owedFor(line);
}

const together = (era: Era) =>
  fc
    .array(wireMessage(era), { minLength: 1, maxLength: 3 })
    .map((messages) =>
      printable(Buffer.concat(messages.flatMap((message, index) => (index === 0 ? [message] : [LF, message])))),
    )
    .filter((bytes) => distinctIds(linesOf(bytes).map(owedForLine)));

describe.each(['handshake', 'envelope'] as const)('stdio edge under generated lines (%s era)', (era: Era) => {
  let wire: StdioWire;

  beforeAll(async () => {
    wire = await StdioWire.open(era);
  });
  afterAll(() => wire.close());

  it(
    'answers each line once with its id, writes only JSON-RPC to stdout, never a stack or path, and stays up',
    async () => {
      await fc.assert(
        fc.asyncProperty(together(era), async (bytes) => {
          const lines = linesOf(bytes);
          const owed = lines.map(owedForLine);
          const answers = await wire.exchange(
            bytes,
            owed.flatMap((line) => (line.kind === 'response' ? [line.id] : [])),
          );

          expectNoLeak(answers, bytes.toString('utf8'));
          for (const answer of answers) expect(answer).toMatchObject({ jsonrpc: '2.0' });
          // Lines answered by the guard come at once and requests when their handler finishes, so order is free.
          if (owed.length === 1) expectOwed(owed[0]!, responsesIn(answers));
          else expectEachAnswered(owed, responsesIn(answers));
          for (const line of lines) expectNoInternalError(line, responsesIn(answers));
        }),
        fuzzParameters(RUNS),
      );

      expect(wire.alive).toBe(true);
      const [list] = await wire.exchange(wire.request('after', 'tools/list'), ['after']);
      expect(JSON.stringify(list)).toContain('notes_create_note');
    },
    fuzzTimeout(RUNS, 100),
  );
});

/** The lines the guard reads from `bytes` (split on LF, blank ones skipped, as the guard does). */
function linesOf(bytes: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  for (let end = bytes.indexOf(NEWLINE); end !== -1; end = bytes.indexOf(NEWLINE, start)) {
    lines.push(bytes.subarray(start, end));
    start = end + 1;
  }
  lines.push(bytes.subarray(start));
  return lines.filter((line) => !/^\s*$/.test(line.toString('utf8')));
}
