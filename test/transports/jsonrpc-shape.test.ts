// jsonRpcShapeProblem: what the SDK accepts passes, and everything it would drop gets the id to answer with and a
// problem that says what to send instead.
import { describe, expect, it } from 'vitest';
import { jsonRpcShapeProblem } from '../../src/transports/jsonrpc-shape.js';

describe('jsonRpcShapeProblem', () => {
  it.each([
    ['a request', { jsonrpc: '2.0', id: 1, method: 'tools/list' }],
    ['a request with a string id and params', { jsonrpc: '2.0', id: 'a', method: 'x', params: { _meta: {} } }],
    ['a notification', { jsonrpc: '2.0', method: 'notifications/initialized' }],
    ['a result', { jsonrpc: '2.0', id: 7, result: {} }],
    ['an error response', { jsonrpc: '2.0', id: 7, error: { code: -32601, message: 'nope' } }],
  ])('accepts %s', (_name, message) => {
    expect(jsonRpcShapeProblem(message)).toBeUndefined();
  });

  it.each([
    ['params as an array', { jsonrpc: '2.0', id: 1, method: 'x', params: [1] }, 1, '"params" is an array'],
    ['params as a string', { jsonrpc: '2.0', id: 'r', method: 'x', params: 'p' }, 'r', '"params" is a string ("p")'],
    ['jsonrpc missing', { id: 2, method: 'x' }, 2, 'the "jsonrpc" member is missing'],
    ['jsonrpc "1.0"', { jsonrpc: '1.0', id: 3, method: 'x' }, 3, '"jsonrpc" is a string ("1.0")'],
    ['no method', { jsonrpc: '2.0', id: 4 }, 4, 'there is no "method"'],
    ['a numeric method', { jsonrpc: '2.0', id: 5, method: 42 }, 5, '"method" is a number (42)'],
    ['a fractional id', { jsonrpc: '2.0', id: 1.5, method: 'x' }, 1.5, '"id" is a number (1.5)'],
    ['a null id', { jsonrpc: '2.0', id: null, method: 'x' }, null, '"id" is null'],
    ['an unknown member', { jsonrpc: '2.0', id: 6, method: 'x', extra: 1 }, 6, 'unexpected "extra"'],
    [
      'a bad progress token',
      { jsonrpc: '2.0', id: 8, method: 'x', params: { _meta: { progressToken: {} } } },
      8,
      'progressToken',
    ],
    ['an invalid notification', { jsonrpc: '2.0', method: 'x', params: [] }, null, '"params" is an array'],
  ])('rejects %s, answering its id', (_name, message, id, problem) => {
    const found = jsonRpcShapeProblem(message);
    expect(found?.id).toBe(id);
    expect(found?.problem).toContain(problem);
  });

  it('answers a batch with id null, saying MCP does not support batches', () => {
    expect(jsonRpcShapeProblem([{ jsonrpc: '2.0', id: 1, method: 'ping' }])).toEqual({
      id: null,
      problem: expect.stringContaining('MCP does not support JSON-RPC batches'),
    });
  });

  it.each([
    ['a number', 42, 'the line is a number (42)'],
    ['a string', 'hi', 'the line is a string ("hi")'],
    ['null', null, 'the line is null'],
  ])('rejects %s with id null', (_name, message, problem) => {
    expect(jsonRpcShapeProblem(message)).toEqual({ id: null, problem: expect.stringContaining(problem) });
  });

  it("answers a malformed response with id null, since its id names one of the server's requests", () => {
    expect(jsonRpcShapeProblem({ jsonrpc: '2.0', id: 1, error: 'boom' })).toEqual({
      id: null,
      problem: '"error" must be an object with an integer "code" and a string "message"',
    });
    expect(jsonRpcShapeProblem({ jsonrpc: '2.0', id: 1, result: [] })?.id).toBeNull();
  });

  it('does not quote a long value back', () => {
    const found = jsonRpcShapeProblem({ jsonrpc: '2.0', id: 1, method: 'x', params: 'p'.repeat(10_000) });
    expect(found?.problem.length).toBeLessThan(200);
  });
});
