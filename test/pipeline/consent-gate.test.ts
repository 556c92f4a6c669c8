// The @RequiresConsent gate at the pipeline level: a gated handler runs only on the round that redeems a record
// this server minted for this operation, caller, target and content, and whose answer confirms. Every other round
// (no record, an unknown, spent, expired or foreign one, no answer) is a fresh prompt; a decline or cancel is final.
import { type Context, inputRequired, RequiresConsent, Tool } from 'mcp-kiln';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { KilnApp } from '../../src/app/kiln-app.js';
import { JsonRpcErrorCode } from '../../src/errors/json-rpc-error-code.js';
import { ConfirmSchema, ConsentRecordSchema } from '../../src/pipeline/consent-gate.js';
import { InMemoryStorageProvider, StorageService } from '../../src/storage/index.js';
import { bootApp, capturedLog, closeBootedApps, fixtureModule } from '../di/boot-app.js';
import { manualClock } from '../storage/storage-test-helpers.js';
import { ACCEPT, expectPrompt, type Retry, toolRound } from './consent-rounds.js';

afterEach(closeBootedApps);

const Input = z.object({ path: z.string().describe('Path to act on') });
type PathInput = z.output<typeof Input>;

/** What each path holds; the gates hash it, so a test can change a target between prompt and retry. */
const contents = new Map<string, string>();
let removed: string[];

@Tool('fixture_remove', { description: 'Removes a path once the user confirms.', input: Input })
@RequiresConsent({
  message: (input: PathInput) => `Remove ${input.path}?`,
  target: (input) => input.path,
  contentHash: (input) => contents.get(input.path) ?? '',
})
class RemoveTool {
  handle(input: PathInput) {
    removed.push(input.path);
    return `Removed ${input.path}.`;
  }
}

@Tool('fixture_archive', { description: 'Archives a path once the user confirms.', input: Input })
@RequiresConsent({ message: 'Archive it?', target: (input: PathInput) => input.path, ttlSeconds: 5 })
class ArchiveTool {
  handle(input: PathInput) {
    return `Archived ${input.path}.`;
  }
}

@Tool('fixture_ask_more', {
  description: 'Asks for more input after the gate, which a gated tool cannot.',
  input: Input,
})
@RequiresConsent({ message: 'Go on?', target: (input: PathInput) => input.path })
class AskMoreTool {
  handle(_input: PathInput, ctx: Context) {
    return ctx.requestInput({
      inputRequests: { more: inputRequired.elicit({ message: 'More?', requestedSchema: ConfirmSchema }) },
    });
  }
}

const clock = manualClock();
let app: KilnApp;
let log: ReturnType<typeof capturedLog>;
beforeEach(async () => {
  removed = [];
  contents.clear();
  contents.set('/a', 'alpha');
  contents.set('/b', 'beta');
  log = capturedLog();
  const storage = new StorageService(new InMemoryStorageProvider({ now: clock.now }));
  app = await bootApp(fixtureModule({ tools: [RemoveTool, ArchiveTool, AskMoreTool] }), { ...log.options, storage });
});

const remove = (path: string, retry?: Retry) => toolRound(app, 'fixture_remove', { path }, retry);
const state = () => app.runtime.services.stateFor('default');

describe('the first round', () => {
  it('asks with a confirm form and mints a record of what the prompt confirms; the handler does not run', async () => {
    const prompt = await expectPrompt(remove('/a'));
    expect(prompt.inputRequests).toEqual({
      confirm: inputRequired.elicit({ message: 'Remove /a?', requestedSchema: ConfirmSchema }),
    });
    expect(prompt.inputRequests?.confirm).toMatchObject({
      method: 'elicitation/create',
      params: {
        mode: 'form',
        requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
      },
    });
    expect(await state().get(`consent/${prompt.requestState}`, ConsentRecordSchema)).toEqual({
      operation: 'fixture_remove',
      clientId: '',
      subject: '',
      target: '/a',
      contentHash: 'alpha',
    });
    expect(removed).toEqual([]);
  });

  it('binds the authenticated caller into the record', async () => {
    const auth = { clientId: 'desk-app', subject: 'alice', scopes: [] };
    const prompt = await expectPrompt(remove('/a', { auth }));
    expect(await state().get(`consent/${prompt.requestState}`)).toMatchObject({
      clientId: 'desk-app',
      subject: 'alice',
    });
  });
});

