// resources/read: match the URI (fixed URIs first, then templates in declaration order), validate the template
// variables against the typed params, run the handler in its request scope, normalise what it returned (or answer
// with the input_required round it asked for).
import type { InputRequiredResult, ReadResourceResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { ResourceContent, ResourceReadReturn } from '../../decorators/resource.js';
import { insufficientScope } from '../context/scope-check.js';
import type { CompiledResource } from '../definitions/compiled-resource.js';
import { kilnError } from '../errors/factories.js';
import { chainOf, runChain } from './call-chain.js';
import { markedHit } from './call-policy.js';
import { orInputRequired, unanswerableRound } from './input-round.js';
import type { OperationKind, OperationSeed } from './operation-kind.js';
import { type PipelineRuntime, runScopedHandler } from './scoped-handler.js';

export interface ResourceMatch {
  readonly uri: string;
  readonly resource: CompiledResource;
  readonly variables: Record<string, string | string[]>;
}

export function matchResource(resources: readonly CompiledResource[], uri: string): ResourceMatch | undefined {
  for (const resource of resources)
    if (!resource.template && resource.uriTemplate === uri) return { uri, resource, variables: {} };
  for (const resource of resources) {
    const variables = resource.matcher?.match(uri);
    if (variables) return { uri, resource, variables };
  }
  return undefined;
}

/** resources/read: match the URI, run one round; a direct read cannot answer a round, so it fails. */
export const RESOURCE_OPERATION: OperationKind<ResourceMatch, undefined, ReadResourceResult> = {
  method: 'resources/read',
  targetName: (match) => match.resource.name,
  find: (runtime, uri) => matchResource(runtime.resources, uri),
  // -32602 with data.uri on both eras (the 2026-07-28 spec forbids -32002 and empty contents).
  unknown: (uri) => kilnError('unknown_resource', `No resource matches ${uri}.`, { uri }),
  round: (runtime, match, _args, seed) => readResourceRound(runtime, match, seed),
  unanswerable: (round, match) => {
    throw unanswerableRound(round, `resources/read ${match.uri}`);
  },
  scopes: (match) => match.resource.scopes,
  definition: (match) => match.resource.resourceClass,
  policyCall: (match, _args, seed) => ({
    method: 'resources/read',
    name: match.resource.name,
    cacheKey: () => match.uri,
    cacheable: () => true,
    // On 2026-07-28 the answer's cache hint says what the cache holds: no longer than the entry has left.
    fromCache: (result, cache, ttlMs, hit) => {
      const hinted =
        seed.era === 'envelope'
          ? { ...result, ttlMs: Math.floor(ttlMs), cacheScope: cache.scope === 'public' ? 'public' : 'private' }
          : result;
      return hit ? markedHit(hinted) : hinted;
    },
  }),
  refused: (requiredScopes, match, seed) => {
    const error = insufficientScope(requiredScopes, `Resource ${match.resource.name}`);
    if (error.data) error.data.requestId = seed.requestId;
    throw error;
  },
};

/** One round of a read as a protocol server answers it: the contents, or the input_required the handler asked for. */
async function readResourceRound(
  runtime: PipelineRuntime,
  match: ResourceMatch,
  seed: OperationSeed,
): Promise<ReadResourceResult | InputRequiredResult> {
  const { resource, uri } = match;
  let params: unknown = match.variables;
  if (resource.params) {
    const parsed = resource.params.safeParse(match.variables);
    if (!parsed.success) {
      throw kilnError(
        'invalid_arguments',
        `Invalid URI for resource ${resource.name}: ${z.prettifyError(parsed.error)}`,
        {
          uri,
          recovery: { hint: `Fill the template ${resource.uriTemplate} with values its parameters accept.` },
          requestId: seed.requestId,
        },
      );
    }
    params = parsed.data;
  }
  // A URI can match a template and still not be a URL (`notes://a b`): ctx.uri needs one, so it is the caller's error.
  const url = parsedUrl(uri);
  if (!url) {
    throw kilnError('invalid_arguments', `Invalid URI for resource ${resource.name}: ${uri} is not a valid URL.`, {
      uri,
      recovery: { hint: `Percent-encode the values you put into ${resource.uriTemplate}, then read it again.` },
      requestId: seed.requestId,
    });
  }
  const operation = `resource ${resource.name}`;
  const scopedSeed = { ...seed, uri: url, operation };
  const { resourceClass, contract } = resource;
  return runScopedHandler(runtime, scopedSeed, resourceClass, contract, (handler, context, scope) =>
    orInputRequired(async () => {
      const returned = await runChain(
        chainOf(runtime, resourceClass),
        () => handler.handle(params, context),
        () => ({
          resolve: scope.resolve,
          ctx: context,
          call: {
            kind: 'resource',
            name: resource.name,
            definition: resourceClass,
            input: params,
            uri,
            scopes: resource.scopes,
          },
          contract: contract.entries,
          label: `Resource ${resource.name}`,
        }),
      );
      const result: ReadResourceResult = {
        contents: normaliseContents(returned as ResourceReadReturn, uri, resource.mimeType),
      };
      // Cache fields exist only on the 2026-07-28 wire; the SDK fills what a resource leaves out from the server hint.
      const hint = seed.era === 'envelope' ? resource.cacheHint : undefined;
      if (hint?.ttlMs !== undefined) (result as { ttlMs?: number }).ttlMs = hint.ttlMs;
      if (hint?.cacheScope !== undefined) (result as { cacheScope?: string }).cacheScope = hint.cacheScope;
      return result;
    }, seed.sealRequestState),
  );
}

function normaliseContents(
  returned: ResourceReadReturn,
  uri: string,
  mimeType: string | undefined,
): ReadResourceResult['contents'] {
  const items: readonly ResourceContent[] =
    typeof returned === 'string'
      ? [{ text: returned }]
      : Array.isArray(returned)
        ? returned
        : [returned as ResourceContent];
  return items.map((item) => {
    const type = item.mimeType ?? mimeType;
    const base = { uri: item.uri ?? uri, ...(type ? { mimeType: type } : {}) };
    return 'blob' in item ? { ...base, blob: item.blob } : { ...base, text: item.text };
  });
}

/** The URI as a URL, or undefined (one parse; `URL.parse` needs Node 20.18, and Kiln supports every Node 20). */
function parsedUrl(uri: string): URL | undefined {
  try {
    return new URL(uri);
  } catch {
    return undefined;
  }
}
