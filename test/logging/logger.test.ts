import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createLogger, createStderrDestination, LOG_LEVELS } from '../../src/logging/index.js';
import { captureDestination } from './capture-destination.js';

describe('createLogger', () => {
  it('has a method for each MCP level, writing that level name on the line', () => {
    const destination = captureDestination();
    const logger = createLogger({ level: 'debug', destination });
    for (const level of LOG_LEVELS) logger[level]({ n: 1 }, `at ${level}`);
    expect(destination.lines.map((line) => [line.level, line.msg])).toEqual(
      LOG_LEVELS.map((level) => [level, `at ${level}`]),
    );
    expect(destination.lines[0]).toMatchObject({ n: 1 });
  });

  it("has none of pino's own level methods", () => {
    const logger = createLogger({ level: 'debug', destination: captureDestination() });
    const methods = logger as unknown as Record<string, unknown>;
    expect(methods.warn).toBeUndefined();
    expect(methods.fatal).toBeUndefined();
    expect(methods.trace).toBeUndefined();
  });

  it('drops lines below its level, on the RFC 5424 order', () => {
    const destination = captureDestination();
    const logger = createLogger({ level: 'notice', destination });
    logger.info('dropped');
    logger.debug('dropped');
    logger.notice('kept');
    logger.warning('kept');
    expect(destination.lines.map((line) => line.level)).toEqual(['notice', 'warning']);
  });

  it('follows a runtime level change', () => {
    const destination = captureDestination();
    const logger = createLogger({ level: 'debug', destination });
    logger.level = 'error';
    logger.warning('dropped');
    logger.error('kept');
    expect(destination.lines.map((line) => line.msg)).toEqual(['kept']);
  });

  it('writes its name when given one', () => {
    const destination = captureDestination();
    createLogger({ level: 'info', name: 'kiln', destination }).info('hello');
    expect(destination.lines[0]).toMatchObject({ name: 'kiln', msg: 'hello' });
  });

  it('serializes an `err` to type, message and stack, without its other properties', () => {
    const destination = captureDestination();
    const logger = createLogger({ level: 'info', destination });
    const error = Object.assign(new TypeError('upstream failed'), { headers: { authorization: 'Bearer s3cr3t' } });
    logger.error({ err: error }, 'failed');
    const err = destination.lines[0]?.err as Record<string, unknown>;
    expect(err).toMatchObject({ type: 'TypeError', message: 'upstream failed' });
    expect(err.stack).toContain('upstream failed');
    expect(err).not.toHaveProperty('headers');
  });

  it('writes to stderr (fd 2) when no destination is given', () => {
    const logger = createLogger({ level: 'info' });
    const stream = (logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym];
    expect(stream).toMatchObject({ fd: 2 });
  });
});

describe('createStderrDestination', () => {
  it('targets file descriptor 2 synchronously', () => {
    // SonicBoom's typings omit these runtime fields, hence the object match.
    expect(createStderrDestination()).toMatchObject({ fd: 2, sync: true });
  });
});
