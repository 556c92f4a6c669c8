// @Resource(uriTemplate, options): a resource or resource template. The class's `handle(params, ctx)` reads it;
// an optional `list(ctx)` enumerates concrete resources, and `complete(variable, value)` completes template variables.
import type { z } from 'zod';
import { defineMetadata, RESOURCE_METADATA } from './metadata-keys.js';

export interface ResourceOptions<P extends z.ZodObject | undefined = undefined> {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  readonly mimeType?: string;
  /** Typed template variables; each `{var}` of the template must be a key here. */
  readonly params?: P;
  /** 2026-07-28 cache hint for reads of this resource; overrides the server-wide `resources/read` hint per field. */
  readonly cacheHint?: CacheHint;
}

/** How long (ms) and by whom a 2026-07-28 result may be cached. */
export interface CacheHint {
  readonly ttlMs?: number;
  readonly cacheScope?: 'public' | 'private';
}

export interface ResourceMetadata {
  readonly uriTemplate: string;
  readonly options: ResourceOptions<z.ZodObject | undefined>;
}

/** One item of what a resource read returns. Strings are text; `blob` is base64. */
export type ResourceContent =
  | { readonly text: string; readonly mimeType?: string; readonly uri?: string }
  | { readonly blob: string; readonly mimeType?: string; readonly uri?: string };

export type ResourceReadReturn = string | ResourceContent | readonly ResourceContent[];

type MaybePromise<T> = T | Promise<T>;

// Function-typed properties, not methods: TypeScript checks them strictly, so a handler that expects params the
// schema does not produce fails to compile.
export interface ResourceInstance<P extends z.ZodObject | undefined> {
  readonly handle: (
    params: P extends z.ZodObject ? z.output<P> : Record<string, string>,
    ctx: never,
  ) => MaybePromise<ResourceReadReturn>;
}

export function Resource<P extends z.ZodObject | undefined = undefined>(
  uriTemplate: string,
  options: ResourceOptions<P>,
): (target: new (...args: never[]) => ResourceInstance<P>) => void {
  return (target) => defineMetadata(RESOURCE_METADATA, { uriTemplate, options } satisfies ResourceMetadata, target);
}
