// Options of createApp: identity, input-edge switches, configuration source, app-wide guards, interceptors and
// exception filters, and provider overrides (testing).

import type { LoggerOptions as PinoLoggerOptions } from 'pino';
import type { QuotaOptions, RateLimitOptions } from '../../decorators/call-policies.js';
import type { CacheHint } from '../../decorators/resource.js';
import type { Constructor, InjectionToken, Provider } from '../../decorators/types.js';
import type { KilnExceptionFilter } from '../../decorators/use-filters.js';
import type { KilnGuard } from '../../decorators/use-guards.js';
import type { KilnInterceptor } from '../../decorators/use-interceptors.js';
import type { SessionMode } from '../config/kiln-config.js';
import type { InputOptions } from '../definitions/input/index.js';
import type { AppPinoLogger } from '../logging/index.js';
import type { ModuleStorageProviders } from '../storage/index.js';

export interface CreateAppOptions {
  /** serverInfo.name; defaults to the root module's name in kebab case. */
  readonly name?: string;
  /** serverInfo.version; defaults to 0.0.0. */
  readonly version?: string;
  readonly title?: string;
  /** Guidance the client may give its model about this server. */
  readonly instructions?: string;
  /** Server-wide switches of the argument-preparation stages (add-tool.md). */
  readonly input?: Partial<InputOptions>;
  /** Where configuration is read from; defaults to process.env. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * How 2025-era HTTP traffic is served unless MCP_SESSION_MODE says otherwise. `require: 'stateful'` refuses to
   * serve HTTP when the resolved mode is stateless (for servers whose tools need a live 2025 session).
   */
  readonly sessionMode?: { readonly default?: SessionMode; readonly require?: 'stateful' };
  /**
   * Server-wide 2026-07-28 cache hints per cacheable method (`tools/list`, `prompts/list`, `resources/list`,
   * `resources/templates/list`, `resources/read`, `server/discover`); a resource's own `cacheHint` wins per field.
   * Unset, results carry `ttlMs: 0` and `cacheScope: 'private'`.
   */
  readonly cacheHints?: Partial<Record<CacheableMethod, CacheHint>>;
  /**
   * Storage backends that live in modules, by STORAGE_PROVIDER_TYPE. createApp fills `redis` from `mcp-kiln/redis`
   * (loaded only when selected); pass your own to replace it.
   */
  readonly storageProviders?: ModuleStorageProviders;
  /**
   * The app's logger: a pino instance of yours (Kiln logs through it, as a child named `kiln`, its levels mapped onto
   * pino's), or pino options for the one Kiln makes (a `transport`, `redact`, `base`, …). Omitted, Kiln writes JSON
   * lines to stderr, or pretty ones in development (MCP_LOG_FORMAT). The HTTP host's Fastify logs through it too.
   */
  readonly logger?: AppPinoLogger | PinoLoggerOptions<string, boolean>;
  /** How long closing waits for requests in flight before closing anyway (default 10,000 ms). */
  readonly shutdownDrainMs?: number;
  /**
   * Guards every tool call, resource read and prompt get passes, before its module's and its class's own
   * (docs/concepts/call-chain.md). Built through DI per request, seeing what the root module sees.
   */
  readonly guards?: readonly Constructor<KilnGuard>[];
  /**
   * Rate limits on every tool call, resource read and prompt get together, before each module's and class's own
   * `@RateLimit` (docs/call-policies.md).
   */
  readonly rateLimits?: readonly RateLimitOptions[];
  /** Quotas on every call together, before each module's and class's own `@Quota`. */
  readonly quotas?: readonly QuotaOptions[];
  /**
   * The app's clock in epoch ms: call policies (rate refills, quota periods, cache ages) and the built-in storage
   * providers' expiry read it. Tests inject one to move time without waiting. Default Date.now.
   */
  readonly clock?: () => number;
  /**
   * Where the audit trail goes when MCP_AUDIT_LOG=on, instead of MCP_AUDIT_LOG_PATH: a pino logger of yours (a
   * child with its own destination or transport, say). Each record is one `info` line with the message `mcp.audit`.
   */
  readonly audit?: { readonly logger?: AppPinoLogger };
  /** The cap on every tool's content[] in bytes, unless a tool sets its own (`@Tool({ maxResultBytes })`). */
  readonly maxResultBytes?: number;
  /** Interceptors around every handler, outside its module's and its class's own. */
  readonly interceptors?: readonly Constructor<KilnInterceptor>[];
  /** Exception filters asked last, after the class's and the module's own. */
  readonly filters?: readonly Constructor<KilnExceptionFilter>[];
  /** Replaces providers by token, keeping the module that provides them (used by createTestingModule). */
  readonly overrides?: ReadonlyMap<InjectionToken, Provider>;
}

export type CacheableMethod =
  | 'tools/list'
  | 'prompts/list'
  | 'resources/list'
  | 'resources/templates/list'
  | 'resources/read'
  | 'server/discover';
