// Fuzzed requests that reach Kiln's own pipeline (tools/call, prompts/get, resources/read with params the SDK's
// request schemas accept): whatever they carry, Kiln answers with a result or a typed error, and an internal error
// (-32603) is a server bug surfacing, never the caller's fault.
import { isJSONRPCRequest } from '@modelcontextprotocol/server';
import { expect } from 'vitest';
import type { WireAnswer } from './wire-expectations.js';

const INTERNAL_ERROR = -32603;

/** A request for one of Kiln's own operations, shaped so the SDK hands it on to Kiln. */
export function reachesKilnPipeline(message: unknown): message is { id: string | number } {
  if (!isJSONRPCRequest(message)) return false;
  const params = (message.params ?? {}) as Record<string, unknown>;
  const meta = params._meta;
  if (meta !== undefined && !isPlainObject(meta)) return false;
  switch (message.method) {
    case 'tools/call':
      return typeof params.name === 'string' && (params.arguments === undefined || isPlainObject(params.arguments));
    case 'prompts/get':
      return (
        typeof params.name === 'string' &&
        (params.arguments === undefined ||
          (isPlainObject(params.arguments) && Object.values(params.arguments).every((v) => typeof v === 'string')))
      );
    case 'resources/read':
      // URIs WHATWG URL cannot parse ("notes://a b", "notes://<") included: they once surfaced as -32603.
      return typeof params.uri === 'string';
    default:
      return false;
  }
}

/** Kiln answers what reaches its pipeline with a typed error (or a result), never a bare internal error. */
export function expectNoInternalError(bytes: Buffer, responses: readonly WireAnswer[]): void {
  let message: unknown;
  try {
    message = JSON.parse(bytes.toString('utf8'));
  } catch {
    return;
  }
  if (!reachesKilnPipeline(message)) return;
  const answer = responses.find((response) => response.id === message.id);
  expect(answer?.error?.code, `internal error: ${JSON.stringify(answer)}`).not.toBe(INTERNAL_ERROR);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
