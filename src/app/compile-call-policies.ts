// Boot: every @RateLimit, @Quota and @Cache (and createApp's rateLimits and quotas) checked and compiled into one
// CallPolicy per definition class. Limits apply app-wide → module → class, each counting the calls of everything it
// was declared on together; @Cache goes on a definition class only. Bad values are boot problems naming the class.
import type { CacheOptions, PolicyKey, QuotaOptions, RateLimitOptions } from '../../decorators/call-policies.js';
import { CACHE_METADATA, QUOTAS_METADATA, RATE_LIMITS_METADATA, readMetadata } from '../../decorators/metadata-keys.js';
import type { Constructor } from '../../decorators/types.js';
import type { CompiledPrompt, CompiledResource } from '../definitions/compiled-resource.js';
import type { CompiledTool } from '../definitions/compiled-tool.js';
import type { ModuleRecord } from '../di/module-scanner.js';
import type { CallPolicy, CompiledCache, CompiledQuota, CompiledRateLimit } from '../pipeline/call-policy.js';
import type { StorageProvider } from '../storage/index.js';
import type { CreateAppOptions } from './app-options.js';

const KEYS: readonly string[] = ['tenant', 'subject', 'client', 'ip'];
const MIN_WINDOW_MS = 1000;
const MAX_WINDOW_MS = 86_400_000;
const MAX_LIMIT = 1_000_000_000;

/** What the policy compile needs of the compiled definitions, to check @Cache against what each one does. */
export interface PolicyDefinitions {
  readonly tools: readonly CompiledTool[];
  readonly resources: readonly CompiledResource[];
  readonly prompts: readonly CompiledPrompt[];
}

export function compileCallPolicies(
  modules: readonly ModuleRecord[],
  options: Pick<CreateAppOptions, 'rateLimits' | 'quotas'>,
  definitions: PolicyDefinitions,
  problems: string[],
): Map<Constructor, CallPolicy> {
  const appWide = limitsOf(
    { rateLimits: options.rateLimits, quotas: options.quotas },
    { rateLimits: 'createApp({ rateLimits })', quotas: 'createApp({ quotas })' },
    'app',
    problems,
  );
  const policies = new Map<Constructor, CallPolicy>();
  const seen = new Set<Constructor>();
  for (const module of modules) {
    const moduleWide = limitsOf(
      declaredOn(module.metatype),
      { rateLimits: `@RateLimit on module ${module.name}`, quotas: `@Quota on module ${module.name}` },
      `module:${module.name}`,
      problems,
    );
    if (readMetadata(CACHE_METADATA, module.metatype)) {
      problems.push(
        `@Cache on module ${module.name}: put @Cache on the tools, resources and prompts whose answers may be cached.`,
      );
    }
    for (const definition of [...module.tools, ...module.resources, ...module.prompts]) {
      if (seen.has(definition)) continue;
      seen.add(definition);
      const id = `${module.name}/${definition.name}`;
      const own = limitsOf(
        declaredOn(definition),
        { rateLimits: `@RateLimit on ${definition.name}`, quotas: `@Quota on ${definition.name}` },
        id,
        problems,
      );
      const cache = compileCache(readMetadata(CACHE_METADATA, definition), definition, id, definitions, problems);
      const policy: CallPolicy = {
        rateLimits: [...appWide.rateLimits, ...moduleWide.rateLimits, ...own.rateLimits],
        quotas: [...appWide.quotas, ...moduleWide.quotas, ...own.quotas],
        cache,
      };
      if (policy.rateLimits.length + policy.quotas.length > 0 || policy.cache) policies.set(definition, policy);
    }
  }
  return policies;
}

interface DeclaredLimits {
  readonly rateLimits: readonly RateLimitOptions[] | undefined;
  readonly quotas: readonly QuotaOptions[] | undefined;
}

function declaredOn(target: Constructor): DeclaredLimits {
  return { rateLimits: readMetadata(RATE_LIMITS_METADATA, target), quotas: readMetadata(QUOTAS_METADATA, target) };
}

/** One place's limits, checked; `id` names their counters, `where` each kind's declaration in problems. */
function limitsOf(
  declared: DeclaredLimits,
  where: { readonly rateLimits: string; readonly quotas: string },
  id: string,
  problems: string[],
): { rateLimits: CompiledRateLimit[]; quotas: CompiledQuota[] } {
  return {
    rateLimits: compileEach(
      declared.rateLimits,
      where.rateLimits,
      problems,
      (options) => [limitProblem(options?.limit), windowProblem(options?.windowMs, 'windowMs'), byProblem(options?.by)],
      (options, index) => ({
        id: `${id}#r${index}`,
        limit: options.limit,
        windowMs: options.windowMs,
        by: options.by ?? 'subject',
      }),
    ),
    quotas: compileEach(
      declared.quotas,
      where.quotas,
      problems,
      (options) => [
        limitProblem(options?.limit),
        options?.period === 'day' || options?.period === 'month'
          ? undefined
          : `period must be 'day' or 'month' (got ${JSON.stringify(options?.period)})`,
        byProblem(options?.by),
      ],
      (options, index) => ({
        id: `${id}#q${index}`,
        limit: options.limit,
        period: options.period,
        by: options.by ?? 'tenant',
      }),
    ),
  };
}

