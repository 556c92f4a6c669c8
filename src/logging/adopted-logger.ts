// A pino logger the app hands over (createApp's `logger`), seen through Kiln's eight MCP level names: `notice` writes
// at pino's info, `warning` at warn, `critical`, `alert` and `emergency` at fatal. Lines keep going through the app's
// own instance, so its destination, transports, redaction, serializers, mixins and bindings all apply.
import type pino from 'pino';
import type { LogLevel } from './log-levels.js';
import type { Logger } from './logger.js';

type PinoMethod = 'debug' | 'info' | 'warn' | 'error' | 'fatal';

const WRITES_AT: { [level in LogLevel]: PinoMethod } = {
  debug: 'debug',
  info: 'info',
  notice: 'info',
  warning: 'warn',
  error: 'error',
  critical: 'fatal',
  alert: 'fatal',
  emergency: 'fatal',
};

/** pino's level names as the MCP scale reads them; `silent` stays silent (nothing is enabled). */
const READS_AS: Readonly<Record<string, string>> = {
  trace: 'debug',
  debug: 'debug',
  info: 'info',
  warn: 'warning',
  error: 'error',
  fatal: 'critical',
};

/** A pino logger of the app's, whatever custom levels it has: what Kiln needs of one. */
export interface AppPinoLogger extends pino.BaseLogger {
  child(bindings: pino.Bindings): AppPinoLogger;
  bindings(): pino.Bindings;
  isLevelEnabled(level: string): boolean;
}

/** Whether `value` is a pino logger (an instance), not pino options. */
export function isPinoLogger(value: unknown): value is AppPinoLogger {
  const candidate = value as Partial<AppPinoLogger> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.child === 'function' &&
    typeof candidate.info === 'function' &&
    typeof candidate.bindings === 'function'
  );
}

class AdoptedLogger {
  constructor(private readonly target: AppPinoLogger) {}

  get level(): string {
    return READS_AS[this.target.level] ?? this.target.level;
  }

  set level(level: string) {
    this.target.level = (WRITES_AT as Record<string, string>)[level] ?? level;
  }

  isLevelEnabled(level: string): boolean {
    return this.target.isLevelEnabled((WRITES_AT as Record<string, string>)[level] ?? level);
  }

  bindings(): pino.Bindings {
    return this.target.bindings();
  }

  child(bindings: pino.Bindings): AdoptedLogger {
    return new AdoptedLogger(this.target.child(bindings));
  }

  silent(): void {}
}

for (const [level, method] of Object.entries(WRITES_AT)) {
  Object.defineProperty(AdoptedLogger.prototype, level, {
    value(this: AdoptedLogger, ...args: unknown[]) {
      const target = (this as unknown as { target: AppPinoLogger }).target;
      (target[method] as (...a: unknown[]) => void).apply(target, args);
    },
  });
}

/** The app's pino logger as Kiln's Logger, under `name` (a child, so the app's own lines are told apart). */
export function adoptLogger(logger: AppPinoLogger, name: string): Logger {
  return new AdoptedLogger(logger.child({ name })) as unknown as Logger;
}
