// The process logger: pino writing JSON lines to stderr, with the eight MCP level names as its only levels.
// stdout is never a sink — on the stdio transport it carries the JSON-RPC wire and nothing else.
import { createRequire } from 'node:module';
import pino from 'pino';
import { KilnBootError } from '../errors/boot-error.js';
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
  /** pino options of the app's (createApp's `logger`): a transport, redaction, base bindings, serializers, … */
  readonly pino?: pino.LoggerOptions<string, boolean>;
  /** `json` lines, or `pretty` ones through pino-pretty (MCP_LOG_FORMAT; `auto` chooses, see prettyWanted). */
  readonly format?: LogFormat;
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

/** pino's level names on the MCP scale. */
const PINO_NAMES: Readonly<Record<string, LogLevel>> = { trace: 'debug', warn: 'warning', fatal: 'critical' };

/** The default sink: file descriptor 2. */
export function createStderrDestination(): ReturnType<typeof pino.destination> {
  // Synchronous so lines written just before a stdio server exits on stdin close are not lost.
  return pino.destination({ fd: 2, sync: true });
}

export const LOG_FORMATS = ['auto', 'json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export function createLogger(options: LoggerOptions): Logger {
  // The app's options are pino's for any level names; the levels below replace theirs.
  const given = (options.pino ?? {}) as unknown as pino.LoggerOptions<LogLevel, true>;
  const pretty = !given.transport && options.destination === undefined ? prettyStream(options.format) : undefined;
  return pino<LogLevel, true>(
    {
      ...(options.name === undefined ? {} : { name: options.name }),
      // A transport or pino-pretty names levels by number: the label stays for JSON lines written here.
      ...(given.transport || pretty ? {} : { formatters: { level: (label: string) => ({ level: label }) } }),
      serializers: { err: serializeError },
      // The line's own fields win over the mixin's, so a ctx.log line keeps its operation span's ids.
      ...(options.traceCorrelation ? { mixin: activeTraceFields(options.traceCorrelation) } : {}),
      ...given,
      // The app's options may name pino's own levels (`warn`, `fatal`): read on the MCP scale.
      level: given.level === undefined ? options.level : (PINO_NAMES[given.level] ?? (given.level as LogLevel)),
      customLevels: PINO_LEVEL_VALUES,
      useOnlyCustomLevels: true,
    },
    given.transport ? undefined : (options.destination ?? pretty ?? createStderrDestination()),
  );
}

/**
 * pino-pretty's stream on stderr, for `pretty`, and for `auto` in development: stderr is a terminal and NODE_ENV is
 * not production. Only where pino-pretty is installed (an optional peer dependency); JSON lines otherwise.
 */
function prettyStream(format: LogFormat = 'json'): pino.DestinationStream | undefined {
  const wanted =
    format === 'pretty' ||
    (format === 'auto' && process.stderr.isTTY === true && process.env.NODE_ENV !== 'production');
  if (!wanted) return undefined;
  let pretty: ((options: Record<string, unknown>) => pino.DestinationStream) | undefined;
  try {
    pretty = createRequire(import.meta.url)('pino-pretty') as typeof pretty;
  } catch {
    if (format === 'pretty') {
      throw new KilnBootError('MCP_LOG_FORMAT=pretty needs pino-pretty: npm install --save-dev pino-pretty');
    }
    return undefined;
  }
  return pretty?.({ destination: 2, sync: true, customLevels: PINO_LEVEL_VALUES, useOnlyCustomProps: true });
}

// Pino's stock serializer copies every enumerable property of an error, which for HTTP client errors
// includes request headers and credentials; keep only what diagnosis needs, down the `cause` chain (a refusal such
// as a 503 says why through its cause).
function serializeError(value: unknown, depth = 0): unknown {
  if (!(value instanceof Error)) return value;
  const cause = value.cause instanceof Error && depth < 4 ? { cause: serializeError(value.cause, depth + 1) } : {};
  return { type: value.name, message: value.message, stack: value.stack, ...cause };
}
