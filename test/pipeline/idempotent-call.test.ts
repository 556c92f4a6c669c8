// Idempotency keys on the in-process backends (in memory and on disk), both protocol versions, through the official
// SDK client: a retry with the key gets the first result without running the handler; keys are kept per caller and
// tenant; a call without a key runs as usual; an input round is no outcome; and the tool options are checked at boot.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Context, Injectable, Module, Tool } from 'mcp-kiln';
import { createTestingModule, type TestingApp, type TestingPrincipal } from 'mcp-kiln/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bootProblems, closeBootedApps, fixtureModule } from '../di/boot-app.js';

const KEY_META = 'mcp-kiln/idempotency-key';
const REPLAY_META = 'mcp-kiln/idempotent-replay';

@Injectable()
class Runs {
  count = 0;
}

@Tool('order_place', {
  description: 'Places an order for an item and returns its number; asks for confirmation when told to.',
  input: z.object({
    item: z.string().describe('What to order'),
    confirm: z.boolean().default(false).describe('Ask the user to confirm first'),
  }),
  output: z.object({ order: z.number().describe('The order number') }),
  idempotent: { ttlMs: 60_000 },
})
class PlaceOrder {
  constructor(private readonly runs: Runs) {}

  async handle(input: { item: string; confirm: boolean }, ctx: Context) {
    if (input.confirm && !ctx.inputs.accepted('ok', z.object({ ok: z.boolean() }))) {
      return ctx.requestInput({
        inputRequests: {
          ok: {
            method: 'elicitation/create',
            params: {
              mode: 'form',
              message: 'Order?',
              requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
            },
          },
        },
      });
    }
    this.runs.count++;
    await ctx.state.set(`orders/${this.runs.count}`, input.item);
    return { order: this.runs.count };
  }
}

@Module({ tools: [PlaceOrder], providers: [Runs] })
class OrdersModule {}

const apps: TestingApp[] = [];
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  await closeBootedApps();
});

async function start(backend: 'in-memory' | 'filesystem'): Promise<TestingApp> {
  const env: Record<string, string> = { STORAGE_PROVIDER_TYPE: backend };
  if (backend === 'filesystem') {
    const dir = await mkdtemp(join(tmpdir(), 'kiln-idempotency-'));
    dirs.push(dir);
    env.STORAGE_FILESYSTEM_PATH = dir;
  }
  const app = await createTestingModule({ imports: [OrdersModule] }).compile({ env });
  apps.push(app);
  return app;
}

describe.each([
  ['in-memory', 'handshake'],
  ['in-memory', 'envelope'],
  ['filesystem', 'handshake'],
  ['filesystem', 'envelope'],
] as const)('idempotency keys on %s storage, %s protocol', (backend, era) => {
  async function client(app: TestingApp, auth?: TestingPrincipal) {
    const connected = await app.connectClient({ era, ...(auth ? { auth } : {}) });
    return (item: string, key?: string, confirm = false) =>
      connected.callTool({
        name: 'order_place',
        arguments: { item, confirm },
        ...(key === undefined ? {} : { _meta: { [KEY_META]: key } }),
      });
  }

  it('answers a retry with the first result and does not run the handler again', async () => {
    const app = await start(backend);
    const place = await client(app);
    const first = await place('tea', 'k-1');
    expect(first.structuredContent).toEqual({ order: 1 });
    expect(first._meta?.[REPLAY_META]).toBeUndefined();
    const retry = await place('tea', 'k-1');
    expect(retry.structuredContent).toEqual({ order: 1 });
    expect(retry._meta?.[REPLAY_META]).toBe(true);
    expect(app.app.get(Runs).count).toBe(1);

    expect((await place('tea')).structuredContent).toEqual({ order: 2 });
    expect((await place('tea')).structuredContent).toEqual({ order: 3 });
    expect((await place('tea', 'k-2')).structuredContent).toEqual({ order: 4 });
  });

  it('keeps each caller’s keys to itself', async () => {
    const app = await start(backend);
    const alice = await client(app, { clientId: 'shop', subject: 'alice', tenantId: 'acme' });
    const bob = await client(app, { clientId: 'shop', subject: 'bob', tenantId: 'acme' });
    const elsewhere = await client(app, { clientId: 'shop', subject: 'alice', tenantId: 'globex' });
    expect((await alice('tea', 'same')).structuredContent).toEqual({ order: 1 });
    expect((await bob('tea', 'same')).structuredContent).toEqual({ order: 2 });
    expect((await elsewhere('tea', 'same')).structuredContent).toEqual({ order: 3 });
    expect((await alice('tea', 'same')).structuredContent).toEqual({ order: 1 });
  });

  it('records no outcome for an input round: the round carrying the answer runs under the same key', async () => {
    const app = await start(backend);
    const connected = await app.connectClient({ era, capabilities: { elicitation: { form: {} } } });
    let asked = 0;
    connected.setRequestHandler('elicitation/create', async () => {
      asked++;
      return { action: 'accept', content: { ok: true } };
    });
    const call = () =>
      connected.callTool({
        name: 'order_place',
        arguments: { item: 'cake', confirm: true },
        _meta: { [KEY_META]: 'k-3' },
      });
    expect((await call()).structuredContent).toEqual({ order: 1 });
    expect(asked).toBe(1);
    const retry = await call();
    expect(retry.structuredContent).toEqual({ order: 1 });
    expect(retry._meta?.[REPLAY_META]).toBe(true);
    expect(asked).toBe(1);
    expect(app.app.get(Runs).count).toBe(1);
  });
});

describe('idempotent tools at boot', () => {
  it('refuses idempotent with task, and a ttlMs out of range', async () => {
    @Tool('job_run', {
      description: 'Runs a job as a task.',
      input: z.object({}),
      task: 'optional',
      idempotent: true,
    })
    class JobRun {
      handle() {
        return 'done';
      }
    }
    @Tool('quick_note', { description: 'Writes a note.', input: z.object({}), idempotent: { ttlMs: 10 } })
    class QuickNote {
      handle() {
        return 'noted';
      }
    }
    expect(await bootProblems(fixtureModule({ tools: [JobRun, QuickNote] }))).toEqual([
      expect.stringMatching(/^Tool job_run \(JobRun\) declares both idempotent and task/),
      expect.stringMatching(/^Tool quick_note \(QuickNote\) declares idempotent.ttlMs 10: use an integer from 1000/),
    ]);
  });
});
