// A handler that calls ctx.requestInput, through each runner: a tool round, a resource read and a prompt get answer
// with the input_required result (no isError, no error log); a 2025-era refusal takes each family's failure path;
// a direct call, with no client to answer, reports what was asked.
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import { type Context, inputRequired, Prompt, Resource, Tool } from 'mcp-kiln';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { KilnApp } from '../../src/app/kiln-app.js';
import type { ContextSeed } from '../../src/context/create-context.js';
import type { CompiledTool } from '../../src/definitions/compiled-tool.js';
import { JsonRpcErrorCode } from '../../src/errors/json-rpc-error-code.js';
import { McpError } from '../../src/errors/mcp-error.js';
import { runOperation } from '../../src/pipeline/operation-runner.js';
import { PROMPT_OPERATION } from '../../src/pipeline/prompt-get.js';
import { RESOURCE_OPERATION } from '../../src/pipeline/resource-read.js';
import { runToolRound } from '../../src/pipeline/tool-pipeline.js';
import { bootApp, capturedLog, closeBootedApps, fixtureModule } from '../di/boot-app.js';

afterEach(closeBootedApps);

const Name = z.object({ name: z.string().describe('Your name') });
const ASK_NAME = { inputRequests: { name: inputRequired.elicit({ message: 'Your name?', requestedSchema: Name }) } };

function nameOrAsk(ctx: Context): string {
  return ctx.inputs.accepted('name', Name)?.name ?? ctx.requestInput(ASK_NAME, { fallbackHint: 'Or pass name.' });
}

@Tool('greet', { description: 'Greets the caller, asking for a name.', input: z.object({}) })
class GreetTool {
  handle(_input: unknown, ctx: Context) {
    ctx.content.image('iVBORw0KGgo=', 'image/png');
    ctx.enrich.notice('collected before asking');
    return `Hello, ${nameOrAsk(ctx)}!`;
  }
}

@Resource('test://greeting', { name: 'greeting', description: 'A greeting that asks for a name.' })
class GreetingResource {
  handle(_params: unknown, ctx: Context) {
    return `Hello, ${nameOrAsk(ctx)}!`;
  }
}

@Prompt('greeting', { description: 'A greeting prompt that asks for a name.' })
class GreetingPrompt {
  handle(_args: unknown, ctx: Context) {
    return `Greet ${nameOrAsk(ctx)}.`;
  }
}

let log: ReturnType<typeof capturedLog>;
let app: KilnApp;
beforeEach(async () => {
  log = capturedLog();
  app = await bootApp(
    fixtureModule({ tools: [GreetTool], resources: [GreetingResource], prompts: [GreetingPrompt] }),
    log.options,
  );
});

const ANSWERED = { name: { action: 'accept', content: { name: 'Ada' } } };
const seed = (overrides: Partial<ContextSeed> = {}): ContextSeed => ({
  requestId: 'REQ01-ROUND',
  tenantId: 'default',
  operation: 'greet',
  era: 'envelope',
  signal: new AbortController().signal,
  clientCapabilities: { elicitation: {} },
  channel: {},
  ...overrides,
});
const toolRound = (overrides?: Partial<ContextSeed>) => runToolRound(app.runtime, greetTool(), {}, seed(overrides));
const greetTool = () => app.runtime.tools.get('greet') as CompiledTool;
const requestLines = () => log.lines.filter((line) => line.requestId === 'REQ01-ROUND');

describe('asking for input', () => {
  it('ends a tool round with the input_required result: no isError, no content, nothing logged', async () => {
    expect(await toolRound()).toEqual(inputRequired(ASK_NAME));
    expect(requestLines()).toEqual([]);
  });

  it('ends a resource read and a prompt get with the same result', async () => {
    const { operation: _, ...readSeed } = seed();
    expect(await runOperation(RESOURCE_OPERATION, app.runtime, 'test://greeting', undefined, readSeed)).toEqual(
      inputRequired(ASK_NAME),
    );
    expect(await runOperation(PROMPT_OPERATION, app.runtime, 'greeting', {}, readSeed)).toEqual(
      inputRequired(ASK_NAME),
    );
    expect(requestLines()).toEqual([]);
  });

  it('completes the round that carries the answer', async () => {
    const result = await toolRound({ inputResponses: ANSWERED });
    expect(result).toMatchObject({ content: [{ type: 'image' }, { type: 'text', text: 'Hello, Ada!' }] });
    expect(result).not.toHaveProperty('isError');
    const { operation: _, ...readSeed } = seed({ inputResponses: ANSWERED });
    expect(await runOperation(RESOURCE_OPERATION, app.runtime, 'test://greeting', undefined, readSeed)).toMatchObject({
      contents: [{ uri: 'test://greeting', text: 'Hello, Ada!' }],
    });
    expect(await runOperation(PROMPT_OPERATION, app.runtime, 'greeting', {}, readSeed)).toMatchObject({
      messages: [{ role: 'user', content: { type: 'text', text: 'Greet Ada.' } }],
    });
  });

  it('asks again when the answer is of a kind the client never declared', async () => {
    const result = await toolRound({ inputResponses: ANSWERED, clientCapabilities: { elicitation: { url: {} } } });
    expect(result).toEqual(inputRequired(ASK_NAME));
  });
});

describe('a 2025-era client without the capability', () => {
  const handshake = (clientCapabilities: ClientCapabilities | undefined) =>
    seed({ era: 'handshake', clientCapabilities });

  it('gets the tool error envelope, logged at notice', async () => {
    const result = await runToolRound(app.runtime, greetTool(), {}, handshake({}));
    expect(result).toMatchObject({
      isError: true,
      structuredContent: {
        error: {
          code: JsonRpcErrorCode.InvalidRequest,
          data: {
            reason: 'client_capability_missing',
            recovery: {
              hint: 'Reconnect with a client that declares the `elicitation.form` capability. Or pass name.',
            },
            requestId: 'REQ01-ROUND',
          },
        },
      },
    });
    expect(requestLines()).toEqual([
      expect.objectContaining({ level: 'notice', reason: 'client_capability_missing', code: -32600 }),
    ]);
  });

  it('gets a JSON-RPC error from a resource read and a prompt get', async () => {
    const { operation: _, ...readSeed } = handshake(undefined);
    for (const round of [
      runOperation(RESOURCE_OPERATION, app.runtime, 'test://greeting', undefined, readSeed),
      runOperation(PROMPT_OPERATION, app.runtime, 'greeting', {}, readSeed),
    ]) {
      const error = await round.then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(McpError);
      expect(error).toMatchObject({
        code: JsonRpcErrorCode.InvalidRequest,
        data: {
          reason: 'client_capability_missing',
          recovery: { hint: expect.stringMatching(/^Reconnect through a stateful session .*`elicitation\.form`/) },
          requestId: 'REQ01-ROUND',
        },
      });
    }
  });
});

describe('a direct call', () => {
  it('reports what the handler asked, since no client can answer it', async () => {
    const result = await app.callTool('greet', {});
    expect(result.isError).toBe(true);
    expect(result.content).toHaveLength(1);
    expect(result.structuredContent).toMatchObject({
      error: {
        code: JsonRpcErrorCode.InvalidRequest,
        message: "greet asked the caller for input ('name'), and a direct call has no client to answer it.",
        data: { reason: 'input_required', inputRequests: ASK_NAME.inputRequests },
      },
    });
    await expect(app.readResource('test://greeting')).rejects.toMatchObject({ data: { reason: 'input_required' } });
    await expect(app.getPrompt('greeting')).rejects.toMatchObject({ data: { reason: 'input_required' } });
  });
});
