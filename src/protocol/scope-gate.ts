// The scopes an incoming request needs, read from the parsed JSON-RPC message before any protocol server sees it, so
// an HTTP host can refuse with a 403 insufficient_scope challenge instead of a JSON-RPC error inside a 200. The
// operation runner checks the same @Scopes again for every transport; this only lets HTTP answer first.
import type { AuthInfo, CompleteRequest } from '@modelcontextprotocol/server';
import type { ScopeRequirement } from '../../decorators/scopes.js';
import { unmetScopes } from '../context/scope-check.js';
import { matchResource } from '../pipeline/resource-read.js';
import { findCompletionTarget } from './completion.js';
import { principalOf } from './principal.js';
import type { ProtocolRuntime } from './protocol-runtime.js';

type ScopedRuntime = Pick<ProtocolRuntime, 'tools' | 'resources' | 'prompts'>;

/**
 * The scopes to name in a challenge when `authInfo` does not meet what `message` (one JSON-RPC message, or a batch)
 * asks for; undefined when it does, when the request is unauthenticated, or when it names nothing scoped.
 */
export function scopeChallenge(
  runtime: ScopedRuntime,
  message: unknown,
  authInfo: AuthInfo | undefined,
): readonly string[] | undefined {
  const { auth } = principalOf(authInfo);
  if (!auth) return undefined;
  const messages = Array.isArray(message) ? message : [message];
  const named = new Set<string>();
  for (const each of messages)
    for (const scope of unmetScopes(requirementOf(runtime, each), auth) ?? []) named.add(scope);
  return named.size > 0 ? [...named] : undefined;
}

/** The @Scopes of the tool, resource or prompt a request addresses; undefined for every other request. */
function requirementOf(runtime: ScopedRuntime, message: unknown): ScopeRequirement | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const { method, params } = message as { method?: unknown; params?: Record<string, unknown> };
  if (typeof params !== 'object' || params === null) return undefined;
  if (method === 'tools/call' && typeof params.name === 'string') return runtime.tools.get(params.name)?.scopes;
  if (method === 'prompts/get' && typeof params.name === 'string') return runtime.prompts.get(params.name)?.scopes;
  if (method === 'resources/read' && typeof params.uri === 'string') {
    return matchResource(runtime.resources, params.uri)?.resource.scopes;
  }
  if (method === 'completion/complete' && isCompletionRef(params.ref)) {
    return findCompletionTarget(runtime, params.ref)?.scopes;
  }
  return undefined;
}

function isCompletionRef(ref: unknown): ref is CompleteRequest['params']['ref'] {
  if (typeof ref !== 'object' || ref === null) return false;
  const { type, name, uri } = ref as { type?: unknown; name?: unknown; uri?: unknown };
  return (type === 'ref/prompt' && typeof name === 'string') || (type === 'ref/resource' && typeof uri === 'string');
}
