// The @RequiresConsent gate, between argument preparation and the handler. An accepted answer on ctx.inputs proves
// nothing alone (a client can send one unasked, and any requestState replays), so a call proceeds only on the round
// that redeems a single-use record this server stored when it asked (api-context § Consent gates).

import { isDeepStrictEqual } from 'node:util';
import { inputRequired } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { Context } from '../context/context.js';
import { InputRequiredSignal } from '../context/request-input.js';
import type { CompiledConsent } from '../definitions/compile-consent.js';
import { kilnError } from '../errors/factories.js';
import { type McpError } from '../errors/mcp-error.js';
import { nodeCrypto } from '../platform/lazy-builtins.js';

/** The `inputRequests` key the gate asks under. */
export const CONSENT_INPUT_KEY = 'confirm';
const RECORD_PREFIX = 'consent/';
// The shape randomUUID() mints: any other requestState was not minted here and costs no storage round trip.
const RECORD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const ConfirmSchema = z.object({
  confirm: z.boolean().describe('True to go ahead, false to stop: nothing is done without true.'),
});

/** What a prompt confirmed: this operation, for this caller, on this target as it held this content. */
export const ConsentRecordSchema = z
  .object({
    operation: z.string().describe('Tool the record was minted for'),
    clientId: z.string().describe('Authenticated client that was asked; empty without auth'),
    subject: z.string().describe('Authenticated subject that was asked; empty without auth'),
    target: z.string().describe('What the user confirmed acting on'),
    contentHash: z.string().describe('What the target held when the user was asked; empty when not declared'),
  })
  .strict();
export type ConsentRecord = z.output<typeof ConsentRecordSchema>;

export interface GatedCall {
  readonly operation: string;
  readonly input: unknown;
  readonly ctx: Context;
  /** The request's tool instance, for a content hash named as one of its methods. */
  readonly tool: object;
}

/** Runs `handle` once this round proves consent; otherwise throws the fresh prompt or the declined failure. */
export async function runBehindConsent<T>(
  consent: CompiledConsent,
  call: GatedCall,
  handle: () => T | Promise<T>,
): Promise<T> {
  await passConsentGate(consent, call);
  try {
    return await handle();
  } catch (error) {
    // The next round would carry the handler's requestState, not a record, and be asked to confirm again: a loop.
    if (error instanceof InputRequiredSignal) {
      throw new Error(
        `Tool ${call.operation} is behind @RequiresConsent and asked for input itself. The confirmation is spent on ` +
          'the round that passes the gate, so a gated handler cannot ask for more; take what it needs as arguments.',
      );
    }
    throw error;
  }
}

/** Resolves when this round carries a confirmation of this very call; anything else throws. */
async function passConsentGate(consent: CompiledConsent, call: GatedCall): Promise<void> {
  const { ctx } = call;
  // 1. Redeem first: the record this round names is spent whatever happens next. `take` is atomic on every
  //    provider, so of concurrent retries carrying one id exactly one holds the record.
  const id = ctx.inputs.state<unknown>();
  const record = typeof id === 'string' && RECORD_ID.test(id) ? await redeem(ctx, id) : null;

  // 2. What this call would confirm.
  const expected = await expectedRecord(consent, call);

  // 3. Only a matching record makes the answer on ctx.inputs mean anything; a decline or cancel is final.
  if (record !== null && isDeepStrictEqual(record, expected)) {
    const view = ctx.inputs.view(CONSENT_INPUT_KEY);
    if (view.kind === 'elicit' && view.action !== 'accept') throw declined(call.operation, view.action);
    const answer = ctx.inputs.accepted(CONSENT_INPUT_KEY, ConfirmSchema);
    if (answer?.confirm === true) return;
    if (answer?.confirm === false) throw declined(call.operation, 'unconfirmed');
  }

  // 4. No record, an unknown, spent, expired or foreign one, or no answer: a fresh prompt, never a proceed.
  const fresh = nodeCrypto().randomUUID();
  await ctx.state.set(RECORD_PREFIX + fresh, expected, { ttl: consent.ttlSeconds });
  ctx.requestInput({
    inputRequests: {
      [CONSENT_INPUT_KEY]: inputRequired.elicit({
        message: consent.message(call.input),
        requestedSchema: ConfirmSchema,
      }),
    },
    requestState: fresh,
  });
}

async function redeem(ctx: Context, id: string): Promise<ConsentRecord | null> {
  const parsed = ConsentRecordSchema.safeParse(await ctx.state.take(RECORD_PREFIX + id));
  return parsed.success ? parsed.data : null;
}

async function expectedRecord(consent: CompiledConsent, call: GatedCall): Promise<ConsentRecord> {
  const { operation, input, ctx, tool } = call;
  return {
    operation,
    clientId: ctx.auth?.clientId ?? '',
    subject: ctx.auth?.subject ?? '',
    target: ensureString(consent.target(input), operation, 'target'),
    contentHash: ensureString(await consent.contentHash(input, ctx, tool), operation, 'contentHash'),
  };
}

/** A non-string would be stored, then fail the record schema on every retry: a prompt the user can never pass. */
function ensureString(value: unknown, operation: string, option: string): string {
  if (typeof value === 'string') return value;
  throw new Error(`Tool ${operation}: @RequiresConsent ${option} returned ${typeof value}, not a string.`);
}

function declined(operation: string, action: 'decline' | 'cancel' | 'unconfirmed'): McpError {
  const what = {
    decline: `The user declined ${operation}`,
    cancel: `The user cancelled the confirmation of ${operation}`,
    unconfirmed: `The user did not confirm ${operation}`,
  }[action];
  return kilnError('consent_declined', `${what}; nothing was done.`, {
    recovery: {
      hint: 'Do not call it again unless the user asks for it; a new call asks the user to confirm again.',
    },
  });
}
