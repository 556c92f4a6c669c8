import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { prepareArguments } from '../../../src/pipeline/input/index.js';
import { compileForTest } from './compile-for-test.js';
import { expectAccepted, expectRejected } from './expect-prepared.js';

const search = z.object({ query: z.string(), maxResults: z.number().optional() });

describe('drop stage: client-added root keys', () => {
  it('drops an undeclared underscore-prefixed key', () => {
    const result = expectAccepted(prepareArguments(compileForTest(search), { query: 'a', _trace: 'x' }));
    expect(result.value).toEqual({ query: 'a' });
    expect(result.events.ignored).toEqual(['_trace']);
  });

  it.each([['_meta'], ['tool_call_description'], ['toolCallId']])('drops the built-in client key %s', (key) => {
    const result = expectAccepted(prepareArguments(compileForTest(search), { query: 'a', [key]: 'x' }));
    expect(result.value).toEqual({ query: 'a' });
    expect(result.events.ignored).toEqual([key]);
  });

  it('drops keys added through ignoreKeys, and only with them', () => {
    const args = { query: 'a', some_client_field: 1 };
    const extended = compileForTest(search, { options: { ignoreKeys: ['some_client_field'] } });
    expect(expectAccepted(prepareArguments(extended, args)).events.ignored).toEqual(['some_client_field']);
    expect(expectRejected(prepareArguments(compileForTest(search), args)).message).toBe(
      'Invalid arguments for tool search: Unrecognized key: "some_client_field"',
    );
  });

  it('keeps the built-in list when ignoreKeys extends it', () => {
    const compiled = compileForTest(search, { options: { ignoreKeys: ['some_client_field'] } });
    expect(expectAccepted(prepareArguments(compiled, { query: 'a', toolCallId: '1' })).events.ignored).toEqual([
      'toolCallId',
    ]);
  });

  it('drops nothing when ignoreKeys is false', () => {
    const compiled = compileForTest(search, { options: { ignoreKeys: false } });
    const rejection = expectRejected(prepareArguments(compiled, { query: 'a', _trace: 1, toolCallId: '1' }));
    expect(rejection.issues).toEqual([
      expect.objectContaining({ code: 'unrecognized_keys', keys: ['_trace', 'toolCallId'] }),
    ]);
  });

  it('never drops a declared key, even one on the built-in list', () => {
    const compiled = compileForTest(z.object({ toolCallId: z.string(), _meta: z.string().optional() }));
    const result = expectAccepted(prepareArguments(compiled, { toolCallId: 'c1', _meta: 'm' }));
    expect(result.value).toEqual({ toolCallId: 'c1', _meta: 'm' });
    expect(result.events.ignored).toEqual([]);
  });

  it('counts every variant of a union root as declared', () => {
    const compiled = compileForTest(
      z.discriminatedUnion('mode', [
        z.object({ mode: z.literal('trace'), toolCallId: z.string() }),
        z.object({ mode: z.literal('search'), query: z.string() }),
      ]),
    );
    // Declared in the other variant, so not a client key: the selected variant rejects it by name.
    const rejection = expectRejected(prepareArguments(compiled, { mode: 'search', query: 'a', toolCallId: 'c1' }));
    expect(rejection.message).toBe('Invalid arguments for tool search: Unrecognized key: "toolCallId"');
    const result = expectAccepted(prepareArguments(compiled, { mode: 'search', query: 'a', _meta: {} }));
    expect(result.events.ignored).toEqual(['_meta']);
  });

  it('turns the underscore rule off when the tool declares an underscore key', () => {
    const compiled = compileForTest(z.object({ query: z.string(), _cursor: z.string().optional() }));
    const rejection = expectRejected(prepareArguments(compiled, { query: 'a', _cusor: 'next' }));
    expect(rejection.message).toBe('Invalid arguments for tool search: Unrecognized key: "_cusor"');
    // The built-in list still applies.
    expect(expectAccepted(prepareArguments(compiled, { query: 'a', _meta: {} })).events.ignored).toEqual(['_meta']);
  });

  it('leaves an author-opened root alone', () => {
    const compiled = compileForTest(search.passthrough());
    const result = expectAccepted(
      prepareArguments(compiled, { query: 'a', _trace: 1, _meta: { p: 1 }, toolCallId: 'c' }),
    );
    expect(result.value).toEqual({ query: 'a', _trace: 1, _meta: { p: 1 }, toolCallId: 'c' });
    expect(result.events.ignored).toEqual([]);
  });

  it('leaves an author-opened union variant alone but drops on its strict sibling', () => {
    const compiled = compileForTest(
      z.discriminatedUnion('mode', [
        z.object({ mode: z.literal('proxy') }).catchall(z.unknown()),
        z.object({ mode: z.literal('search'), query: z.string() }),
      ]),
    );
    expect(expectAccepted(prepareArguments(compiled, { mode: 'proxy', _page: 2 })).value).toEqual({
      mode: 'proxy',
      _page: 2,
    });
    expect(expectAccepted(prepareArguments(compiled, { mode: 'search', query: 'a', _page: 2 })).value).toEqual({
      mode: 'search',
      query: 'a',
    });
  });

  it('does not mutate the caller-supplied arguments', () => {
    const args = { query: 'a', _trace: 'x' };
    prepareArguments(compileForTest(search), args);
    expect(args).toEqual({ query: 'a', _trace: 'x' });
  });
});
