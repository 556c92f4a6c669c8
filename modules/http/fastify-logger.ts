// Fastify expects pino's default method names (warn, fatal, trace); Kiln's pino speaks the eight MCP level names.
// This view maps one onto the other so Fastify logs through the app's own logger and destination.
import type { FastifyBaseLogger } from 'fastify';
import type { Logger } from '../../src/index.js';

export function fastifyLogger(logger: Logger): FastifyBaseLogger {
  return new LoggerView(logger, undefined) as unknown as FastifyBaseLogger;
}

/**
 * Fastify asks for a child logger on every request, and most requests never log: a child is one small object whose
 * methods live on the prototype, and the pino child behind it is built on the first line written.
 */
class LoggerView {
  #target: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: Record<string, unknown> | undefined,
  ) {}

  private get logger(): Logger {
    this.#target ??= this.bindings === undefined ? this.parent : (this.parent.child(this.bindings) as Logger);
    return this.#target;
  }

  get level(): string {
    return this.logger.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  silent(): void {}

  trace(...args: unknown[]): void {
    this.write('debug', args);
  }

  debug(...args: unknown[]): void {
    this.write('debug', args);
  }

  info(...args: unknown[]): void {
    this.write('info', args);
  }

  warn(...args: unknown[]): void {
    this.write('warning', args);
  }

  error(...args: unknown[]): void {
    this.write('error', args);
  }

  fatal(...args: unknown[]): void {
    this.write('critical', args);
  }

  child(bindings: Record<string, unknown>): LoggerView {
    return new LoggerView(this.logger, bindings);
  }

  private write(method: 'debug' | 'info' | 'warning' | 'error' | 'critical', args: unknown[]): void {
    (this.logger[method] as (...a: unknown[]) => void)(...args);
  }
}
