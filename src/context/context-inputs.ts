// ctx.inputs: the answers this round of a multi-round-trip request carried, limited to the kinds and modes the client
// declared. The SDK lifts `inputResponses` off every request, so a client can arrive pre-answered with nothing having
// asked; what its capabilities do not cover never reaches the handler (api-context § ctx.inputs).
import {
  type ClientCapabilities,
  type InputResponseView,
  inputResponse,
  type RequestStateAccessor,
} from '@modelcontextprotocol/server';
import type { z } from 'zod';
import { capabilityForResponse, declaresCapability } from './input-capabilities.js';

export type { InputResponseView };

export interface ContextInputs {
  /**
   * The accepted form-mode content for `key`; `undefined` when it is missing, declined, cancelled, another kind, or
   * (with a schema) invalid. Branch on `view(key)` when those outcomes need telling apart.
   */
  accepted(key: string): Readonly<Record<string, unknown>> | undefined;
  accepted<S extends z.ZodType>(key: string, schema: S): z.output<S> | undefined;
  /** One entry as a discriminated view: missing, elicit (with its action), sampling or roots. */
  view(key: string): InputResponseView;
  /** The `requestState` this round carried, as the SDK hands it over; `undefined` when it carried none. */
  state<T = string>(): T | undefined;
  /** Keys the SDK dropped because the client sent a wrapped rather than a bare response: re-issue those requests. */
  readonly dropped: readonly string[];
  /** The response map, filtered like everything else here, for kinds the helpers do not cover. */
  readonly responses: Readonly<Record<string, unknown>>;
}

/** What the era bridge lifted off the request for ctx.inputs (part of the ContextSeed). */
export interface RoundInputs {
  /** The request's `inputResponses` as the SDK lifted them: bare responses, unfiltered, untrusted. */
  readonly inputResponses?: Readonly<Record<string, unknown>>;
  readonly droppedInputResponseKeys?: readonly string[];
  /** The SDK's accessor for this round's `requestState` (verified and decoded when a verifier is configured). */
  readonly requestState?: RequestStateAccessor;
  /**
   * Skip the capability filter. Only the testing kit sets it, for a mock context seeded without a capability view;
   * the era bridge never does.
   */
  readonly unfilteredInputs?: boolean;
}

const NOTHING: Readonly<Record<string, unknown>> = Object.freeze({});
const NO_KEYS: readonly string[] = Object.freeze([]);

/**
 * Keeps the responses `capabilities` cover. No capability view (a 2025-era request served without a session) keeps
 * nothing, and an entry of no recognizable kind is dropped.
 */
export function filterInputResponses(
  responses: Readonly<Record<string, unknown>> | undefined,
  capabilities: ClientCapabilities | undefined,
): Readonly<Record<string, unknown>> {
  if (responses === undefined || capabilities === undefined) return NOTHING;
  const kept: Record<string, unknown> = {};
  for (const [key, response] of Object.entries(responses)) {
    // JSON.parse makes `__proto__` an own key; assigning it here would swap the map's prototype instead.
    if (key === '__proto__') continue;
    const needed = capabilityForResponse(response);
    if (needed !== undefined && declaresCapability(capabilities, needed)) kept[key] = response;
  }
  return kept;
}

/** Built on a handler's first read of ctx.inputs; requests that never read it pay nothing. */
export function createContextInputs(round: RoundInputs, capabilities: ClientCapabilities | undefined): ContextInputs {
  const responses = round.unfilteredInputs
    ? (round.inputResponses ?? NOTHING)
    : filterInputResponses(round.inputResponses, capabilities);
  const view = (key: string) => inputResponse(responses, key);
  return {
    accepted: ((key: string, schema?: z.ZodType) => {
      const entry = view(key);
      if (entry.kind !== 'elicit' || entry.action !== 'accept' || entry.content === undefined) return undefined;
      if (!schema) return entry.content;
      const parsed = schema.safeParse(entry.content);
      return parsed.success ? parsed.data : undefined;
    }) as ContextInputs['accepted'],
    view,
    state: <T = string>() => round.requestState?.<T>(),
    dropped: round.droppedInputResponseKeys ?? NO_KEYS,
    responses,
  };
}
