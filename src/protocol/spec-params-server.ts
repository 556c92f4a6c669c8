// The SDK's Server with two corrections. A spec request whose params fail the SDK's wire schema is answered -32602
// (reason invalid_params) with a readable message: for most methods the SDK throws a plain Error carrying zod's issue
// dump, which goes out as -32603 Internal error; tools/call gets -32602 from the SDK, but with the same raw dump.
// And a tools/call answered with a task (the Tasks extension's CreateTaskResult, which the SDK's CallToolResult
// check would refuse) passes that check as a signal and is answered as is; the SDK's encoder accepts `resultType:
// "task"` on tools/call.
import { type JSONRPCRequest, type Result, Server, type ServerContext } from '@modelcontextprotocol/server';
import { kilnError } from '../errors/factories.js';
import { JsonRpcErrorCode } from '../errors/json-rpc-error-code.js';

const SDK_TOOLS_CALL = /^Invalid tools\/call request: (\[[\s\S]*\])$/;

type RequestHandler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

export class SpecParamsServer extends Server {
  protected override _wrapHandler(method: string, handler: RequestHandler): RequestHandler {
    const wrapped = super._wrapHandler(method, handler);
    return async (request, ctx) => {
      try {
        return await wrapped(request, ctx);
      } catch (error) {
        if (error instanceof TaskAnswer) return error.result;
        throw specParamsError(method, error);
      }
    };
  }
}

/** Carries a tools/call's CreateTaskResult past the SDK's CallToolResult check; never a failure. */
class TaskAnswer extends Error {
  constructor(readonly result: Result) {
    super('A tools/call answered with a task.');
  }
}

/** What a tools/call handler does with a CreateTaskResult: the server's wrapper answers it as is. */
export function answerWithTask(result: Result): never {
  throw new TaskAnswer(result);
}

interface Issue {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/** What the server answers for an error its handler threw: a params validation failure becomes the -32602. */
export function specParamsError(method: string, error: unknown): unknown {
  return invalidParams(method, error) ?? error;
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
 * The issues of the SDK's failed request validation, which comes in two shapes: a plain Error (no code) whose message
 * is zod's JSON list of issues, and for tools/call a -32602 "Invalid tools/call request: <that list>". An error of any
 * other shape is not one; an error a handler throws never has either.
 */
function validationIssues(error: unknown): Issue[] | undefined {
  if (!(error instanceof Error)) return;
  const { code } = error as { code?: unknown };
  const plain = Object.getPrototypeOf(error) === Error.prototype && code === undefined;
  const dump = plain
    ? error.message
    : code === JsonRpcErrorCode.InvalidParams
      ? SDK_TOOLS_CALL.exec(error.message)?.[1]
      : undefined;
  if (!dump?.startsWith('[')) return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(dump);
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
