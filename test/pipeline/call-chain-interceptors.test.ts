// Interceptors and exception filters booted through the testing kit with real DI: caching, retries, result mapping
// and timing around the handler; filters mapping domain errors to declared reasons, and refusing undeclared ones.
import { Errors, type HandlerContext, Module, Resource, Tool, UseFilters, UseInterceptors } from 'mcp-kiln';
import { JsonRpcErrorCode, McpError } from 'mcp-kiln/errors';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bootApp, capturedLog, closeBootedApps } from '../di/boot-app.js';
import {
  CacheInterceptor,
  ResultCache,
  RetryInterceptor,
  ShoutInterceptor,
  StockErrors,
  StockFilter,
  StockMissing,
  TimingInterceptor,
  UndeclaredFilter,
} from './fixtures/call-chain-parts.js';

afterEach(closeBootedApps);

const Text = z.object({ text: z.string().describe('Text to echo') });
const Echoed = z.object({ text: z.string().describe('The echoed text') });

@Tool('chain_count', {
  description: 'Count how often the handler ran, for the interceptor tests.',
  input: Text,
  output: z.object({ text: z.string().describe('Text'), runs: z.number().describe('Handler runs') }),
})
@UseInterceptors(CacheInterceptor)
class CountTool {
  private static runs = 0;
  handle(input: z.output<typeof Text>) {
    CountTool.runs += 1;
    return { text: input.text, runs: CountTool.runs };
  }
}

@Tool('chain_flaky', {
  description: 'Fail twice with a retryable error, then succeed, for the retry tests.',
  input: z.object({}),
})
@UseInterceptors(RetryInterceptor)
class FlakyTool {
  private static attempts = 0;
  handle() {
    FlakyTool.attempts += 1;
    if (FlakyTool.attempts < 3) throw new McpError(-32001, 'busy', { retryable: true });
    return `succeeded on attempt ${FlakyTool.attempts}`;
  }
}

@Tool('chain_shout', {
  description: 'Echo text, upper-cased by an interceptor and timed by another.',
  input: Text,
  output: Echoed,
})
@UseInterceptors(TimingInterceptor, ShoutInterceptor)
class ShoutTool {
  handle(input: z.output<typeof Text>) {
    return { text: input.text };
  }
}

@Module({ providers: [ResultCache], tools: [CountTool, FlakyTool, ShoutTool] })
class InterceptedModule {}

describe('interceptors', () => {
  it('serve a cached result without running the handler again', async () => {
    const app = await bootApp(InterceptedModule);
    const first = await app.callTool('chain_count', { text: 'a' });
    expect(first.structuredContent).toEqual({ text: 'a', runs: 1 });
    expect((await app.callTool('chain_count', { text: 'a' })).structuredContent).toEqual({ text: 'a', runs: 1 });
    expect((await app.callTool('chain_count', { text: 'b' })).structuredContent).toEqual({ text: 'b', runs: 2 });
  });

  it('retry the handler by calling next.handle() again', async () => {
    const app = await bootApp(InterceptedModule);
    expect((await app.callTool('chain_flaky', {})).content).toEqual([{ type: 'text', text: 'succeeded on attempt 3' }]);
  });

  it('map the result, which the output schema still checks, and time the call into the request log', async () => {
    const { options, lines } = capturedLog();
    const app = await bootApp(InterceptedModule, { ...options, env: { MCP_LOG_LEVEL: 'info' } });
    expect((await app.callTool('chain_shout', { text: 'quiet' })).structuredContent).toEqual({ text: 'QUIET' });
    expect(lines.map((line) => line.msg)).toContainEqual(expect.stringMatching(/^tool chain_shout took \d+ ms$/));
  });
});

@Tool('chain_stock', {
  description: 'Look up stock, failing with a domain error, for the filter tests.',
  input: z.object({ sku: z.string().describe('Stock keeping unit') }),
})
@Errors(StockErrors)
@UseFilters(StockFilter)
class StockTool {
  handle(input: { sku: string }, _ctx: HandlerContext<typeof StockErrors>): string {
    if (input.sku === 'boom') throw new Error('disk on fire');
    throw new StockMissing(input.sku);
  }
}

@Resource('chain://stock/{sku}', { name: 'stock', description: 'Stock of one sku.', mimeType: 'text/plain' })
@Errors(StockErrors)
@UseFilters(UndeclaredFilter)
class StockResource {
  handle(): string {
    throw new StockMissing('x');
  }
}

@Module({ tools: [StockTool], resources: [StockResource] })
class FilteredModule {}

describe('exception filters', () => {
  it('map a domain error to a declared reason, with the contract recovery hint', async () => {
    const app = await bootApp(FilteredModule);
    expect((await app.callTool('chain_stock', { sku: 'w-1' })).structuredContent).toEqual({
      error: {
        code: JsonRpcErrorCode.NotFound,
        message: 'Nothing is stocked under w-1.',
        data: {
          reason: 'no_stock',
          sku: 'w-1',
          recovery: { hint: 'List the stocked items first and call again with one of their skus.' },
          requestId: expect.any(String),
        },
      },
    });
  });

  it('leave an error no filter answers to the usual masking', async () => {
    const app = await bootApp(FilteredModule, capturedLog().options);
    const masked = await app.callTool('chain_stock', { sku: 'boom' });
    expect(masked.structuredContent).toMatchObject({ error: { code: JsonRpcErrorCode.InternalError } });
    expect(JSON.stringify(masked)).not.toContain('disk on fire');
  });

  it('treat an undeclared reason as a server bug: masked on the wire, named in the log', async () => {
    const { options, lines } = capturedLog();
    const app = await bootApp(FilteredModule, options);
    const failure = await app.readResource('chain://stock/x').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toMatchObject({ code: JsonRpcErrorCode.InternalError });
    expect(JSON.stringify(failure)).not.toContain('made_up');
    const logged = lines.find((line) => line.level === 'error');
    expect((logged?.err as { message?: string } | undefined)?.message).toBe(
      'Exception filter UndeclaredFilter of Resource stock answered the reason "made_up", which is not a reason its ' +
        "@Errors contract declares (no_stock). Return ctx.fail('<declared reason>', ...) for errors the filter maps, " +
        'undefined for the rest.',
    );
  });
});
