// An input type JSON Schema cannot express (z.date(), z.bigint(), z.map(), …) boots in zod but is advertised with
// no type, and no JSON argument can parse into it: boot refuses it, naming the field path and what to declare.
import { Tool, type ToolInputSchema } from 'mcp-kiln';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bootApp, bootProblem, bootProblems, closeBootedApps, fixtureModule } from '../di/boot-app.js';

afterEach(closeBootedApps);

function toolWithInput(input: ToolInputSchema) {
  @Tool('events_list_events', { description: 'List events.', input })
  class ListEventsTool {
    handle() {
      return 'events';
    }
  }
  return ListEventsTool;
}

const bootInput = (input: ToolInputSchema) => bootProblem(fixtureModule({ tools: [toolWithInput(input)] }));

describe('input types JSON Schema cannot express', () => {
  it('refuses z.date() with the field, why it can never be called, and z.iso.datetime() as the fix', async () => {
    expect(await bootInput(z.object({ since: z.date().describe('Start') }))).toBe(
      "Tool events_list_events (ListEventsTool): input field 'since' is z.date(), which JSON Schema cannot express: " +
        'tools/list advertises it with no type and no JSON argument can satisfy it, so the tool could never be ' +
        'called; declare z.iso.datetime() (or z.iso.date()) and build the Date in the handler. [input-unrepresentable]',
    );
  });

  it.each([
    ['z.bigint()', z.bigint(), 'declare z.int(), or a digit string'],
    ['z.map()', z.map(z.string(), z.number()), 'declare z.record(keySchema, valueSchema)'],
    ['z.set()', z.set(z.string()), 'declare z.array(itemSchema)'],
    ['z.symbol()', z.symbol(), 'declare the JSON type the caller sends'],
    ['z.function()', z.function(), 'declare the JSON type the caller sends'],
    ['z.promise()', z.promise(z.string()), 'declare the awaited type itself'],
    ['z.undefined()', z.undefined(), 'make the field .optional() instead'],
    ['z.nan()', z.nan(), 'declare z.number()'],
    ['z.custom() or z.instanceof()', z.instanceof(URL), 'declare the JSON type the caller sends'],
    ['a bare z.transform()', z.transform((v) => String(v)), 'start from the type'],
    ['a bigint z.literal()', z.literal(1n), 'declare a number literal'],
  ])('refuses %s', async (declared, schema, fix) => {
    const problem = await bootInput(z.object({ value: (schema as z.ZodType).describe('A value') }));
    expect(problem).toContain(`input field 'value' is ${declared}, which JSON Schema cannot express`);
    expect(problem).toContain(fix);
    expect(problem).toMatch(/ \[input-unrepresentable\]$/);
  });

  it('names nested, array, record, optional and union-branch paths, one finding each', async () => {
    const Input = z.discriminatedUnion('mode', [
      z.object({
        mode: z.literal('window').describe('Pick a window'),
        window: z
          .object({ from: z.date().optional().describe('From'), to: z.string().describe('To') })
          .describe('The window'),
        ids: z.array(z.bigint().describe('An id')).describe('Ids'),
      }),
      z.object({
        mode: z.literal('tags').describe('Pick tags'),
        tags: z.record(z.string(), z.set(z.string()).describe('Values')).describe('Tags'),
        at: z.union([z.string(), z.date()]).describe('When'),
      }),
    ]);
    const problems = await bootProblems(fixtureModule({ tools: [toolWithInput(Input)] }));
    expect(problems.map((problem) => /input field '([^']+)' is (\S+)/.exec(problem)?.slice(1))).toEqual(
      expect.arrayContaining([
        ['window.from', 'z.date(),'],
        ['ids[]', 'z.bigint(),'],
        ['tags.*', 'z.set(),'],
        ['at', 'z.date(),'],
      ]),
    );
    expect(problems).toHaveLength(4);
  });

  it('accepts what the caller can send: ISO strings, transforms after a JSON type, z.coerce on a string', async () => {
    const Input = z.object({
      since: z.iso.datetime().describe('Start'),
      day: z.iso.date().describe('Day'),
      count: z
        .string()
        .transform((s) => s.length)
        .describe('Counted text'),
      at: z.string().pipe(z.coerce.date()).describe('Parsed to a Date after the string check'),
      anything: z.unknown().describe('Any JSON value'),
    });
    const app = await bootApp(fixtureModule({ tools: [toolWithInput(Input)] }));
    expect(app.runtime.tools.has('events_list_events')).toBe(true);
  });
});
