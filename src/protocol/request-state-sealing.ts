// Sealed requestState (MCP_REQUEST_STATE_KEY): one SDK codec per app, built at boot. Every protocol server verifies
// an echoed state with it before any handler runs, and every input_required round a handler asks for is minted
// with it, bound to the request's principal. requestState round-trips through the client, so it is attacker-controlled;
// when it matters the server MUST integrity-check it and reject what fails (spec 2026-07-28, MRTR, SEP-2322).
import { createRequestStateCodec, type ServerContext } from '@modelcontextprotocol/server';
import type { RequestStateConfig } from '../config/kiln-config.js';
import type { Logger } from '../logging/index.js';
import { principalKeyOf, requestPrincipal } from './principal.js';

export interface RequestStateSealing {
  /**
   * The SDK's `requestState.verify` hook: the string the handler sealed. A throw (`mac`, `bind`, `expired`,
   * `malformed`) is answered by the SDK as -32602 `invalid_request_state`; the reason goes to the server's onerror.
   */
  verify(state: string, sdk: ServerContext): Promise<string>;
  /** The sealed form of `state`, bound to the principal of the request `sdk` describes. */
  seal(state: string, sdk: Pick<ServerContext, 'http'>): Promise<string>;
}

/** The app's sealing, or undefined when no key is configured (requestState then passes through unverified). */
export function createRequestStateSealing(config: RequestStateConfig, logger: Logger): RequestStateSealing | undefined {
  if (config.secret === undefined) return undefined;
  // One key for every instance: a retry may reach another replica or a restarted process, so no per-process key.
  const codec = createRequestStateCodec<string>({
    key: config.secret,
    ttlSeconds: config.ttlSeconds,
    bind: principalBinding,
  });
  return {
    verify: async (state, sdk) => {
      try {
        const payload: unknown = await codec.verify(state, sdk);
        // Kiln mints only strings with this key; any other payload was not sealed by a Kiln handler.
        if (typeof payload !== 'string') throw new Error('malformed');
        return payload;
      } catch (error) {
        // The reason (mac, bind, expired, malformed) stays here; the state itself is logged nowhere.
        const reason = error instanceof Error ? error.message : String(error);
        const method = sdk.mcpReq?.method;
        logger.debug({ method, requestId: sdk.mcpReq?.id, reason }, `requestState rejected on ${method}: ${reason}`);
        throw error;
      }
    },
    // The seal binds only the principal (principalBinding reads `http`), so a host's direct call can mint one too.
    seal: (state, sdk) => codec.mint(state, sdk as ServerContext),
  };
}

/** The principal of the request `sdk` describes, as the key a seal is bound to (anonymous requests included). */
export function principalBinding(sdk: Pick<ServerContext, 'http'>): string {
  return principalKeyOf(requestPrincipal(sdk));
}