/** Each declaration checked: the problems of a bad one recorded (naming it by position when there are several). */
function compileEach<Options, Compiled>(
  declared: readonly Options[] | undefined,
  where: string,
  problems: string[],
  check: (options: Options) => readonly (string | undefined)[],
  build: (options: Options, index: number) => Compiled,
): Compiled[] {
  return (declared ?? []).flatMap((options, index) => {
    const found = check(options).filter((problem) => problem !== undefined);
    if (found.length === 0) return [build(options, index)];
    problems.push(`${where}${position(declared, index)}: ${found.join('; ')}.`);
    return [];
  });
}

function compileCache(
  options: CacheOptions | undefined,
  definition: Constructor,
  id: string,
  definitions: PolicyDefinitions,
  problems: string[],
): CompiledCache | undefined {
  if (!options) return undefined;
  const where = `@Cache on ${definition.name}`;
  const found: string[] = [];
  const ttl = windowProblem(options.ttlMs, 'ttlMs');
  if (ttl) found.push(ttl);
  const scope = options.scope ?? 'tenant';
  if (scope !== 'tenant' && scope !== 'subject' && scope !== 'public') {
    found.push(`scope must be 'tenant', 'subject' or 'public' (got ${JSON.stringify(options.scope)})`);
  }
  const tool = definitions.tools.find((each) => each.toolClass === definition);
  if (tool) found.push(...uncacheableTool(tool));
  const resource = definitions.resources.find((each) => each.resourceClass === definition);
  const hint = resource?.cacheHint;
  if (hint?.cacheScope !== undefined && hint.cacheScope !== (scope === 'public' ? 'public' : 'private')) {
    found.push(
      `the resource's cacheHint says cacheScope '${hint.cacheScope}' but the cache is ${scope === 'public' ? 'public' : `per ${scope}`}`,
    );
  }
  if (hint?.ttlMs !== undefined && typeof options.ttlMs === 'number' && hint.ttlMs > options.ttlMs) {
    found.push(
      `the resource's cacheHint ttlMs (${hint.ttlMs}) is longer than the cache keeps answers (${options.ttlMs})`,
    );
  }
  if (found.length > 0) {
    problems.push(`${where}: ${found.join('; ')}.`);
    return undefined;
  }
  return { id: `${id}#c`, ttlMs: options.ttlMs, scope };
}

/** Why a tool's answers may not be cached: they change something, or depend on more than the arguments. */
function uncacheableTool(tool: CompiledTool): string[] {
  const found: string[] = [];
  if (tool.definition.annotations?.readOnlyHint !== true) {
    found.push(
      `tool ${tool.name} may have side effects: only a tool declaring annotations: { readOnlyHint: true } can be cached`,
    );
  }
  if (tool.consent)
    found.push(`tool ${tool.name} asks for consent (@RequiresConsent), which a cached answer would skip`);
  if (tool.task) found.push(`tool ${tool.name} runs as a task`);
  if (asksForInput(tool.toolClass)) {
    found.push(
      `tool ${tool.name} asks the caller for input (ctx.requestInput), so its answer depends on more than its arguments`,
    );
  }
  return found;
}

/** Whether the class's own methods call ctx.requestInput or read ctx.inputs (read from their source text). */
function asksForInput(toolClass: Constructor): boolean {
  const prototype = toolClass.prototype as Record<string, unknown>;
  return Object.getOwnPropertyNames(prototype).some((name) => {
    const method = Object.getOwnPropertyDescriptor(prototype, name)?.value;
    return (
      typeof method === 'function' && /\.requestInput\s*\(|\.inputs\b/.test(Function.prototype.toString.call(method))
    );
  });
}

/** What stops the app's policies from running on `provider` (absent: storage replaced by one with no backend). */
export function policyProblems(
  policies: ReadonlyMap<Constructor, CallPolicy>,
  provider: StorageProvider | undefined,
): string[] {
  const problems: string[] = [];
  if (!provider) {
    problems.push(
      "Call policies (@RateLimit, @Quota, @Cache) need the app's storage service; it was replaced by one without a backend.",
    );
    return problems;
  }
  const counts = [...policies.values()].some((policy) => policy.rateLimits.length + policy.quotas.length > 0);
  if (counts && !(provider.claimRate && provider.addCounter && provider.readCounters)) {
    problems.push(
      'Rate limits and quotas need a storage provider with counters (claimRate, addCounter, readCounters); the ' +
        'configured one has none. Use STORAGE_PROVIDER_TYPE=in-memory, filesystem or redis, or add them to your provider.',
    );
  }
  return problems;
}

function limitProblem(limit: unknown): string | undefined {
  return Number.isSafeInteger(limit) && (limit as number) >= 1 && (limit as number) <= MAX_LIMIT
    ? undefined
    : `limit must be a whole number from 1 to ${MAX_LIMIT} (got ${String(limit)})`;
}

function windowProblem(ms: unknown, name: string): string | undefined {
  return Number.isSafeInteger(ms) && (ms as number) >= MIN_WINDOW_MS && (ms as number) <= MAX_WINDOW_MS
    ? undefined
    : `${name} must be a whole number of milliseconds from ${MIN_WINDOW_MS} to ${MAX_WINDOW_MS} (got ${String(ms)})`;
}

function byProblem(by: PolicyKey | undefined): string | undefined {
  if (by === undefined || typeof by === 'function' || KEYS.includes(by)) return undefined;
  return `by must be 'tenant', 'subject', 'client', 'ip' or a function of the Context (got ${JSON.stringify(by)})`;
}

function position(declared: readonly unknown[] | undefined, index: number): string {
  return (declared?.length ?? 0) > 1 ? ` (the ${ordinal(index + 1)})` : '';
}

function ordinal(n: number): string {
  return n === 1 ? 'first' : n === 2 ? 'second' : n === 3 ? 'third' : `${n}th`;
}
