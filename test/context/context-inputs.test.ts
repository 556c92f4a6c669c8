// ctx.inputs: the round's answers, kept only where the client's declared capabilities cover their kind and mode,
// read through accepted / view / state / dropped / responses, and built only when a handler first reads them.
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { filterInputResponses } from '../../src/context/context-inputs.js';
import { buildContext } from './context-fixtures.js';

const FORM_ACCEPT = { action: 'accept', content: { name: 'Ada' } };
const URL_ACCEPT = { action: 'accept' };
const DECLINE = { action: 'decline' };
const SAMPLED = { role: 'assistant', content: { type: 'text', text: 'A summary.' }, model: 'm-1' };
const SAMPLED_TOOL_USE = {
  role: 'assistant',
  content: [{ type: 'tool_use', id: 't1', name: 'lookup', input: {} }],
  model: 'm-1',
};
const SAMPLED_TOOL_RESULT = {
  role: 'user',
  content: { type: 'tool_result', toolUseId: 't1', content: [] },
  model: 'm',
};
const ROOTS = { roots: [{ uri: 'file:///work', name: 'work' }] };

const kept = (responses: Record<string, unknown>, capabilities: ClientCapabilities | undefined) =>
  Object.keys(filterInputResponses(responses, capabilities)).sort();

describe('the capability filter', () => {
  const every = {
    form: FORM_ACCEPT,
    url: URL_ACCEPT,
    declined: DECLINE,
    sampled: SAMPLED,
    toolUse: SAMPLED_TOOL_USE,
    toolResult: SAMPLED_TOOL_RESULT,
    roots: ROOTS,
  };

  it.each<[string, ClientCapabilities, string[]]>([
    ['nothing declared', {}, []],
    ['a bare elicitation: {} (form implied)', { elicitation: {} }, ['declined', 'form', 'url']],
    ['elicitation.form', { elicitation: { form: {} } }, ['declined', 'form', 'url']],
    ['URL-mode elicitation only', { elicitation: { url: {} } }, ['declined', 'url']],
    ['sampling without tools', { sampling: {} }, ['sampled']],
    ['sampling.tools', { sampling: { tools: {} } }, ['sampled', 'toolResult', 'toolUse']],
    ['roots', { roots: {} }, ['roots']],
    [
      'everything',
      { elicitation: { form: {}, url: {} }, sampling: { tools: {} }, roots: { listChanged: true } },
      ['declined', 'form', 'roots', 'sampled', 'toolResult', 'toolUse', 'url'],
    ],
  ])('with %s keeps exactly what it covers', (_label, capabilities, expected) => {
    expect(kept(every, capabilities)).toEqual(expected);
  });

  it('keeps nothing when there is no capability view', () => {
    expect(filterInputResponses(every, undefined)).toEqual({});
  });

  it('drops entries of no recognizable kind, however capable the client', () => {
    const capabilities = { elicitation: {}, sampling: { tools: {} }, roots: {} };
    const responses = JSON.parse(
      '{"wrapped":{"method":"roots/list","result":{"roots":[]}},"text":"yes","list":[1],"empty":null,' +
        '"maybe":{"action":"perhaps"},"__proto__":{"action":"accept","content":{"name":"Eve"}}}',
    ) as Record<string, unknown>;
    const filtered = filterInputResponses(responses, capabilities);
    expect(Object.keys(filtered)).toEqual([]);
    expect(Object.getPrototypeOf(filtered)).toBe(Object.prototype);
  });

  it('keeps the entries it passes as the client sent them', () => {
    expect(filterInputResponses({ roots: ROOTS }, { roots: {} })).toEqual({ roots: ROOTS });
    expect(filterInputResponses({ roots: ROOTS }, { roots: {} }).roots).toBe(ROOTS);
  });
});

describe('ctx.inputs readers', () => {
  const capable = { elicitation: {}, sampling: {}, roots: {} };
  const inputs = (
    inputResponses: Record<string, unknown>,
    clientCapabilities: ClientCapabilities | undefined = capable,
  ) => buildContext({ inputResponses, clientCapabilities }).context.inputs;

  it('accepted() returns accepted form content, validated and typed when a schema is given', () => {
    const Name = z.object({ name: z.string().min(2) });
    const read = inputs({ ok: FORM_ACCEPT, short: { action: 'accept', content: { name: 'A' } } });
    expect(read.accepted('ok')).toEqual({ name: 'Ada' });
    expect(read.accepted('ok', Name)?.name).toBe('Ada');
    expect(read.accepted('short', Name)).toBeUndefined();
  });

  it('accepted() is undefined for a missing key, a decline, a content-less accept and another kind', () => {
    const read = inputs({ declined: DECLINE, url: URL_ACCEPT, roots: ROOTS });
    for (const key of ['absent', 'declined', 'url', 'roots']) expect(read.accepted(key)).toBeUndefined();
  });

  it('view() discriminates each kind, and reads a filtered-out entry as missing', () => {
    const read = inputs({
      form: FORM_ACCEPT,
      declined: DECLINE,
      sampled: SAMPLED,
      roots: ROOTS,
      toolUse: SAMPLED_TOOL_USE,
    });
    expect(read.view('form')).toEqual({ kind: 'elicit', action: 'accept', content: { name: 'Ada' } });
    expect(read.view('declined')).toEqual({ kind: 'elicit', action: 'decline' });
    expect(read.view('sampled')).toEqual({ kind: 'sampling', result: SAMPLED });
    expect(read.view('roots')).toEqual({ kind: 'roots', roots: ROOTS.roots });
    expect(read.view('toolUse')).toEqual({ kind: 'missing' });
    expect(read.view('absent')).toEqual({ kind: 'missing' });
  });

  it('responses is the filtered map', () => {
    expect(inputs({ form: FORM_ACCEPT, toolUse: SAMPLED_TOOL_USE }).responses).toEqual({ form: FORM_ACCEPT });
  });

  it('gives a form answer to nobody without the capability, even when it is pre-answered', () => {
    const read = inputs({ name: FORM_ACCEPT }, { elicitation: { url: {} } });
    expect(read.accepted('name')).toBeUndefined();
    expect(read.view('name')).toEqual({ kind: 'missing' });
    const noView = buildContext({ inputResponses: { name: FORM_ACCEPT }, clientCapabilities: undefined }).context;
    expect(noView.inputs.responses).toEqual({});
  });

  it('state() reads the round’s requestState through the SDK accessor; undefined when it carried none', () => {
    const carried = buildContext({ requestState: <T>() => 'job-42' as T }).context.inputs;
    expect(carried.state()).toBe('job-42');
    expect(buildContext().context.inputs.state()).toBeUndefined();
  });

  it('dropped lists the keys the SDK dropped, and is empty otherwise', () => {
    expect(buildContext({ droppedInputResponseKeys: ['wrapped'] }).context.inputs.dropped).toEqual(['wrapped']);
    expect(buildContext().context.inputs.dropped).toEqual([]);
  });

  it('is built on first read and then reused, so a request that never reads it pays nothing', () => {
    let reads = 0;
    const accessor = <T>() => {
      reads += 1;
      return 'state' as T;
    };
    const { context } = buildContext({ requestState: accessor, inputResponses: { form: FORM_ACCEPT } });
    expect(reads).toBe(0);
    const first = context.inputs;
    expect(context.inputs).toBe(first);
    expect(first.state()).toBe('state');
    expect(reads).toBe(1);
  });
});
