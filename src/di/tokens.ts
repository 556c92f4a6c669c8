// Framework tokens every module can inject without importing anything, and `createToken` for typed symbols. The
// core module (src/app/core-module.ts) provides them like any other module's providers, so the testing kit
// overrides and resolves them through the one path every provider takes.
import type { Token } from '../../decorators/types.js';
import type { KilnConfig } from '../config/kiln-config.js';
import type { Context } from '../context/context.js';
import type { Logger } from '../logging/index.js';
import type { ChangeNotifier } from '../notifications/change-notifier.js';
import type { StorageService } from '../storage/index.js';
import type { UsageLedger } from '../storage/usage-ledger.js';
import type { KilnTelemetry } from '../telemetry/kiln-telemetry.js';

export function createToken<T>(description: string): Token<T> {
  return Symbol(description) as Token<T>;
}

const FRAMEWORK_KEY = 'mcp-kiln.';

/**
 * A framework token, in the global symbol registry: the ES module and the CommonJS build of the runtime, loaded in one
 * process (a CommonJS app run by the `kiln` command, say), inject the same one. The metadata keys are shared alike.
 */
const frameworkToken = <T>(name: string) => Symbol.for(`${FRAMEWORK_KEY}${name}`) as Token<T>;

/** The request's Context. Request-scoped: a singleton that injects it fails at boot. */
export const CONTEXT = frameworkToken<Context>('CONTEXT');
/** The app's pino logger (for services and lifecycle code; handlers use `ctx.log`). */
export const LOGGER = frameworkToken<Logger>('LOGGER');
/** The StorageService behind `ctx.state`. */
export const STORAGE = frameworkToken<StorageService>('STORAGE');
/** The validated configuration. */
export const KILN_CONFIG = frameworkToken<KilnConfig>('KILN_CONFIG');
/** The ChangeNotifier: list-changed and resource-updated notifications from services and background work. */
export const NOTIFIER = frameworkToken<ChangeNotifier>('NOTIFIER');
/** The UsageLedger: calls, errors and time per tenant, definition and day (MCP_USAGE_ACCOUNTING=on). */
export const USAGE = frameworkToken<UsageLedger>('USAGE');

/** What the registered OpenTelemetry SDK offers, read once at boot (framework-internal: users call the API). */
export const TELEMETRY = frameworkToken<KilnTelemetry>('TELEMETRY');

/** Tokens every module sees without importing the core module. */
export const FRAMEWORK_TOKENS: ReadonlySet<unknown> = new Set([CONTEXT, LOGGER, STORAGE, KILN_CONFIG, NOTIFIER, USAGE]);
export const REQUEST_SCOPED_FRAMEWORK_TOKENS: ReadonlySet<unknown> = new Set([CONTEXT]);

/** A readable name for a token in boot messages. */
export function tokenName(token: unknown): string {
  if (typeof token === 'function') return token.name || '<anonymous class>';
  if (typeof token === 'symbol') {
    const key = Symbol.keyFor(token);
    if (key?.startsWith(FRAMEWORK_KEY)) return key.slice(FRAMEWORK_KEY.length);
    return token.description ?? token.toString();
  }
  return String(token);
}
