// createTestingModule: the real module graph compiled with providers overridden, direct calls, root singletons,
// and SDK clients connected in memory on both eras.
import { createToken, type HandlerContext, inputRequired, Module, STORAGE, Tool } from 'mcp-kiln';
import { KilnBootError } from 'mcp-kiln/errors';
import {
  createInMemoryStorage,
  createMockContext,
  createTestingModule,
  ENVELOPE_PROTOCOL_VERSION,
  type TestingApp,
} from 'mcp-kiln/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { NotesModule } from '../../examples/notes/notes.module.js';
import { Clock, InventoryModule, InventoryService, SHOP_NAME } from './fixtures/inventory.js';

const apps: TestingApp[] = [];
const track = (app: TestingApp) => {
  apps.push(app);
  return app;
};
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

class FrozenClock {
  now(): string {
    return 'frozen';
  }
}

describe('createTestingModule overrides', () => {
  it('compiles the real graph when nothing is overridden', async () => {
    const app = track(await createTestingModule({ imports: [InventoryModule] }).compile());
    const result = await app.callTool('inventory_get_item', { id: 'hammer' });
    expect(result.structuredContent).toEqual({
      id: 'hammer',
      label: 'Claw hammer',
      checkedAt: '2026-01-01T00:00:00.000Z',
    });
    expect(app.get(InventoryService)).toBeInstanceOf(InventoryService);
  });

  it('useValue replaces the instance a tool receives', async () => {
    const fake = { find: () => ({ id: 'x', label: 'Fake' }), stamp: () => 'then' };
    const app = track(
      await createTestingModule({ imports: [InventoryModule] })
        .overrideProvider(InventoryService)
        .useValue(fake as unknown as InventoryService)
        .compile(),
    );
    expect((await app.callTool('inventory_get_item', { id: 'x' })).structuredContent).toEqual({
      id: 'x',
      label: 'Fake',
      checkedAt: 'then',
    });
    expect(app.get(InventoryService)).toBe(fake);
  });

  it('useClass replaces a transitive dependency, built by the container', async () => {
    const app = track(
      await createTestingModule({ imports: [InventoryModule] })
        .overrideProvider(Clock)
        .useClass(FrozenClock)
        .compile(),
    );
    expect((await app.callTool('inventory_get_item', { id: 'hammer' })).structuredContent).toMatchObject({
      label: 'Claw hammer',
      checkedAt: 'frozen',
    });
    expect(app.get(Clock)).toBeInstanceOf(FrozenClock);
  });

  it('useFactory builds the replacement from injected tokens, and overrides chain', async () => {
    const app = track(
      await createTestingModule({ imports: [InventoryModule] })
        .overrideProvider(Clock)
        .useClass(FrozenClock)
        .overrideProvider(SHOP_NAME)
        .useFactory({ factory: async (clock: Clock) => `Pop-up (${clock.now()})`, inject: [Clock] })
        .compile(),
    );
    expect((await app.callTool('inventory_render_badge', { label: 'Nails' })).structuredContent).toEqual({
      label: 'Pop-up (frozen): Nails',
      totalCount: 1,
    });
    expect(app.get(SHOP_NAME)).toBe('Pop-up (frozen)');
  });

  it('rejects an override of a token no module provides, naming every such token', async () => {
    const UNKNOWN = createToken<number>('UNKNOWN_TOKEN');
    class Unrelated {}
    const compile = createTestingModule({ imports: [InventoryModule] })
      .overrideProvider(UNKNOWN)
      .useValue(1)
      .overrideProvider(Unrelated)
      .useValue(new Unrelated())
      .compile();
    await expect(compile).rejects.toBeInstanceOf(KilnBootError);
    await expect(compile).rejects.toThrow(/overrideProvider\(UNKNOWN_TOKEN\): no module imported/);
    await expect(compile).rejects.toThrow(/overrideProvider\(Unrelated\)/);
  });

  it('replaces the framework StorageService through any override kind, and get() finds it', async () => {
    const storage = createInMemoryStorage();
    const app = track(
      await createTestingModule({ imports: [InventoryModule] })
        .overrideProvider(STORAGE)
        .useValue(storage)
        .compile(),
    );
    await app.callTool('inventory_render_badge', { label: 'Nails' });
    expect(await createMockContext({ storage }).state.get('badges/count')).toBe(1);
    const byFactory = track(
      await createTestingModule({ imports: [InventoryModule] })
        .overrideProvider(STORAGE)
        .useFactory({ factory: () => storage })
        .compile(),
    );
    expect(byFactory.get(STORAGE)).toBe(storage);
  });
});

