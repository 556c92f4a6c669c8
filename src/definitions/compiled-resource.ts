// Resources and prompts as the runtime serves them, compiled once at boot.

import type {
  ResourceTemplateType,
  UriTemplate,
  Prompt as WirePrompt,
  Resource as WireResource,
} from '@modelcontextprotocol/server';
import type { z } from 'zod';
import type { PromptReturn } from '../../decorators/prompt.js';
import type { CacheHint, ResourceReadReturn } from '../../decorators/resource.js';
import type { ScopeRequirement } from '../../decorators/scopes.js';
import type { CompiledContract } from '../context/error-contract.js';
import type { UriMatcher } from './uri-matcher.js';

type MaybePromise<T> = T | Promise<T>;

export interface ResourceHandler {
  handle(params: unknown, ctx: unknown): MaybePromise<ResourceReadReturn>;
  list?(
    ctx: unknown,
  ): MaybePromise<readonly { uri: string; name: string; title?: string; description?: string; mimeType?: string }[]>;
  complete?(
    variable: string,
    value: string,
    context: { arguments: Record<string, string> },
  ): MaybePromise<readonly string[]>;
}

export interface CompiledResource {
  readonly name: string;
  readonly uriTemplate: string;
  readonly resourceClass: new (...args: never[]) => ResourceHandler;
  /** Undefined for a fixed URI. */
  readonly template: UriTemplate | undefined;
  /** The template's URI matcher, compiled at boot (uri-matcher.ts); undefined for a fixed URI. */
  readonly matcher: UriMatcher | undefined;
  readonly params: z.ZodObject | undefined;
  readonly mimeType: string | undefined;
  /** The @Errors contract, with ctx.fail and ctx.recoveryFor built once. */
  readonly contract: CompiledContract;
  /** resources/list entry of a fixed URI, or resources/templates/list entry of a template. */
  readonly listing: WireResource | undefined;
  readonly templateListing: ResourceTemplateType | undefined;
  readonly listsInstances: boolean;
  readonly completes: boolean;
  /** Per-resource cache hint, applied to 2026-07-28 reads. */
  readonly cacheHint: CacheHint | undefined;
  /** The @Scopes a caller's token must carry to read it (and list or complete its instances). */
  readonly scopes: ScopeRequirement | undefined;
}

export interface PromptHandler {
  handle(args: unknown, ctx: unknown): MaybePromise<PromptReturn>;
  complete?(
    argument: string,
    value: string,
    context: { arguments: Record<string, string> },
  ): MaybePromise<readonly string[]>;
}

export interface CompiledPrompt {
  readonly name: string;
  readonly promptClass: new (...args: never[]) => PromptHandler;
  /** The prompt's arguments, strict (unknown names refused). */
  readonly args: z.ZodObject | undefined;
  readonly description: string;
  /** The @Errors contract, with ctx.fail and ctx.recoveryFor built once. */
  readonly contract: CompiledContract;
  readonly listing: WirePrompt;
  readonly completes: boolean;
  /** The @Scopes a caller's token must carry to get it (and complete its arguments). */
  readonly scopes: ScopeRequirement | undefined;
}
