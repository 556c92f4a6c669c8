// ctx.requestInput: throws the signal carrying the built input_required result, or, on a 2025-era request whose
// client did not declare what is asked, the client_capability_missing refusal naming the capability.
import { type ClientCapabilities, type InputRequest, inputRequired } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RequestInputOptions, RequestInputSpec } from '../../src/context/request-input.js';
import { InputRequiredSignal } from '../../src/context/request-input.js';
import { JsonRpcErrorCode } from '../../src/errors/json-rpc-error-code.js';
import { McpError } from '../../src/errors/mcp-error.js';
import { buildContext } from './context-fixtures.js';

const Name = z.object({ name: z.string().describe('Your name') });
const FORM = inputRequired.elicit({ message: 'Your name?', requestedSchema: Name });
const URL_MODE = inputRequired.elicitUrl({ message: 'Sign in', url: 'https://auth.example/start' });
const SAMPLING = inputRequired.createMessage({
  messages: [{ role: 'user', content: { type: 'text', text: 'Summarize.' } }],
  maxTokens: 20,
});
const SAMPLING_WITH_TOOLS = inputRequired.createMessage({
  messages: [{ role: 'user', content: { type: 'text', text: 'Look it up.' } }],
  maxTokens: 20,
  tools: [{ name: 'lookup', inputSchema: { type: 'object' } }],
});
const SAMPLING_WITH_TOOL_CHOICE = inputRequired.createMessage({
  messages: [{ role: 'user', content: { type: 'text', text: 'Decide.' } }],
  maxTokens: 20,
  toolChoice: { mode: 'none' },
});
const ROOTS = inputRequired.listRoots();

/** What ctx.requestInput threw for this request. */
function thrownBy(
  era: 'handshake' | 'envelope',
  clientCapabilities: ClientCapabilities | undefined,
  spec: RequestInputSpec,
  options?: RequestInputOptions,
): unknown {
  const { context } = buildContext({ era, clientCapabilities });
  try {
    context.requestInput(spec, options);
  } catch (error) {
    return error;
  }
  throw new Error('ctx.requestInput returned');
}

function refusal(thrown: unknown): McpError {
  expect(thrown).toBeInstanceOf(McpError);
  const error = thrown as McpError;
  expect(error.code).toBe(JsonRpcErrorCode.InvalidRequest);
  expect(error.data?.reason).toBe('client_capability_missing');
  return error;
}

describe('a request the client can answer', () => {
  it('throws the signal carrying the SDK’s input_required result', () => {
    const spec = { inputRequests: { name: FORM }, requestState: 'round-1' };
    const thrown = thrownBy('handshake', { elicitation: {} }, spec);
    expect(thrown).toBeInstanceOf(InputRequiredSignal);
    expect((thrown as InputRequiredSignal).result).toEqual(inputRequired(spec));
    expect((thrown as InputRequiredSignal).result).toMatchObject({
      resultType: 'input_required',
      requestState: 'round-1',
    });
  });

  it.each<[string, InputRequest, ClientCapabilities]>([
    ['form elicitation, bare elicitation: {}', FORM, { elicitation: {} }],
    ['form elicitation, elicitation.form', FORM, { elicitation: { form: {} } }],
    ['URL elicitation, elicitation.url', URL_MODE, { elicitation: { url: {} } }],
    ['sampling, sampling', SAMPLING, { sampling: {} }],
    ['sampling with tools, sampling.tools', SAMPLING_WITH_TOOLS, { sampling: { tools: {} } }],
    ['roots, roots', ROOTS, { roots: {} }],
  ])('passes on the 2025 era: %s', (_label, request, capabilities) => {
    expect(thrownBy('handshake', capabilities, { inputRequests: { key: request } })).toBeInstanceOf(
      InputRequiredSignal,
    );
  });

  it('is a TypeError at the call site when the spec asks for nothing and carries no state', () => {
    expect(thrownBy('envelope', {}, {})).toBeInstanceOf(TypeError);
  });
});

