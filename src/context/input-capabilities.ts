// Which declared client capability an embedded input request, or a client's answer to one, needs. One table serves
// the 2025-era refusal in ctx.requestInput and the filter on ctx.inputs, so both apply the same mode levels.
import type { ClientCapabilities } from '@modelcontextprotocol/server';

/** A capability as the refusal names it; `elicitation` alone means any mode. */
export type InputCapability =
  | 'elicitation'
  | 'elicitation.form'
  | 'elicitation.url'
  | 'sampling'
  | 'sampling.tools'
  | 'roots';

/** The capability an embedded request needs, or `undefined` for a kind the SDK itself rejects as a server bug. */
export function capabilityForRequest(request: {
  readonly method: string;
  readonly params?: unknown;
}): InputCapability | undefined {
  const params = isObject(request.params) ? request.params : {};
  switch (request.method) {
    case 'elicitation/create':
      return params.mode === 'url' ? 'elicitation.url' : 'elicitation.form';
    case 'sampling/createMessage':
      return params.tools !== undefined || params.toolChoice !== undefined ? 'sampling.tools' : 'sampling';
    case 'roots/list':
      return 'roots';
    default:
      return undefined;
  }
}

/**
 * The capability a client must have declared for its answer to count (api-context § ctx.inputs): an elicit result
 * carrying `content` is a form-mode answer; one without (a URL-mode accept, a decline, a cancel) needs elicitation in
 * any mode; a sampling result holding tool blocks needs `sampling.tools`. `undefined`: no recognizable kind.
 */
export function capabilityForResponse(response: unknown): InputCapability | undefined {
  if (!isObject(response)) return undefined;
  const { action, content } = response;
  if (action === 'accept' || action === 'decline' || action === 'cancel') {
    return content === undefined ? 'elicitation' : 'elicitation.form';
  }
  if (Array.isArray(response.roots)) return 'roots';
  if (typeof response.role === 'string' && content !== undefined) {
    return holdsToolBlock(content) ? 'sampling.tools' : 'sampling';
  }
  return undefined;
}

/** Whether `declared` covers `capability`. A bare `elicitation: {}` (no mode named) declares form mode. */
export function declaresCapability(declared: ClientCapabilities, capability: InputCapability): boolean {
  const { elicitation, sampling } = declared;
  switch (capability) {
    case 'elicitation':
      return isObject(elicitation);
    case 'elicitation.form':
      return isObject(elicitation) && (elicitation.form !== undefined || elicitation.url === undefined);
    case 'elicitation.url':
      return isObject(elicitation) && elicitation.url !== undefined;
    case 'sampling':
      return isObject(sampling);
    case 'sampling.tools':
      return isObject(sampling) && sampling.tools !== undefined;
    case 'roots':
      return isObject(declared.roots);
  }
}

/** The capabilities in the `ClientCapabilities` shape, as the SDK's -32021 reports them in `requiredCapabilities`. */
export function capabilityShape(capabilities: readonly InputCapability[]): Record<string, Record<string, object>> {
  const shape: Record<string, Record<string, object>> = {};
  for (const capability of capabilities) {
    const [name, mode] = capability.split('.') as [string, string | undefined];
    shape[name] ??= {};
    if (mode) (shape[name] as Record<string, object>)[mode] = {};
  }
  return shape;
}

function holdsToolBlock(content: unknown): boolean {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks.some((block) => isObject(block) && (block.type === 'tool_use' || block.type === 'tool_result'));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * What a 2025-era client declared, less what its negotiated protocol version cannot carry: elicitation arrived in
 * 2025-06-18, its URL mode and sampling with tools in 2025-11-25. A client that declares elicitation on a 2025-03-26
 * session is refused with `client_capability_missing` instead of being sent a request its version lacks.
 */
export function capabilitiesForVersion(declared: ClientCapabilities, version: string | undefined): ClientCapabilities {
  // Protocol versions are dates, so they compare as strings.
  if (version === undefined || version >= '2025-11-25') return declared;
  const { elicitation, sampling, ...rest } = declared;
  const usable: ClientCapabilities = { ...rest };
  if (isObject(elicitation) && version >= '2025-06-18') {
    const { url: _url, ...modes } = elicitation;
    usable.elicitation = modes;
  }
  if (isObject(sampling)) {
    const { tools: _tools, ...kinds } = sampling;
    usable.sampling = kinds;
  }
  return usable;
}
