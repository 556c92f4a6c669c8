// A domain error the shelf code throws, and the exception filter that maps it to the tool's declared reason.
import { type HandlerContext, type KilnExceptionFilter } from 'mcp-kiln';
import { JsonRpcErrorCode, type McpError } from 'mcp-kiln/errors';

export const ShelfErrors = [
  {
    reason: 'shelf_empty',
    code: JsonRpcErrorCode.NotFound,
    when: 'Nothing stands on that shelf.',
    recovery: 'Pick another shelf between 1 and 9 and call again.',
  },
] as const;

export class ShelfEmpty extends Error {}

export class ShelfFilter implements KilnExceptionFilter<typeof ShelfErrors> {
  catch(error: unknown, ctx: HandlerContext<typeof ShelfErrors>): McpError | undefined {
    return error instanceof ShelfEmpty ? ctx.fail('shelf_empty', error.message) : undefined;
  }
}
