// Fastify expects pino's default method names (warn, fatal, trace); Kiln's pino speaks the eight MCP level names.
// This view maps one onto the other so Fastify logs through the app's own logger and destination.
import type { FastifyBaseLogger } from 'fastify';
import type { Logger } from '../../src/logging/index.js';

export function fastifyLogger(logger: Logger): FastifyBaseLogger {
  const view = {
    get level() {
      return logger.level;
    },
    set level(level: string) {
      logger.level = level;
    },
    silent: () => undefined,
    trace: logger.debug.bind(logger),
    debug: logger.debug.bind(logger),
    info: logger.info.bind(logger),
    warn: logger.warning.bind(logger),
    error: logger.error.bind(logger),
    fatal: logger.critical.bind(logger),
    child: (bindings: Record<string, unknown>) => fastifyLogger(logger.child(bindings) as Logger),
  };
  return view as unknown as FastifyBaseLogger;
}
