// The MCP log levels (the spec's `LoggingLevel` names) in RFC 5424 severity order, least severe first.
// One ordering serves the process log, the wire mirror and any level parsed from config or a client.

export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;

export type LogLevel = (typeof LOG_LEVELS)[number];

/** True when `level` is at or above `floor` in RFC 5424 order. */
export function isLevelEnabled(level: LogLevel, floor: LogLevel): boolean {
  return LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(floor);
}

/** The level named by `value` (trimmed, case-insensitive), or `undefined` when it names none. */
export function parseLogLevel(value: unknown): LogLevel | undefined {
  if (typeof value !== 'string') return undefined;
  const name = value.trim().toLowerCase();
  return LOG_LEVELS.find((level) => level === name);
}
