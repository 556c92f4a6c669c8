// Guards, interceptors and exception filters around tools, resources and prompts, booted through the testing kit
// with real DI: the documented order of a chain, guard refusals and their envelopes on all three kinds, a per-call
// scope check, and the consent gate behind the guards.
import { Module, Prompt, RequiresConsent, Resource, Tool, UseFilters, UseGuards, UseInterceptors } from 'mcp-kiln';
import { JsonRpcErrorCode } from 'mcp-kiln/errors';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bootApp, capturedLog, closeBootedApps } from '../di/boot-app.js';
import {
  AdaOnlyGuard,
  AppParts,
  Caller,
  ClassParts,
  ForgetfulGuard,
  Journal,
  ModuleParts,
  SharedScopeGuard,
} from './fixtures/call-chain-parts.js';

afterEach(closeBootedApps);

const Text = z.object({ text: z.string().describe('Text to echo') });
const Echoed = z.object({ text: z.string().describe('The echoed text') });

@Tool('chain_echo', {
  description: 'Echo the given text back unchanged, for the call-chain tests.',
  input: Text,
  output: Echoed,
})
@UseGuards(ClassParts.Guard)
@UseInterceptors(ClassParts.Interceptor)
@UseFilters(ClassParts.Filter)
class EchoTool {
  constructor(private readonly journal: Journal) {}
  handle(input: z.output<typeof Text>) {
    this.journal.add('handler');
    if (input.text === 'fail') throw new Error('echo failed');
    return { text: input.text };
  }
}

@Module({
  providers: [Journal],
  exports: [Journal],
  tools: [EchoTool],
})
@UseGuards(ModuleParts.Guard)
@UseInterceptors(ModuleParts.Interceptor)
@UseFilters(ModuleParts.Filter)
class OrderedModule {}

describe('the order of a chain', () => {
  it('runs guards and interceptors app-wide → module → class, and asks filters class → module → app-wide', async () => {
    const app = await bootApp(OrderedModule, {
      ...capturedLog().options,
      guards: [AppParts.Guard],
      interceptors: [AppParts.Interceptor],
      filters: [AppParts.Filter],
    });
    const journal = app.get(Journal);
    expect((await app.callTool('chain_echo', { text: 'hi' })).structuredContent).toEqual({ text: 'hi' });
    expect(journal.entries.splice(0)).toEqual([
      'app:guard tool chain_echo',
      'module:guard tool chain_echo',
      'class:guard tool chain_echo',
      'app:before',
      'module:before',
      'class:before',
      'handler',
      'class:after',
      'module:after',
      'app:after',
    ]);
    expect((await app.callTool('chain_echo', { text: 'fail' })).isError).toBe(true);
    expect(journal.entries.slice(-3)).toEqual(['class:filter', 'module:filter', 'app:filter']);
  });
});

@Tool('chain_whoami', { description: 'Say who is calling, for the call-chain tests of guards.', input: z.object({}) })
@UseGuards(AdaOnlyGuard)
class WhoAmITool {
  constructor(private readonly caller: Caller) {}
  handle() {
    return `You are ${this.caller.subject}.`;
  }
}

@Resource('chain://secret', { name: 'secret', description: 'A secret only ada may read.', mimeType: 'text/plain' })
@UseGuards(AdaOnlyGuard)
class SecretResource {
  handle() {
    return 'the secret';
  }
}

@Prompt('chain_secret_prompt', { description: 'A prompt only ada may get.' })
@UseGuards(AdaOnlyGuard)
class SecretPrompt {
  handle() {
    return 'Tell me the secret.';
  }
}

const Shared = z.object({ shared: z.boolean().describe('Whether the call touches shared notes') });

@Tool('chain_touch_notes', {
  description: 'Touch notes, shared ones needing a scope, for the guard tests.',
  input: Shared,
})
@UseGuards(SharedScopeGuard)
class TouchNotesTool {
  handle() {
    return 'touched';
  }
}

@Tool('chain_forgetful', {
  description: 'A tool whose guard forgets to return, for the guard tests.',
  input: z.object({}),
})
@UseGuards(ForgetfulGuard)
class ForgetfulTool {
  handle() {
    return 'ran';
  }
}

