// Checks a parsed stdin line against the JSON-RPC 2.0 shapes MCP uses. The SDK's own guards decide, so Kiln never
// passes a message the SDK would then drop without an answer; the checks below only explain the rejection.
import { isJSONRPCNotification, isJSONRPCRequest, isJSONRPCResponse } from '@modelcontextprotocol/server';
import type { JsonRpcId } from '../errors/json-rpc-body.js';
import { isPlainObject } from '../protocol/plain-object.js';

export interface ShapeProblem {
  /** The id to answer with. */
  readonly id: JsonRpcId;
  /** What is wrong and what to send instead. */
  readonly problem: string;
}

type Members = Readonly<Record<string, unknown>>;

const REQUEST_MEMBERS = ['jsonrpc', 'id', 'method', 'params'];
const RESPONSE_MEMBERS = ['jsonrpc', 'id', 'result', 'error'];

/** What is wrong with `message` as a JSON-RPC 2.0 message, or `undefined` when the SDK accepts it. */
export function jsonRpcShapeProblem(message: unknown): ShapeProblem | undefined {
  if (isJSONRPCRequest(message) || isJSONRPCNotification(message) || isJSONRPCResponse(message)) return undefined;
  return { id: answerableId(message), problem: describe(message) };
}

/**
 * A request's id is echoed so its sender can match the error to the call. A response's id names one of the server's
 * own requests, so echoing it could settle an unrelated call of the client's: those get null.
 */
function answerableId(message: unknown): JsonRpcId {
  if (!isPlainObject(message) || (!('method' in message) && ('result' in message || 'error' in message))) return null;
  const { id } = message;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

function describe(message: unknown): string {
  if (Array.isArray(message)) {
    return (
      'the line is a JSON array (a batch), and MCP does not support JSON-RPC batches; ' +
      'send each message on its own line'
    );
  }
  if (!isPlainObject(message)) return `the line is ${kindOf(message)}; send one JSON-RPC 2.0 object per line`;
  if (message.jsonrpc !== '2.0') {
    return 'jsonrpc' in message
      ? `"jsonrpc" is ${kindOf(message.jsonrpc)}; it must be the string "2.0"`
      : 'the "jsonrpc" member is missing; add "jsonrpc": "2.0"';
  }
  if ('id' in message && !isRequestId(message.id)) return `"id" is ${kindOf(message.id)}; use a string or an integer`;
  if ('method' in message) return describeRequest(message);
  if ('result' in message || 'error' in message) return describeResponse(message);
  return (
    'there is no "method"; a request carries "jsonrpc": "2.0", an "id", a "method" ' +
    'and optionally "params" (an object)'
  );
}

function describeRequest(message: Members): string {
  if (typeof message.method !== 'string') return `"method" is ${kindOf(message.method)}; it must be the method name`;
  const { params } = message;
  if ('params' in message && !isPlainObject(params)) {
    return `"params" is ${kindOf(params)}; MCP takes named parameters, so send an object or leave "params" out`;
  }
  const meta = isPlainObject(params) ? params._meta : undefined;
  if (meta !== undefined && !isPlainObject(meta)) return `"params._meta" is ${kindOf(meta)}; it must be an object`;
  if (isPlainObject(meta) && meta.progressToken !== undefined && !isRequestId(meta.progressToken)) {
    return '"params._meta.progressToken" must be a string or an integer';
  }
  return unexpectedMembers(message, REQUEST_MEMBERS) ?? notMatched();
}

function describeResponse(message: Members): string {
  if ('result' in message && 'error' in message) return 'a response carries "result" or "error", not both';
  if ('result' in message) {
    if (!('id' in message)) return 'the result has no "id"; a response carries the id of the request it answers';
    if (!isPlainObject(message.result)) return `"result" is ${kindOf(message.result)}; it must be an object`;
  } else {
    const { error } = message;
    if (!isPlainObject(error) || !Number.isInteger(error.code) || typeof error.message !== 'string') {
      return '"error" must be an object with an integer "code" and a string "message"';
    }
  }
  return unexpectedMembers(message, RESPONSE_MEMBERS) ?? notMatched();
}

function unexpectedMembers(message: Members, allowed: readonly string[]): string | undefined {
  const extra = Object.keys(message).filter((key) => !allowed.includes(key));
  if (extra.length === 0) return undefined;
  const named = extra.slice(0, 3).map((key) => quoted(key) ?? 'a long member name');
  const only = allowed.map((key) => `"${key}"`).join(', ');
  return `unexpected ${named.join(', ')}${extra.length > 3 ? ' and more' : ''}; the message may carry only ${only}`;
}

function notMatched(): string {
  return 'it matches no JSON-RPC 2.0 request, notification or response shape';
}

function isRequestId(value: unknown): boolean {
  return typeof value === 'string' || Number.isInteger(value);
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  const text = quoted(value);
  return `${typeof value === 'string' ? 'a string' : `a ${typeof value}`}${text === undefined ? '' : ` (${text})`}`;
}

/** `value` as JSON while short; a multi-megabyte value would otherwise be echoed back whole. */
function quoted(value: unknown): string | undefined {
  const text = JSON.stringify(value);
  return text.length <= 40 ? text : undefined;
}
