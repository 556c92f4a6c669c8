// Compile-time guarantees of the call-chain decorators: each takes only classes with its part's method, and a filter
// typed from a contract gets a ctx.fail that accepts only that contract's reasons.
import {
  type HandlerContext,
  type KilnExceptionFilter,
  type KilnGuard,
  UseFilters,
  UseGuards,
  UseInterceptors,
} from 'mcp-kiln';
import { JsonRpcErrorCode, type McpError } from 'mcp-kiln/errors';
import { describe, expectTypeOf, it } from 'vitest';

const Contract = [
  { reason: 'no_stock', code: JsonRpcErrorCode.NotFound, when: 'No stock.', recovery: 'List the stock and retry.' },
] as const;

class AllowAll implements KilnGuard {
  canActivate(): boolean {
    return true;
  }
}

class StockFilter implements KilnExceptionFilter<typeof Contract> {
  catch(_error: unknown, ctx: HandlerContext<typeof Contract>): McpError {
    expectTypeOf(ctx.fail).parameter(0).toEqualTypeOf<'no_stock'>();
    return ctx.fail('no_stock');
  }
}

class NotAPart {
  run(): void {}
}

describe('call-chain decorators', () => {
  it('take classes with the right method', () => {
    UseGuards(AllowAll);
    UseFilters(StockFilter);
    // @ts-expect-error a guard needs canActivate
    UseGuards(NotAPart);
    // @ts-expect-error an interceptor needs intercept
    UseInterceptors(AllowAll);
    // @ts-expect-error at least one part
    UseFilters();
  });
});
