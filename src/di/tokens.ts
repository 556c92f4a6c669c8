// Framework tokens every module can inject without importing anything, and `createToken` for typed symbols.
import type { Token } from '../../decorators/types.js';

export function createToken<T>(description: string): Token<T> {
  return Symbol(description) as Token<T>;
}

/** The request's Context. Request-scoped: a singleton that injects it fails at boot. */
export const CONTEXT = createToken<unknown>('CONTEXT');
/** The app's pino logger (for services and lifecycle code; handlers use `ctx.log`). */
export const LOGGER = createToken<unknown>('LOGGER');
/** The StorageService behind `ctx.state`. */
export const STORAGE = createToken<unknown>('STORAGE');
/** The validated configuration. */
export const KILN_CONFIG = createToken<unknown>('KILN_CONFIG');
/** The ChangeNotifier: list-changed and resource-updated notifications from services and background work. */
export const NOTIFIER = createToken<unknown>('NOTIFIER');

export const FRAMEWORK_TOKENS: ReadonlySet<unknown> = new Set([CONTEXT, LOGGER, STORAGE, KILN_CONFIG, NOTIFIER]);
export const REQUEST_SCOPED_FRAMEWORK_TOKENS: ReadonlySet<unknown> = new Set([CONTEXT]);

/** A readable name for a token in boot messages. */
export function tokenName(token: unknown): string {
  if (typeof token === 'function') return token.name || '<anonymous class>';
  if (typeof token === 'symbol') return token.description ?? token.toString();
  return String(token);
}
