// ctx.fail and ctx.recoveryFor: failures built from the @Errors contract, so the code and reason on the wire are
// the declared ones, and the recovery hint is looked up by reason.
import { describe, expect, it } from 'vitest';
import { createFail, createRecoveryFor } from '../../src/context/error-contract.js';
import { JsonRpcErrorCode } from '../../src/errors/json-rpc-error-code.js';
import { McpError } from '../../src/errors/mcp-error.js';

const Contract = [
  {
    reason: 'no_match',
    code: JsonRpcErrorCode.NotFound,
    when: 'No items matched.',
    recovery: 'Broaden the query or check the spelling.',
  },
  {
    reason: 'queue_full',
    code: JsonRpcErrorCode.RateLimited,
    when: 'The local queue is at capacity.',
    recovery: 'Wait a few seconds before retrying.',
    retryable: true,
  },
] as const;

describe('ctx.fail', () => {
  const fail = createFail(Contract);

  it('takes the code from the contract and defaults the message to `when`', () => {
    const error = fail('queue_full');
    expect(error).toBeInstanceOf(McpError);
    expect(error.code).toBe(JsonRpcErrorCode.RateLimited);
    expect(error.message).toBe('The local queue is at capacity.');
    expect(error.data).toEqual({ reason: 'queue_full' });
    expect(error.reason).toBe('queue_full');
  });

  it('uses the caller’s message and merges the caller’s data', () => {
    const error = fail('no_match', 'No items match 3 ids.', { ids: ['a', 'b', 'c'] });
    expect(error.message).toBe('No items match 3 ids.');
    expect(error.data).toEqual({ ids: ['a', 'b', 'c'], reason: 'no_match' });
  });

  it('never lets caller data override the reason', () => {
    const error = fail('no_match', undefined, { reason: 'something_else', detail: 1 });
    expect(error.data).toEqual({ reason: 'no_match', detail: 1 });
    expect(error.message).toBe('No items matched.');
  });

  it('keeps a recovery the caller supplied', () => {
    const error = fail('no_match', undefined, { recovery: { hint: 'Try "lamp" instead of "lamb".' } });
    expect(error.data?.recovery).toEqual({ hint: 'Try "lamp" instead of "lamb".' });
  });

  it('chains the cause without putting it on the wire', () => {
    const cause = new Error('socket hang up');
    const error = fail('queue_full', undefined, undefined, { cause });
    expect(error.cause).toBe(cause);
    expect(Object.keys(error)).not.toContain('cause');
    expect(JSON.stringify(error.data)).not.toContain('socket');
  });

  it('turns an undeclared reason into an InternalError listing the declared reasons', () => {
    const error = (fail as (reason: string, message?: string, data?: Record<string, unknown>) => McpError)(
      'typo',
      'Ignored message',
      { ids: [1] },
    );
    expect(error.code).toBe(JsonRpcErrorCode.InternalError);
    expect(error.message).toBe('ctx.fail was called with undeclared reason "typo".');
    expect(error.data).toEqual({ ids: [1], reason: 'typo', declaredReasons: ['no_match', 'queue_full'] });
  });

  it('treats every reason as undeclared without a contract', () => {
    const error = createFail([])('anything');
    expect(error.code).toBe(JsonRpcErrorCode.InternalError);
    expect(error.data).toMatchObject({ reason: 'anything', declaredReasons: [] });
  });
});

describe('ctx.recoveryFor', () => {
  const recoveryFor = createRecoveryFor(Contract);

  it('returns the declared hint in the wire shape, ready to spread into data', () => {
    expect(recoveryFor('queue_full')).toEqual({ recovery: { hint: 'Wait a few seconds before retrying.' } });
  });

  it('returns an empty object for an unknown reason, and without a contract', () => {
    expect(recoveryFor('typo')).toEqual({});
    expect(createRecoveryFor([])('no_match')).toEqual({});
  });

  it('can be overridden by a later spread', () => {
    const data = { ...recoveryFor('no_match'), recovery: { hint: 'Search for "lamp".' } };
    expect(data).toEqual({ recovery: { hint: 'Search for "lamp".' } });
  });
});
