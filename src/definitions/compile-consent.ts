// A tool's @RequiresConsent metadata as the consent gate runs it, with every mistake in it reported at boot.
import { CONSENT_METADATA, readMetadata } from '../../decorators/metadata-keys.js';
import type { ConsentMetadata } from '../../decorators/requires-consent.js';
import type { Constructor } from '../../decorators/types.js';
import type { Context } from '../context/context.js';
import type { LintFindings } from './lint/tool-lint.js';

export const DEFAULT_CONSENT_TTL_SECONDS = 600;

export interface CompiledConsent {
  readonly message: (input: unknown) => string;
  readonly target: (input: unknown) => string;
  /** The target's content hash; `tool` is the request's tool instance, for a hash named as one of its methods. */
  readonly contentHash: (input: unknown, ctx: Context, tool: object) => unknown;
  readonly ttlSeconds: number;
}

const NO_HASH = () => '';

export function compileConsent(
  toolClass: Constructor,
  where: string,
  findings: LintFindings,
): CompiledConsent | undefined {
  const metadata = readMetadata<ConsentMetadata>(CONSENT_METADATA, toolClass);
  if (!metadata) return undefined;
  const problems: string[] = [];
  const { message, target, contentHash, ttlSeconds = DEFAULT_CONSENT_TTL_SECONDS } = metadata;

  if (!(typeof message === 'function' || (typeof message === 'string' && message.trim() !== ''))) {
    problems.push('message is missing; give the question the user is asked, as a string or a function of the input');
  }
  if (typeof target !== 'function') {
    problems.push('target must be a function of the input naming what the call acts on, such as input => input.id');
  }
  const prototype = toolClass.prototype as Record<string, unknown>;
  if (typeof contentHash === 'string' && typeof prototype[contentHash] !== 'function') {
    problems.push(`contentHash '${contentHash}' names no method of ${toolClass.name}`);
  } else if (contentHash !== undefined && typeof contentHash !== 'string' && typeof contentHash !== 'function') {
    problems.push(
      "contentHash must be a function of (input, ctx) or the name of a method of the tool, such as 'hashOf'",
    );
  }
  if (typeof ttlSeconds !== 'number' || !Number.isFinite(ttlSeconds) || ttlSeconds <= 0) {
    problems.push(`ttlSeconds must be a positive number of seconds, not ${String(ttlSeconds)}`);
  }
  if (problems.length > 0) {
    for (const problem of problems) findings.errors.push(`${where}: @RequiresConsent ${problem}.`);
    return undefined;
  }

  return {
    message: typeof message === 'function' ? message : () => message,
    target,
    contentHash:
      typeof contentHash === 'string'
        ? (input, ctx, tool) =>
            (tool as Record<string, (input: unknown, ctx: Context) => unknown>)[contentHash]?.(input, ctx)
        : (contentHash ?? NO_HASH),
    ttlSeconds,
  };
}
