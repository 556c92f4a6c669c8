// Test helper: drives rounds of a tool call through runToolRound the way the era bridge seeds them, with the
// requestState and answers a retry carries, for the consent gate tests.
import type { ClientCapabilities, InputRequiredResult } from '@modelcontextprotocol/server';
import { isInputRequiredResult } from '@modelcontextprotocol/server';
import { expect } from 'vitest';
import type { KilnApp } from '../../src/app/kiln-app.js';
import type { ContextSeed } from '../../src/context/create-context.js';
import type { AuthContext } from '../../src/context/request-context.js';
import type { CompiledTool } from '../../src/definitions/compiled-tool.js';
import { runToolRound } from '../../src/pipeline/tool-pipeline.js';

export const FORM_CLIENT: ClientCapabilities = { elicitation: { form: {} } };
export const ACCEPT = { action: 'accept', content: { confirm: true } } as const;

export interface Retry {
  /** The requestState the retry echoes. */
  readonly state?: unknown;
  /** The client's answer under the gate's `confirm` key. */
  readonly answer?: unknown;
  readonly auth?: AuthContext;
  readonly clientCapabilities?: ClientCapabilities;
  readonly requestId?: string;
}

export function roundSeed(operation: string, retry: Retry = {}): ContextSeed {
  return {
    requestId: retry.requestId ?? 'REQ01-GATE',
    tenantId: 'default',
    operation,
    era: 'envelope',
    signal: new AbortController().signal,
    clientCapabilities: retry.clientCapabilities ?? FORM_CLIENT,
    channel: {},
    ...(retry.auth ? { auth: retry.auth } : {}),
    ...(retry.answer === undefined ? {} : { inputResponses: { confirm: retry.answer } }),
    ...(retry.state === undefined ? {} : { requestState: <T>() => retry.state as T }),
  };
}

export function toolRound(app: KilnApp, name: string, args: unknown, retry?: Retry) {
  const tool = app.runtime.tools.get(name) as CompiledTool;
  return runToolRound(app.runtime, tool, args, roundSeed(name, retry));
}

/** The round's fresh consent prompt; fails the test when the round did anything else. */
export async function expectPrompt(round: Promise<unknown>): Promise<InputRequiredResult & { requestState: string }> {
  const result = await round;
  expect(isInputRequiredResult(result), `expected a consent prompt, got ${JSON.stringify(result)}`).toBe(true);
  const prompt = result as InputRequiredResult;
  expect(prompt.requestState).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  return prompt as InputRequiredResult & { requestState: string };
}
