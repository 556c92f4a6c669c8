// Compile-time guarantees of the handler's context: ctx.fail and ctx.recoveryFor accept only declared reasons,
// ctx.enrich only declared fields, and the typed context still goes wherever a Context or RequestContext does.
import type { Context, HandlerContext, RequestContext } from 'mcp-kiln';
import { JsonRpcErrorCode, type McpError } from 'mcp-kiln/errors';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';

const Contract = [
  {
    reason: 'no_match',
    code: JsonRpcErrorCode.NotFound,
    when: 'Nothing matched.',
    recovery: 'Broaden the query and retry.',
  },
  {
    reason: 'queue_full',
    code: JsonRpcErrorCode.RateLimited,
    when: 'Queue full.',
    recovery: 'Wait a few seconds, then retry.',
  },
] as const;

const SearchEnrichment = {
  totalCount: z.number().describe('Matches before the limit'),
  notice: z.string().optional().describe('Guidance when nothing matched'),
};

declare const ctx: HandlerContext<typeof Contract, typeof SearchEnrichment>;

describe('ctx.fail', () => {
  it('accepts a declared reason, with or without message, data and cause', () => {
    expectTypeOf(ctx.fail('no_match')).toEqualTypeOf<McpError>();
    ctx.fail('queue_full', 'Queue is at 100 of 100.', { depth: 100 }, { cause: new Error('full') });
    expectTypeOf(ctx.fail).parameter(0).toEqualTypeOf<'no_match' | 'queue_full'>();
  });

  it('rejects a reason the contract does not declare', () => {
    // @ts-expect-error 'typo' is not a declared reason
    ctx.fail('typo');
    // @ts-expect-error a reason is required
    ctx.fail();
  });

  it('has no declared reason at all without a contract', () => {
    const bare = {} as HandlerContext;
    expectTypeOf(bare.fail).parameter(0).toBeNever();
  });
});

describe('ctx.recoveryFor', () => {
  it('is strictly typed and returns the wire shape for a declared reason', () => {
    expectTypeOf(ctx.recoveryFor('no_match')).toEqualTypeOf<{ readonly recovery: { readonly hint: string } }>();
    // @ts-expect-error 'typo' is not a declared reason
    ctx.recoveryFor('typo');
  });

  it('stays loose on the base Context, for services', () => {
    const loose = {} as Context;
    loose.recoveryFor('anything');
  });
});

describe('ctx.enrich', () => {
  it('accepts declared fields and the kind helpers', () => {
    ctx.enrich({ totalCount: 3 });
    ctx.enrich({ notice: 'Nothing matched.', totalCount: 0 });
    ctx.enrich.total(3);
    ctx.enrich.truncated({ shown: 10, cap: 10, guidance: 'Narrow the query.' });
  });

  it('rejects an undeclared field and a declared field of the wrong type', () => {
    // @ts-expect-error 'undeclared' is not in the enrichment block
    ctx.enrich({ undeclared: 1 });
    // @ts-expect-error totalCount is a number
    ctx.enrich({ totalCount: 'many' });
  });

  it('stays loose on the base Context, where services write without knowing the block', () => {
    const loose = {} as Context;
    loose.enrich({ anything: 1 });
  });
});

describe('assignability', () => {
  it('lets a typed handler context go where a Context or a RequestContext is expected', () => {
    expectTypeOf<HandlerContext<typeof Contract, typeof SearchEnrichment>>().toExtend<Context>();
    expectTypeOf<HandlerContext<typeof Contract>>().toExtend<RequestContext>();
    expectTypeOf<HandlerContext>().toExtend<Context>();
    expectTypeOf<Context>().toExtend<RequestContext>();

    const service = (context: Context): string => context.requestId;
    const correlate = (context: RequestContext): string | undefined => context.tenantId;
    service(ctx);
    correlate(ctx);
  });
});

describe('RequestContext', () => {
  it('is closed: a misspelled canonical field does not compile', () => {
    const misspelled: RequestContext = {
      requestId: 'ABCDE-FGHJK',
      timestamp: '2026-01-01T00:00:00.000Z',
      // @ts-expect-error tenatId is not a field; ad-hoc data belongs in extra
      tenatId: 'acme',
    };
    expectTypeOf(misspelled).toEqualTypeOf<RequestContext>();
  });

  it('takes ad-hoc correlation data in extra', () => {
    const withBag: RequestContext = {
      requestId: 'ABCDE-FGHJK',
      timestamp: '2026-01-01T00:00:00.000Z',
      extra: { attempt: 2, url: 'https://a.example' },
    };
    expectTypeOf(withBag.extra).toEqualTypeOf<Readonly<Record<string, unknown>> | undefined>();
  });

  it('has exactly the canonical fields', () => {
    expectTypeOf<keyof RequestContext>().toEqualTypeOf<
      'requestId' | 'timestamp' | 'tenantId' | 'sessionId' | 'traceId' | 'spanId' | 'auth' | 'operation' | 'extra'
    >();
  });
});
