// The SDK's Server with one correction: a spec request whose params fail the SDK's wire schema is answered -32602
// (reason invalid_params) with a readable message. The SDK throws a plain Error carrying zod's issue dump for it,
// which goes out as -32603 Internal error; only tools/call gets a -32602 from the SDK itself.
import { type JSONRPCRequest, type Result, Server, type ServerContext } from '@modelcontextprotocol/server';
import { kilnError } from '../errors/index.js';

type RequestHandler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

export class SpecParamsServer extends Server {
  protected override _wrapHandler(method: string, handler: RequestHandler): RequestHandler {
    const wrapped = super._wrapHandler(method, handler);
    return async (request, ctx) => {
      try {
        return await wrapped(request, ctx);
      } catch (error) {
        throw invalidParams(method, error) ?? error;
      }
    };
  }
}

interface Issue {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/** The -32602 for a params validation failure; undefined for any other error, which passes through unchanged. */
function invalidParams(method: string, error: unknown) {
  const issues = validationIssues(error);
  if (!issues) return undefined;
  const described = issues.slice(0, 5).map(({ path, message }) => {
    const where = path.length > 0 ? path.join('.') : 'params';
    return `${where}: ${message}`;
  });
  const more = issues.length > 5 ? ` (and ${issues.length - 5} more)` : '';
  return kilnError('invalid_params', `Invalid params for ${method}: ${described.join('; ')}${more}.`);
}

/**
 * The issues of the SDK's failed request validation. It throws a plain Error (no code) whose message is zod's JSON
 * list of issues; an error of any other shape is not one, and an error a handler throws never has that shape.
 */
function validationIssues(error: unknown): Issue[] | undefined {
  if (!(error instanceof Error) || Object.getPrototypeOf(error) !== Error.prototype || 'code' in error) return;
  if (!error.message.startsWith('[')) return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(error.message);
  } catch {
    return;
  }
  if (!Array.isArray(parsed) || parsed.length === 0 || !parsed.every(isIssue)) return;
  return parsed;
}

function isIssue(value: unknown): value is Issue {
  if (typeof value !== 'object' || value === null) return false;
  const { path, message } = value as { path?: unknown; message?: unknown };
  return Array.isArray(path) && typeof message === 'string';
}
