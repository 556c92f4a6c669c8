// One multi-round-trip tool over real HTTP: it completes for a 2026-07-28 client (input_required rounds the SDK
// client fulfils) and for a sessionful 2025 client (the SDK's handshake-era shim sends elicitation/create), and refuses a
// 2025 client served per request with the client_capability_missing envelope, since nothing can reach it.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type HttpServing, http } from '../../modules/http/index.js';
import { KilnBootError } from '../../src/errors/index.js';
import { type HandlerContext, inputRequired, Module, Tool } from '../../src/index.js';
import { createTestingModule, type TestingApp } from '../../src/testing/index.js';

const Name = z.object({ name: z.string().describe('Your name') });
let handled = 0;

@Tool('fixture_greet_person', {
  description: 'Asks for a name when none is given, then greets that person.',
  input: z.object({}),
  output: z.object({ greeting: z.string().describe('The greeting') }),
})
class GreetTool {
  handle(_input: Record<string, never>, ctx: HandlerContext) {
    handled++;
    const name = ctx.inputs.accepted('name', Name)?.name;
    if (!name) {
      return ctx.requestInput(
        { inputRequests: { name: inputRequired.elicit({ message: 'What is your name?', requestedSchema: Name }) } },
        { fallbackHint: 'Or greet someone by name directly.' },
      );
    }
    return { greeting: `Hello, ${name}!` };
  }
}

@Module({ tools: [GreetTool] })
class GreetModule {}

let running: { testing: TestingApp; serving: HttpServing } | undefined;

async function start(sessionMode: string) {
  const testing = await createTestingModule({ imports: [GreetModule] }).compile({
    env: { MCP_TRANSPORT_TYPE: 'http', MCP_HTTP_PORT: '0', MCP_SESSION_MODE: sessionMode },
  });
  const serving = await testing.app.serve(http());
  running = { testing, serving };
  return serving;
}

async function connect(endpoint: string, era: 'handshake' | 'envelope') {
  const client = new Client(
    { name: `greet-${era}`, version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} } },
      ...(era === 'envelope' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    },
  );
  client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { name: 'Ada' } }));
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint)));
  return client;
}

afterEach(async () => {
  await running?.serving.close();
  await running?.testing.close();
  running = undefined;
  handled = 0;
});

describe('a tool that asks for input, over HTTP', () => {
  it('completes for a 2026-07-28 client through input_required rounds', async () => {
    const serving = await start('stateless');
    const client = await connect(serving.endpointUrl, 'envelope');
    const result = await client.callTool({ name: 'fixture_greet_person', arguments: {} });
    expect(result.structuredContent).toEqual({ greeting: 'Hello, Ada!' });
    expect(handled).toBe(2);
    await client.close();
  });

  it('completes for a sessionful 2025 client through the handshake-era shim', async () => {
    const serving = await start('stateful');
    const client = await connect(serving.endpointUrl, 'handshake');
    const result = await client.callTool({ name: 'fixture_greet_person', arguments: {} });
    expect(result.structuredContent).toEqual({ greeting: 'Hello, Ada!' });
    await client.close();
  });

  it('refuses a 2025 client served per request, saying why and what to do', async () => {
    const serving = await start('stateless');
    const client = await connect(serving.endpointUrl, 'handshake');
    const result = await client.callTool({ name: 'fixture_greet_person', arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      error: {
        code: -32600,
        data: {
          reason: 'client_capability_missing',
          recovery: { hint: expect.stringMatching(/stateful.*Or greet someone by name directly\.$/s) },
        },
      },
    });
    await client.close();
  });
});

describe('sessionMode.require', () => {
  const boot = (env: Record<string, string>) =>
    createTestingModule({ imports: [GreetModule] }).compile({
      sessionMode: { default: 'stateful', require: 'stateful' },
      env,
    });

  it('seeds the HTTP session mode from code', async () => {
    const testing = await boot({ MCP_TRANSPORT_TYPE: 'http' });
    expect(testing.app.config.http.sessionMode).toBe('stateful');
    await testing.close();
  });

  it('refuses to boot an HTTP server whose resolved mode is stateless, saying why', async () => {
    const booting = boot({ MCP_TRANSPORT_TYPE: 'http', MCP_SESSION_MODE: 'stateless' });
    await expect(booting).rejects.toBeInstanceOf(KilnBootError);
    await expect(booting).rejects.toThrow(/MCP_SESSION_MODE resolves to stateless.*requires 2025-era sessions/s);
  });

  it('lets MCP_SESSION_MODE choose auto, and stdio ignore the requirement', async () => {
    const auto = await boot({ MCP_TRANSPORT_TYPE: 'http', MCP_SESSION_MODE: 'auto' });
    expect(auto.app.config.http.sessionMode).toBe('auto');
    await auto.close();
    const stdio = await boot({ MCP_SESSION_MODE: 'stateless' });
    expect(stdio.app.config.transportType).toBe('stdio');
    await stdio.close();
  });
});
