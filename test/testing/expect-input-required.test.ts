// The testing kit's multi-round-trip support: createMockContext seeds a round's answers and requestState (filtered
// by seeded capabilities as in production), and expectInputRequired hands back what a handler asked for.
import { type Context, inputRequired, Tool } from 'mcp-kiln';
import { createMockContext, expectInputRequired } from 'mcp-kiln/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const Confirm = z.object({ confirm: z.boolean().describe('Whether to go ahead') });
const ASK = { confirm: inputRequired.elicit({ message: 'Delete it?', requestedSchema: Confirm }) };
const ACCEPT = { confirm: { action: 'accept', content: { confirm: true } } };

const Input = z.object({ path: z.string().describe('Path to delete') });
const Output = z.object({
  deleted: z.string().describe('The path deleted'),
  state: z.string().optional().describe('The requestState the confirming round echoed'),
});

@Tool('delete_path', { description: 'Deletes a path once the user confirms.', input: Input, output: Output })
class DeletePathTool {
  async handle(input: z.output<typeof Input>, ctx: Context) {
    const answer = ctx.inputs.accepted('confirm', Confirm);
    if (!answer) return ctx.requestInput({ inputRequests: ASK, requestState: `delete:${input.path}` });
    return { deleted: input.path, state: ctx.inputs.state() };
  }
}

const tool = new DeletePathTool();

describe('expectInputRequired', () => {
  it('resolves with the inputRequests and requestState the handler asked for', async () => {
    const asked = await expectInputRequired(() => tool.handle({ path: '/tmp/a' }, createMockContext()));
    expect(asked).toEqual({ inputRequests: ASK, requestState: 'delete:/tmp/a' });
  });

  it('rejects when the handler returns instead of asking', async () => {
    const ctx = createMockContext({ inputResponses: ACCEPT });
    await expect(expectInputRequired(() => tool.handle({ path: '/tmp/a' }, ctx))).rejects.toThrow(
      'expectInputRequired: the handler returned {"deleted":"/tmp/a"} instead of asking for input.',
    );
  });

  it('rejects with the handler’s own error as the cause when it throws something else', async () => {
    const failure = new Error('disk on fire');
    const rejected = await expectInputRequired(() => {
      throw failure;
    }).then(
      () => new Error('expectInputRequired resolved'),
      (error: Error) => error,
    );
    expect(rejected.message).toBe(
      'expectInputRequired: the handler threw Error: disk on fire instead of asking for input.',
    );
    expect(rejected.cause).toBe(failure);
  });
});

describe('createMockContext round seeding', () => {
  it('drives a handler into its second round with the seeded answer and requestState', async () => {
    const asked = await expectInputRequired(() => tool.handle({ path: '/tmp/a' }, createMockContext()));
    const ctx = createMockContext({ inputResponses: ACCEPT, requestState: asked.requestState });
    await expect(tool.handle({ path: '/tmp/a' }, ctx)).resolves.toEqual({ deleted: '/tmp/a', state: 'delete:/tmp/a' });
  });

  it('without seeded capabilities, leaves ctx.clientCapabilities undefined and the answers unfiltered', () => {
    const ctx = createMockContext({ inputResponses: ACCEPT });
    expect(ctx.clientCapabilities).toBeUndefined();
    expect(ctx.inputs.responses).toEqual(ACCEPT);
  });

  it('with seeded capabilities, applies the production filter', async () => {
    const urlOnly = createMockContext({ inputResponses: ACCEPT, clientCapabilities: { elicitation: { url: {} } } });
    expect(urlOnly.clientCapabilities).toEqual({ elicitation: { url: {} } });
    expect(urlOnly.inputs.responses).toEqual({});
    await expect(expectInputRequired(() => tool.handle({ path: '/tmp/a' }, urlOnly))).resolves.toMatchObject({
      inputRequests: ASK,
    });
    const formCapable = createMockContext({ inputResponses: ACCEPT, clientCapabilities: { elicitation: {} } });
    expect(formCapable.inputs.accepted('confirm', Confirm)).toEqual({ confirm: true });
  });

  it('carries no answers and no state when none are seeded', () => {
    const ctx = createMockContext();
    expect(ctx.inputs.responses).toEqual({});
    expect(ctx.inputs.state()).toBeUndefined();
    expect(ctx.inputs.dropped).toEqual([]);
  });
});
