// The process logger: pino writing JSON lines to stderr, with the eight MCP level names as its only levels.
// stdout is never a sink — on the stdio transport it carries the JSON-RPC wire and nothing else.
import pino from 'pino';
import { activeTraceFields } from '../telemetry/log-correlation.js';
import type { OtelApi } from '../telemetry/otel-api.js';
import type { LogLevel } from './log-levels.js';

/** A pino logger whose methods are exactly the MCP levels (`logger.notice`, `logger.warning`, …). */
export type Logger = pino.Logger<LogLevel, true>;

export interface LoggerOptions {
  readonly level: LogLevel;
  readonly name?: string;
  /** Where lines go; stderr (fd 2) when omitted. */
  readonly destination?: pino.DestinationStream;
  /** Adds the active span's `traceId` and `spanId`, read through this API, to every line; set when a TracerProvider is registered. */
  readonly traceCorrelation?: OtelApi;
}

// Pino's own numbers where the names coincide, so pino tooling keeps reading debug/info/error correctly.
const PINO_LEVEL_VALUES: { [level in LogLevel]: number } = {
  debug: 20,
  info: 30,
  notice: 35,
  warning: 40,
  error: 50,
  critical: 60,
  alert: 70,
  emergency: 80,
};

/** The default sink: file descriptor 2. */
export function createStderrDestination(): ReturnType<typeof pino.destination> {
  // Synchronous so lines written just before a stdio server exits on stdin close are not lost.
  return pino.destination({ fd: 2, sync: true });
}

export function createLogger(options: LoggerOptions): Logger {
  return pino<LogLevel, true>(
    {
      level: options.level,
      ...(options.name === undefined ? {} : { name: options.name }),
      customLevels: PINO_LEVEL_VALUES,
      useOnlyCustomLevels: true,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: serializeError },
      // The line's own fields win over the mixin's, so a ctx.log line keeps its operation span's ids.
      ...(options.traceCorrelation ? { mixin: activeTraceFields(options.traceCorrelation) } : {}),
    },
    options.destination ?? createStderrDestination(),
  );
}

// Pino's stock serializer copies every enumerable property of an error, which for HTTP client errors
// includes request headers and credentials; keep only what diagnosis needs, down the `cause` chain (a refusal such
// as a 503 says why through its cause).
function serializeError(value: unknown, depth = 0): unknown {
  if (!(value instanceof Error)) return value;
  const cause = value.cause instanceof Error && depth < 4 ? { cause: serializeError(value.cause, depth + 1) } : {};
  return { type: value.name, message: value.message, stack: value.stack, ...cause };
}