const Target = z.object({ id: z.string().describe('What to delete') });

@Tool('chain_delete', { description: 'Delete a thing after asking, for the guard and consent tests.', input: Target })
@RequiresConsent({ message: 'Delete it?', target: (input: z.output<typeof Target>) => input.id })
@UseGuards(AdaOnlyGuard)
class DeleteTool {
  handle() {
    return 'deleted';
  }
}

@Module({
  providers: [Caller],
  tools: [WhoAmITool, TouchNotesTool, ForgetfulTool, DeleteTool],
  resources: [SecretResource],
  prompts: [SecretPrompt],
})
class GuardedModule {}

const ada = { clientId: 'c', subject: 'ada', scopes: [], tenantId: 'acme' };
const bob = { clientId: 'c', subject: 'bob', scopes: [] };

describe('guards', () => {
  it('let a call through with a service built from the request Context, and refuse another caller', async () => {
    const app = await bootApp(GuardedModule);
    expect((await app.callTool('chain_whoami', {}, { auth: ada })).content).toEqual([
      { type: 'text', text: 'You are ada.' },
    ]);
    const refused = await app.callTool('chain_whoami', {}, { auth: bob });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toEqual({
      error: {
        code: JsonRpcErrorCode.Forbidden,
        message: 'Tool chain_whoami was refused by AdaOnlyGuard.',
        data: {
          reason: 'forbidden_by_guard',
          guard: 'AdaOnlyGuard',
          recovery: { hint: expect.stringContaining('Do not retry it unchanged') },
          requestId: expect.any(String),
        },
      },
    });
  });

  it('refuse resource reads and prompt gets with a JSON-RPC error', async () => {
    const app = await bootApp(GuardedModule);
    expect((await app.readResource('chain://secret', { auth: ada })).contents).toEqual([
      { uri: 'chain://secret', mimeType: 'text/plain', text: 'the secret' },
    ]);
    await expect(app.readResource('chain://secret', { auth: bob })).rejects.toMatchObject({
      code: JsonRpcErrorCode.Forbidden,
      message: 'Resource secret was refused by AdaOnlyGuard.',
      data: { reason: 'forbidden_by_guard', guard: 'AdaOnlyGuard' },
    });
    await expect(app.getPrompt('chain_secret_prompt', {}, { auth: bob })).rejects.toMatchObject({
      data: { reason: 'forbidden_by_guard' },
    });
  });

  it('carry a scope check decided per call: ctx.requireScopes answers insufficient_scope', async () => {
    const app = await bootApp(GuardedModule);
    expect((await app.callTool('chain_touch_notes', { shared: false }, { auth: ada })).isError).toBeFalsy();
    const refused = await app.callTool('chain_touch_notes', { shared: true }, { auth: ada });
    expect(refused.structuredContent).toMatchObject({
      error: {
        code: JsonRpcErrorCode.Forbidden,
        data: { reason: 'insufficient_scope', requiredScopes: ['notes:shared'] },
      },
    });
    const granted = { ...ada, scopes: ['notes:shared'] };
    expect((await app.callTool('chain_touch_notes', { shared: true }, { auth: granted })).isError).toBeFalsy();
  });

  it('refuse when a guard returns anything but true', async () => {
    const app = await bootApp(GuardedModule);
    expect((await app.callTool('chain_forgetful', {})).structuredContent).toMatchObject({
      error: { data: { reason: 'forbidden_by_guard', guard: 'ForgetfulGuard' } },
    });
  });

  it('run before the consent gate: a refused caller is never asked to confirm', async () => {
    const app = await bootApp(GuardedModule);
    const refused = await app.callTool('chain_delete', { id: 'x' }, { auth: bob });
    expect(refused.structuredContent).toMatchObject({ error: { data: { reason: 'forbidden_by_guard' } } });
    // ada passes the guard and reaches the gate, which a direct call cannot answer.
    const asked = await app.callTool('chain_delete', { id: 'x' }, { auth: ada });
    expect(asked.structuredContent).toMatchObject({ error: { data: { reason: 'input_required' } } });
  });
});
