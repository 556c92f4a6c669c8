// ctx.requestInput: suspends the handler to ask the caller for input. It never returns: it throws an
// InputRequiredSignal that the tool, resource and prompt runners answer as the round's input_required result, or,
// when a 2025-era client could not answer what is asked, the client_capability_missing refusal instead.
import {
  type ClientCapabilities,
  type InputRequiredResult,
  type InputRequiredSpec,
  inputRequired,
} from '@modelcontextprotocol/server';
import { kilnError } from '../errors/factories.js';
import { type McpError } from '../errors/mcp-error.js';
import {
  capabilityForRequest,
  capabilityShape,
  declaresCapability,
  type InputCapability,
} from './input-capabilities.js';
import type { ProtocolEra } from './protocol-era.js';

/** What to ask for: embedded requests built with `inputRequired.elicit` / `.elicitUrl` / `.createMessage` / `.listRoots`, and state to echo. */
export type RequestInputSpec = InputRequiredSpec;

export interface RequestInputOptions {
  /** A sentence appended, after a space, to the refusal's recovery hint: how the caller can do without the answer. */
  readonly fallbackHint?: string;
}

/** Thrown by ctx.requestInput; never a failure. Carries the result the round answers with. */
export class InputRequiredSignal extends Error {
  constructor(readonly result: InputRequiredResult) {
    // Read only when the signal escapes a runner that cannot answer a round (completion, listing).
    super('ctx.requestInput asked for input outside a tool, resource or prompt handler, where no round can carry it.');
    this.name = 'InputRequiredSignal';
  }
}

export function requestInput(
  era: ProtocolEra,
  capabilities: ClientCapabilities | undefined,
  spec: RequestInputSpec,
  options?: RequestInputOptions,
): never {
  // The SDK builder throws a TypeError when neither inputRequests nor requestState is given: a bug at the call site.
  const result = inputRequired(spec);
  // On 2026-07-28 the SDK answers an uncovered request with -32021 itself; on 2025 its shim would answer a bare
  // isError, so the refusal is raised here with the envelope and hint. Every round is checked again.
  const refusal = era === 'handshake' ? handshakeRefusal(result, capabilities, options?.fallbackHint) : undefined;
  throw refusal ?? new InputRequiredSignal(result);
}

/** The refusal for a 2025-era client that did not declare what a request needs; `undefined` when it can answer. */
function handshakeRefusal(
  result: InputRequiredResult,
  capabilities: ClientCapabilities | undefined,
  fallbackHint: string | undefined,
): McpError | undefined {
  const asked: string[] = [];
  const missing: InputCapability[] = [];
  for (const [key, request] of Object.entries(result.inputRequests ?? {})) {
    const needed = capabilityForRequest(request);
    // An unknown kind is a server bug the SDK rejects loudly; it is not the client's to fix.
    if (needed === undefined || (capabilities !== undefined && declaresCapability(capabilities, needed))) continue;
    asked.push(`'${key}' (${request.method})`);
    if (!missing.includes(needed)) missing.push(needed);
  }
  if (missing.length === 0) return undefined;
  const named = `${listOf(missing.map((capability) => `\`${capability}\``))} ${missing.length === 1 ? 'capability' : 'capabilities'}`;
  const cannotAsk = `Cannot ask for input ${asked.join(', ')}`;
  // No capability view: a 2025-era request served per request never saw `initialize` and has no channel back.
  const [message, hint] =
    capabilities === undefined
      ? [
          `${cannotAsk}: this 2025-era request was served per request, without a session, so the server cannot send it requests.`,
          `Reconnect through a stateful session (MCP_SESSION_MODE=stateful or auto) with a client that declares the ${named}.`,
        ]
      : [
          `${cannotAsk}: the client did not declare the ${named}.`,
          `Reconnect with a client that declares the ${named}.`,
        ];
  return kilnError('client_capability_missing', message, {
    requiredCapabilities: capabilityShape(missing),
    recovery: { hint: fallbackHint ? `${hint} ${fallbackHint}` : hint },
  });
}

function listOf(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
