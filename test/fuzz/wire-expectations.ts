// What the edge owes each message it receives (JSON-RPC 2.0 §5): a request gets exactly one response with its id;
// a notification or a stray response gets none; anything else gets one error, with the id when it could be read and
// null otherwise. Shapes are judged by the SDK's own guards, the same ones both transports use.
import { isJSONRPCNotification, isJSONRPCRequest, isJSONRPCResponse } from '@modelcontextprotocol/server';
import { expect } from 'vitest';

export type JsonRpcId = string | number | null;

export type Owed =
  | { readonly kind: 'response'; readonly id: string | number }
  | { readonly kind: 'nothing' }
  | { readonly kind: 'error'; readonly ids: readonly JsonRpcId[] }
  | { readonly kind: 'batch'; readonly members: readonly Owed[] };

export interface WireAnswer {
  readonly id?: unknown;
  readonly result?: unknown;
  readonly error?: { readonly code?: unknown; readonly message?: unknown };
  readonly method?: unknown;
}

/** What one message's bytes are owed, decoded as UTF-8 as both edges decode them. */
export function owedFor(bytes: Buffer): Owed {
  let message: unknown;
  try {
    message = JSON.parse(bytes.toString('utf8'));
  } catch {
    return { kind: 'error', ids: [null] };
  }
  if (Array.isArray(message)) return { kind: 'batch', members: message.map(owedForMessage) };
  return owedForMessage(message);
}

function owedForMessage(message: unknown): Owed {
  if (isJSONRPCRequest(message)) return { kind: 'response', id: message.id };
  if (isJSONRPCNotification(message) || isJSONRPCResponse(message)) return { kind: 'nothing' };
  const id = (message as { id?: unknown } | null)?.id;
  const readable = typeof id === 'string' || typeof id === 'number';
  return { kind: 'error', ids: readable ? [null, id] : [null] };
}

/** The ids in a message an answer may carry: requests', batch members', and those readable in an invalid message. */
function answerIds(owed: Owed): (string | number)[] {
  if (owed.kind === 'response') return [owed.id];
  if (owed.kind === 'batch') return owed.members.flatMap(answerIds);
  if (owed.kind === 'error') return owed.ids.filter((id) => id !== null);
  return [];
}

/**
 * True when no id repeats across messages sent together: a client must not reuse an id while its request is in
 * flight (JSON-RPC 2.0 §4), and with a repeat an answer could not be told apart from another's.
 */
export function distinctIds(owed: readonly Owed[]): boolean {
  const ids = owed.flatMap(answerIds);
  return new Set(ids).size === ids.length;
}

/** Responses among what the server wrote (its own requests and notifications are not answers). */
export function responsesIn(messages: readonly WireAnswer[]): WireAnswer[] {
  return messages.filter((message) => message.method === undefined && ('result' in message || 'error' in message));
}

/** Checks the responses a message drew against what it was owed. */
export function expectOwed(owed: Owed, responses: readonly WireAnswer[]): void {
  const shown = JSON.stringify(responses).slice(0, 1_000);
  switch (owed.kind) {
    case 'response':
      expect(responses.length, `one response to id ${JSON.stringify(owed.id)}, got ${shown}`).toBe(1);
      // `===`, not a deep equality: an id of -0 travels as 0 and is the same id.
      expect(responses[0]?.id === owed.id, `response id ${JSON.stringify(responses[0]?.id)}`).toBe(true);
      return;
    case 'nothing':
      expect(responses, 'a notification or stray response is not answered').toEqual([]);
      return;
    case 'error':
      expect(responses.length, `one error response, got ${shown}`).toBe(1);
      expectJsonRpcError(responses[0]!, owed.ids);
      return;
    case 'batch':
      expectBatchAnswered(owed.members, responses);
  }
}

/**
 * MCP dropped JSON-RPC batches (2025-06-18), so an edge may refuse a batch whole, with one error whose id is null;
 * an edge that still serves them must answer each member as if it came alone.
 */
function expectBatchAnswered(members: readonly Owed[], responses: readonly WireAnswer[]): void {
  if (responses.length === 1 && responses[0]?.id === null && 'error' in responses[0]) return;
  expectEachAnswered(members, responses);
}

/** Several messages' answers, in any order: each request's by its id, each refusal as an error with an allowed id. */
export function expectEachAnswered(members: readonly Owed[], responses: readonly WireAnswer[]): void {
  const unmatched = [...responses];
  for (const member of members) {
    if (member.kind !== 'response') continue;
    const index = unmatched.findIndex((answer) => answer.id === member.id);
    expect(index, `batch member ${JSON.stringify(member.id)} answered: ${JSON.stringify(responses)}`).not.toBe(-1);
    unmatched.splice(index, 1);
  }
  const refusals = members.flatMap((member) =>
    member.kind === 'error' ? [member.ids] : member.kind === 'batch' ? [[null]] : [],
  );
  expect(unmatched.length, `batch answers left over: ${JSON.stringify(unmatched)}`).toBe(refusals.length);
  for (const answer of unmatched) expectJsonRpcError(answer, refusals.flat());
}

export function expectJsonRpcError(answer: WireAnswer, ids: readonly JsonRpcId[]): void {
  expect(answer).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number), message: expect.any(String) } });
  expect(ids, `error id ${JSON.stringify(answer.id)} is one of ${JSON.stringify(ids)}`).toContainEqual(answer.id);
}
