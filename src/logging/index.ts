// Logging: the MCP level scale, the stderr process logger, redaction, and the request-scoped `ctx.log`.

export { type AppPinoLogger, adoptLogger, isPinoLogger } from './adopted-logger.js';
export {
  type ContextLogger,
  type ContextLoggerOptions,
  createContextLogger,
  type LogData,
  type LogMirror,
} from './context-logger.js';
export { isLevelEnabled, LOG_LEVELS, type LogLevel, parseLogLevel } from './log-levels.js';
export {
  createLogger,
  createStderrDestination,
  LOG_FORMATS,
  type LogFormat,
  type Logger,
  type LoggerOptions,
} from './logger.js';
export {
  CIRCULAR,
  DEFAULT_REDACTION,
  isSensitiveKey,
  REDACTED,
  Redaction,
  sanitizeForLogging,
  sanitizeRecordForLogging,
} from './redact.js';
