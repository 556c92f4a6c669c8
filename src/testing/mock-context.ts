// createMockContext: a real Context for calling a handler directly. State runs through a real StorageService (key
// rules, JSON round trip, tenant scoping as in production), ctx.log through a real ContextLogger, and every
// notification channel records into the capture that getLogs / getProgress / getEnrichment read back.

import type { ClientCapabilities } from '@modelcontextprotocol/server';
import type { ErrorContract } from '../../decorators/types.js';
import type { Bivariant } from '../context/bivariant.js';
import type { Context } from '../context/context.js';
import { type ContextSeed, createContext } from '../context/create-context.js';
import { compileContract, type Recovery, type TypedFail } from '../context/error-contract.js';
import type { HttpRequestInfo } from '../context/http-request.js';
import { type AuthContext, generateRequestId } from '../context/request-context.js';
import { DEFAULT_TENANT } from '../protocol/principal.js';
import { InMemoryStorageProvider, StorageService } from '../storage/index.js';
import { type CapturedLog, type CapturedProgress, registerCapture } from './mock-capture.js';
import { createTestingLogger } from './testing-logger.js';

export interface MockContextOptions {
  /**
   * Defaults to `auth.tenantId` when `auth` is given (none if it has none: `ctx.state` then refuses, as in production),
   * else `'default'` (what stdio and unauthenticated HTTP use).
   */
  readonly tenantId?: string;
  readonly auth?: AuthContext;
  /** Defaults to a generated `XXXXX-XXXXX` id. */
  readonly requestId?: string;
  /** Share one storage between contexts (a second round, another tenant); a fresh in-memory one otherwise. */
  readonly storage?: StorageService;
  /** The @Errors contract `ctx.fail` and `ctx.recoveryFor` are built from. */
  readonly contract?: ErrorContract;
  readonly signal?: AbortSignal;
  /** The URI a resource handler is reading. */
  readonly uri?: string | URL;
  /**
   * Seeds `ctx.clientCapabilities`, and `ctx.inputs` keeps only the responses it covers, as in production. Omitted,
   * `ctx.clientCapabilities` is `undefined` and the seeded responses are not filtered.
   */
  readonly clientCapabilities?: ClientCapabilities;
  /** The answers this round carries (`ctx.inputs`), as a client sends them: bare responses keyed as they were asked. */
  readonly inputResponses?: Readonly<Record<string, unknown>>;
  /** The `requestState` this round echoes (`ctx.inputs.state()`). */
  readonly requestState?: string;
  /** The HTTP request as `ctx.http` shows it; omitted, the call came over stdio (`ctx.http` is undefined). */
  readonly http?: Partial<HttpRequestInfo>;
}

/**
 * A Context assignable to any HandlerContext: `fail` and `recoveryFor` accept any reason, since a mock does not know
 * which tool it will be handed to. Undeclared reasons behave as in production (an InternalError, an empty hint).
 */
export type MockContext = Omit<Context, 'recoveryFor'> & {
  readonly fail: TypedFail<string>;
  readonly recoveryFor: Bivariant<(reason: string) => Recovery>;
};

/** A fresh in-memory StorageService, for contexts that must share state (another tenant, a second round). */
export function createInMemoryStorage(): StorageService {
  return new StorageService(new InMemoryStorageProvider());
}

export function createMockContext(options: MockContextOptions = {}): MockContext {
  const storage = options.storage ?? createInMemoryStorage();
  const logger = createTestingLogger();
  const logs: CapturedLog[] = [];
  const progress: CapturedProgress[] = [];
  const { requestState } = options;
  const seed: Omit<ContextSeed, 'operation'> = {
    requestId: options.requestId ?? generateRequestId(),
    tenantId: options.tenantId ?? (options.auth ? options.auth.tenantId : DEFAULT_TENANT),
    auth: options.auth,
    era: 'envelope',
    signal: options.signal ?? new AbortController().signal,
    clientCapabilities: options.clientCapabilities,
    inputResponses: options.inputResponses,
    requestState: requestState === undefined ? undefined : <T>() => requestState as T,
    unfilteredInputs: options.clientCapabilities === undefined,
    uri: options.uri === undefined ? undefined : new URL(options.uri),
    http: options.http === undefined ? undefined : mockHttp(options.http),
    channel: {
      log: (level, payload) => {
        const { message, ...data } = payload;
        logs.push({ level, message: String(message), data });
      },
      progress: async (params) => {
        progress.push(params);
      },
    },
  };
  const built = createContext(
    { ...seed, operation: 'MockContext' },
    { logger, logFloor: 'debug', stateFor: (tenantId) => storage.forTenant(tenantId) },
    compileContract(options.contract),
  );
  registerCapture(built.context, {
    seed,
    storage,
    logger,
    enrichment: built.enrichment,
    media: built.media,
    logs,
    progress,
  });
  return built.context as MockContext;
}

function mockHttp(http: Partial<HttpRequestInfo>): () => HttpRequestInfo {
  const info: HttpRequestInfo = {
    headers: http.headers ?? {},
    remoteAddress: http.remoteAddress ?? '127.0.0.1',
    url: http.url ?? 'http://127.0.0.1/mcp',
  };
  return () => info;
}