describe('a retry that redeems a matching record', () => {
  it('runs the handler once on a confirmed yes, and spends the record', async () => {
    const { requestState } = await expectPrompt(remove('/a'));
    const result = await remove('/a', { state: requestState, answer: ACCEPT });
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'Removed /a.' }] });
    expect(removed).toEqual(['/a']);
    expect(await state().get(`consent/${requestState}`)).toBeNull();
  });

  it.each([
    ['declines', { action: 'decline' }, 'The user declined fixture_remove; nothing was done.'],
    ['cancels', { action: 'cancel' }, 'The user cancelled the confirmation of fixture_remove; nothing was done.'],
    [
      'answers no',
      { action: 'accept', content: { confirm: false } },
      'The user did not confirm fixture_remove; nothing was done.',
    ],
  ])('fails with consent_declined when the user %s, and never proceeds', async (_label, answer, message) => {
    const { requestState } = await expectPrompt(remove('/a'));
    const result = await remove('/a', { state: requestState, answer });
    expect(result).toMatchObject({
      isError: true,
      structuredContent: {
        error: {
          code: JsonRpcErrorCode.Forbidden,
          message,
          data: {
            reason: 'consent_declined',
            recovery: {
              hint: 'Do not call it again unless the user asks for it; a new call asks the user to confirm again.',
            },
            requestId: 'REQ01-GATE',
          },
        },
      },
    });
    expect(removed).toEqual([]);
    // The declined record is spent: replaying it with a yes asks again instead of acting.
    await expectPrompt(remove('/a', { state: requestState, answer: ACCEPT }));
    expect(removed).toEqual([]);
  });

  it('asks again when the round carries no answer or an invalid one, spending the record either way', async () => {
    for (const answer of [undefined, { action: 'accept', content: { confirm: 'yes' } }, { action: 'accept' }]) {
      const { requestState } = await expectPrompt(remove('/a'));
      const again = await expectPrompt(remove('/a', { state: requestState, answer }));
      expect(again.requestState).not.toBe(requestState);
      await expectPrompt(remove('/a', { state: requestState, answer: ACCEPT }));
    }
    expect(removed).toEqual([]);
  });

  it('asks again when the answer is of a kind the client never declared (filtered off ctx.inputs)', async () => {
    const { requestState } = await expectPrompt(remove('/a'));
    await expectPrompt(
      remove('/a', { state: requestState, answer: ACCEPT, clientCapabilities: { elicitation: { url: {} } } }),
    );
    expect(removed).toEqual([]);
  });
});