describe('TestingApp', () => {
  it('runs direct calls as the compile-time tenant unless a call names another', async () => {
    const app = track(await createTestingModule({ imports: [InventoryModule] }).compile({ tenantId: 'acme' }));
    await app.callTool('inventory_render_badge', { label: 'a' });
    const acme = await app.callTool('inventory_render_badge', { label: 'b' });
    const globex = await app.callTool('inventory_render_badge', { label: 'c' }, { tenantId: 'globex' });
    expect(acme.structuredContent).toMatchObject({ totalCount: 2 });
    expect(globex.structuredContent).toMatchObject({ totalCount: 1 });
  });

  it('defaults MCP_LOG_LEVEL to error and lets env override it', async () => {
    const quiet = track(await createTestingModule({ imports: [InventoryModule] }).compile());
    const chatty = track(
      await createTestingModule({ imports: [InventoryModule] }).compile({ env: { MCP_LOG_LEVEL: 'critical' } }),
    );
    expect(quiet.app.config.logLevel).toBe('error');
    expect(chatty.app.config.logLevel).toBe('critical');
  });

  it('get refuses request-scoped and unprovided tokens with a reason', async () => {
    const PER_REQUEST = createToken<object>('PER_REQUEST');
    const app = track(
      await createTestingModule({
        imports: [InventoryModule],
        providers: [{ provide: PER_REQUEST, useFactory: () => ({}), scope: 'request' }],
      }).compile(),
    );
    expect(() => app.get(PER_REQUEST)).toThrow(/PER_REQUEST\): it is request-scoped/);
    expect(() => app.get(createToken('NOWHERE'))).toThrow(/NOWHERE\): no module/);
  });
});

describe('TestingApp.connectClient', () => {
  it.each([
    ['handshake', 'legacy', undefined],
    ['envelope', 'modern', '2026-07-28'],
  ] as const)('lists and calls tools over the %s era (the SDK client says %s)', async (era, sdkEra, version) => {
    const app = track(await createTestingModule({ imports: [InventoryModule] }).compile());
    const client = await app.connectClient({ era });
    expect(client.getProtocolEra()).toBe(sdkEra);
    if (version) expect(client.getNegotiatedProtocolVersion()).toBe(version);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['inventory_get_item', 'inventory_render_badge']);
    const result = await client.callTool({ name: 'inventory_get_item', arguments: { id: 'nope' } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      error: { data: { reason: 'no_match', recovery: { hint: expect.stringContaining('Search the inventory') } } },
    });
  });

  it('defaults to the handshake era and closes its clients with the app', async () => {
    const app = await createTestingModule({ imports: [InventoryModule] }).compile();
    const client = await app.connectClient();
    expect(client.getProtocolEra()).toBe('legacy');
    await app.close();
    await expect(client.callTool({ name: 'inventory_get_item', arguments: { id: 'hammer' } })).rejects.toThrow(
      /Not connected/,
    );
    await expect(app.connectClient()).rejects.toThrow(/closed/);
    await app.close();
  });
});

const NameAnswer = z.object({ name: z.string().describe('Your name') });

describe('connectClient capabilities', () => {
  it('declares what the test asks for, so a tool can elicit from the test client', async () => {
    @Tool('ask_name', {
      description: 'Asks the caller for a name and greets it.',
      input: z.object({}),
      output: z.object({ greeting: z.string().describe('The greeting') }),
    })
    class AskNameTool {
      handle(_input: Record<string, never>, ctx: HandlerContext) {
        const name = ctx.inputs.accepted('name', NameAnswer)?.name;
        if (!name) {
          return ctx.requestInput({
            inputRequests: { name: inputRequired.elicit({ message: 'Your name?', requestedSchema: NameAnswer }) },
          });
        }
        return { greeting: `Hello, ${name}!` };
      }
    }
    @Module({ tools: [AskNameTool] })
    class AskModule {}

    const app = await createTestingModule({ imports: [AskModule] }).compile();
    try {
      for (const era of ['handshake', 'envelope'] as const) {
        const client = await app.connectClient({ era, capabilities: { elicitation: { form: {} } } });
        client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { name: 'Ada' } }));
        const result = await client.callTool({ name: 'ask_name', arguments: {} });
        expect(result.structuredContent).toEqual({ greeting: 'Hello, Ada!' });
      }
    } finally {
      await app.close();
    }
  });
});

describe('TestingApp.http', () => {
  it("serves the app's endpoint and the test's own routes through inject(), without a socket", async () => {
    const testing = await createTestingModule({ imports: [NotesModule] }).compile();
    const fastify = await testing.http({
      prefix: '/mcp',
      configure: (instance) => {
        instance.get('/status', async () => ({ up: true }));
      },
    });
    const status = await fastify.inject({ method: 'GET', url: '/status' });
    expect(status.json()).toEqual({ up: true });
    const answer = await fastify.inject({
      method: 'POST',
      url: '/mcp',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': ENVELOPE_PROTOCOL_VERSION,
        'mcp-method': 'tools/call',
        'mcp-name': 'notes_create_note',
      },
      payload: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'notes_create_note',
          arguments: { title: 'Injected', body: 'No socket.', tags: [] },
          _meta: {
            'io.modelcontextprotocol/protocolVersion': ENVELOPE_PROTOCOL_VERSION,
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      },
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ id: 1, result: { structuredContent: { title: 'Injected' } } });
    await testing.close();
    await expect(testing.http()).rejects.toThrow('TestingApp.http: the app is closed.');
  });
});
