// An interceptor around the handler: how long the rest of the chain took, in the request's log (stderr and client).
import type { CallHandler, Context, KilnInterceptor, OperationCall } from 'mcp-kiln';

export class TimingInterceptor implements KilnInterceptor {
  async intercept(ctx: Context, call: OperationCall, next: CallHandler): Promise<unknown> {
    const started = performance.now();
    try {
      return await next.handle();
    } finally {
      ctx.log.info(`${call.kind} ${call.name} took ${Math.round(performance.now() - started)} ms`);
    }
  }
}
