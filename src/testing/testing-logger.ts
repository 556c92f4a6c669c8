// A process logger for tests: every level enabled, so ctx.log reaches the wire mirror at any level, and nothing
// written anywhere, so test output stays clean.
import { createLogger, type Logger } from '../logging/index.js';

export function createTestingLogger(): Logger {
  return createLogger({ level: 'debug', name: 'kiln-test', destination: { write: () => undefined } });
}