describe('the 2025-era refusal', () => {
  it.each<[string, InputRequest, ClientCapabilities, string]>([
    ['form elicitation, no elicitation', FORM, {}, 'elicitation.form'],
    ['form elicitation, URL mode only', FORM, { elicitation: { url: {} } }, 'elicitation.form'],
    ['URL elicitation, form mode only', URL_MODE, { elicitation: { form: {} } }, 'elicitation.url'],
    ['URL elicitation, bare elicitation: {}', URL_MODE, { elicitation: {} }, 'elicitation.url'],
    ['sampling, no sampling', SAMPLING, { elicitation: {} }, 'sampling'],
    ['sampling with tools, sampling only', SAMPLING_WITH_TOOLS, { sampling: {} }, 'sampling.tools'],
    ['sampling with toolChoice, sampling only', SAMPLING_WITH_TOOL_CHOICE, { sampling: {} }, 'sampling.tools'],
    ['roots, no roots', ROOTS, { sampling: {} }, 'roots'],
  ])('refuses %s, naming `%s`', (_label, request, capabilities, missing) => {
    const error = refusal(thrownBy('handshake', capabilities, { inputRequests: { ask: request } }));
    expect(error.message).toBe(
      `Cannot ask for input 'ask' (${request.method}): the client did not declare the \`${missing}\` capability.`,
    );
    expect(error.data?.recovery).toEqual({
      hint: `Reconnect with a client that declares the \`${missing}\` capability.`,
    });
    const [name, mode] = missing.split('.') as [string, string | undefined];
    expect(error.data?.requiredCapabilities).toEqual({ [name]: mode ? { [mode]: {} } : {} });
  });

  it('appends the fallback hint after a space', () => {
    const error = refusal(
      thrownBy(
        'handshake',
        {},
        { inputRequests: { noun: FORM } },
        { fallbackHint: 'Or call again with noun supplied.' },
      ),
    );
    expect(error.data?.recovery).toEqual({
      hint: 'Reconnect with a client that declares the `elicitation.form` capability. Or call again with noun supplied.',
    });
  });

  it('names every request and capability it cannot serve, and none it can', () => {
    const error = refusal(
      thrownBy('handshake', { sampling: {} }, { inputRequests: { name: FORM, summary: SAMPLING, roots: ROOTS } }),
    );
    expect(error.message).toBe(
      "Cannot ask for input 'name' (elicitation/create), 'roots' (roots/list): the client did not declare the " +
        '`elicitation.form` and `roots` capabilities.',
    );
    expect(error.data?.recovery).toEqual({
      hint: 'Reconnect with a client that declares the `elicitation.form` and `roots` capabilities.',
    });
    expect(error.data?.requiredCapabilities).toEqual({ elicitation: { form: {} }, roots: {} });
  });

  it('with no capability view names the per-request case and points at a stateful session', () => {
    const error = refusal(
      thrownBy('handshake', undefined, { inputRequests: { name: FORM } }, { fallbackHint: 'Or pass name.' }),
    );
    expect(error.message).toBe(
      "Cannot ask for input 'name' (elicitation/create): this 2025-era request was served per request, without a " +
        'session, so the server cannot send it requests.',
    );
    expect(error.data?.recovery).toEqual({
      hint:
        'Reconnect through a stateful session (MCP_SESSION_MODE=stateful or auto) with a client that declares the ' +
        '`elicitation.form` capability. Or pass name.',
    });
  });

  it('never gates a spec carrying only requestState', () => {
    for (const capabilities of [undefined, {}]) {
      const thrown = thrownBy('handshake', capabilities, { requestState: 'poll-3' });
      expect(thrown).toBeInstanceOf(InputRequiredSignal);
    }
  });

  it('is left to the SDK on the 2026-07-28 era, which answers -32021 itself', () => {
    for (const capabilities of [undefined, {}]) {
      expect(thrownBy('envelope', capabilities, { inputRequests: { name: FORM } })).toBeInstanceOf(InputRequiredSignal);
    }
  });
});
