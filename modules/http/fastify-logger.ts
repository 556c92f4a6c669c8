// Fastify expects pino's default method names (warn, fatal, trace); Kiln's pino speaks the eight MCP level names.
// This view maps one onto the other so Fastify logs through the app's own logger and destination.
import type { FastifyBaseLogger } from 'fastify';
import type { Logger } from '../../src/index.js';

export function fastifyLogger(logger: Logger): FastifyBaseLogger {
  return view(() => logger);
}

// Fastify asks for a child logger on every request, and most requests never log: the pino child is built on the
// first line written, not per request.
function view(resolve: () => Logger): FastifyBaseLogger {
  let target: Logger | undefined;
  const logger = () => {
    target ??= resolve();
    return target;
  };
  const logs =
    (method: 'debug' | 'info' | 'warning' | 'error' | 'critical') =>
    (...args: unknown[]) =>
      (logger()[method] as (...a: unknown[]) => void)(...args);
  const adapted = {
    get level() {
      return logger().level;
    },
    set level(level: string) {
      logger().level = level;
    },
    silent: () => undefined,
    trace: logs('debug'),
    debug: logs('debug'),
    info: logs('info'),
    warn: logs('warning'),
    error: logs('error'),
    fatal: logs('critical'),
    child: (bindings: Record<string, unknown>) => view(() => logger().child(bindings) as Logger),
  };
  return adapted as unknown as FastifyBaseLogger;
}
