// README example: a multi-round-trip tool. It asks for the export format only when the caller left it out.
import { type HandlerContext, inputRequired, Tool } from 'mcp-kiln';
import { JsonRpcErrorCode, McpError } from 'mcp-kiln/errors';
import { z } from 'zod';

const Format = z.object({ format: z.enum(['json', 'csv']).describe('Export format') });

const Input = z.object({
  isbn: z.string().describe('ISBN-13 of the book'),
  format: z.enum(['json', 'csv']).optional().describe('Export format; asked for when omitted'),
});

@Tool('library_export_book', {
  description: 'Export a book record as JSON or CSV, asking for the format when the caller left it out.',
  input: Input,
  output: z.object({ url: z.string().describe('Where the export can be downloaded') }),
})
export class ExportBookTool {
  handle(input: z.output<typeof Input>, ctx: HandlerContext) {
    // A declined or cancelled prompt is a dead end: don't ask again.
    const view = ctx.inputs.view('format');
    if (view.kind === 'elicit' && view.action !== 'accept') {
      throw new McpError(
        JsonRpcErrorCode.InvalidParams,
        `The format prompt ended with ${view.action}; call again with format supplied.`,
      );
    }
    const format = input.format ?? ctx.inputs.accepted('format', Format)?.format;
    if (!format) {
      return ctx.requestInput(
        { inputRequests: { format: inputRequired.elicit({ message: 'Which format?', requestedSchema: Format }) } },
        { fallbackHint: 'Or call again with format supplied.' },
      );
    }
    return { url: `https://exports.example/${input.isbn}.${format}` };
  }
}