describe('a retry that proves nothing gets a fresh prompt, never a proceed', () => {
  it('a pre-answered yes with no requestState at all', async () => {
    const prompt = await expectPrompt(remove('/a', { answer: ACCEPT }));
    expect(await state().get(`consent/${prompt.requestState}`)).not.toBeNull();
    expect(removed).toEqual([]);
  });

  it('an unknown id, a requestState that is no record id, and a non-string requestState', async () => {
    for (const unknown of ['0b8a1a8e-5c1f-4f57-9a52-3f0b0e6f7c11', 'consent/../x', '', { id: 1 }]) {
      await expectPrompt(remove('/a', { state: unknown, answer: ACCEPT }));
    }
    expect(removed).toEqual([]);
  });

  it('a used id: the record that let one call through never lets a second through', async () => {
    const { requestState } = await expectPrompt(remove('/a'));
    await remove('/a', { state: requestState, answer: ACCEPT });
    const replay = await expectPrompt(remove('/a', { state: requestState, answer: ACCEPT }));
    expect(replay.requestState).not.toBe(requestState);
    expect(removed).toEqual(['/a']);
  });

  it('an expired id (default TTL 600 s), while one redeemed in time still proceeds', async () => {
    const late = await expectPrompt(remove('/a'));
    clock.advanceSeconds(599);
    const timely = await expectPrompt(remove('/a'));
    clock.advanceSeconds(1);
    await expectPrompt(remove('/a', { state: late.requestState, answer: ACCEPT }));
    expect(removed).toEqual([]);
    await remove('/a', { state: timely.requestState, answer: ACCEPT });
    expect(removed).toEqual(['/a']);
  });

  it('an id past the tool’s own ttlSeconds', async () => {
    const archive = (retry?: Retry) => toolRound(app, 'fixture_archive', { path: '/a' }, retry);
    const { requestState } = await expectPrompt(archive());
    clock.advanceSeconds(5);
    await expectPrompt(archive({ state: requestState, answer: ACCEPT }));
    const fresh = await expectPrompt(archive());
    clock.advanceSeconds(4);
    expect(await archive({ state: fresh.requestState, answer: ACCEPT })).toMatchObject({
      content: [{ type: 'text', text: 'Archived /a.' }],
    });
  });

  it('a record minted for another operation', async () => {
    const { requestState } = await expectPrompt(toolRound(app, 'fixture_archive', { path: '/a' }));
    await expectPrompt(remove('/a', { state: requestState, answer: ACCEPT }));
    expect(removed).toEqual([]);
  });

  it('a record minted for another target', async () => {
    const { requestState } = await expectPrompt(remove('/a'));
    await expectPrompt(remove('/b', { state: requestState, answer: ACCEPT }));
    expect(removed).toEqual([]);
  });

  it.each([
    ['another subject', { clientId: 'desk-app', subject: 'bob', scopes: [] }],
    ['another client', { clientId: 'other-app', subject: 'alice', scopes: [] }],
    ['no authenticated caller', undefined],
  ])('a record minted for another caller: %s', async (_label, auth) => {
    const alice = { clientId: 'desk-app', subject: 'alice', scopes: [] };
    const { requestState } = await expectPrompt(remove('/a', { auth: alice }));
    await expectPrompt(remove('/a', { state: requestState, answer: ACCEPT, ...(auth ? { auth } : {}) }));
    expect(removed).toEqual([]);
  });

  it('a record whose target has changed since the prompt (content hash)', async () => {
    const { requestState } = await expectPrompt(remove('/a'));
    contents.set('/a', 'alpha, edited');
    await expectPrompt(remove('/a', { state: requestState, answer: ACCEPT }));
    expect(removed).toEqual([]);
  });

  it('a record that is not a consent record', async () => {
    const id = '6f1d2a34-8b7c-4e21-9d3f-0a1b2c3d4e5f';
    await state().set(`consent/${id}`, { operation: 'fixture_remove', target: '/a' });
    await expectPrompt(remove('/a', { state: id, answer: ACCEPT }));
    expect(removed).toEqual([]);
  });
});

describe('a gated handler that asks for input itself', () => {
  it('fails as a server bug instead of looping through consent prompts', async () => {
    const ask = (retry?: Retry) => toolRound(app, 'fixture_ask_more', { path: '/a' }, retry);
    const { requestState } = await expectPrompt(ask());
    const result = await ask({ state: requestState, answer: ACCEPT });
    expect(result).toMatchObject({
      isError: true,
      structuredContent: { error: { code: JsonRpcErrorCode.InternalError } },
    });
    expect(log.lines).toContainEqual(
      expect.objectContaining({
        level: 'error',
        err: expect.objectContaining({
          message: expect.stringContaining('is behind @RequiresConsent and asked for input'),
        }),
      }),
    );
  });
});
