import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createContextLogger,
  createLogger,
  type LogData,
  type LogLevel,
  type LogMirror,
  REDACTED,
} from '../../src/logging/index.js';
import { captureDestination } from './capture-destination.js';

const CANONICAL: LogData = {
  requestId: 'req-1',
  traceId: 'trace-1',
  spanId: 'span-1',
  tenantId: 'tenant-1',
  sessionId: 'session-1',
  operation: 'tools/call',
};

interface SetupOptions {
  readonly loggerLevel?: LogLevel;
  readonly floor?: LogLevel;
  readonly extra?: LogData;
  readonly canonical?: LogData;
  readonly mirror?: LogMirror;
}

function setup(options: SetupOptions = {}) {
  const destination = captureDestination();
  const logger = createLogger({ level: options.loggerLevel ?? 'debug', destination });
  const mirrored: { level: LogLevel; payload: Record<string, unknown> }[] = [];
  const log = createContextLogger({
    logger,
    canonical: options.canonical ?? CANONICAL,
    extra: options.extra,
    floor: options.floor,
    mirror:
      options.mirror ??
      ((level, payload) => {
        mirrored.push({ level, payload });
      }),
  });
  return { log, logger, destination, mirrored };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

describe('createContextLogger: one level gate for both sinks', () => {
  it('writes and mirrors nothing below the floor, and both at or above it', () => {
    const { log, destination, mirrored } = setup({ floor: 'notice' });
    log.debug('d');
    log.info('i');
    expect(destination.lines).toEqual([]);
    expect(mirrored).toEqual([]);

    log.notice('n');
    log.warning('w');
    log.error('e');
    expect(destination.lines.map((line) => [line.level, line.msg])).toEqual([
      ['notice', 'n'],
      ['warning', 'w'],
      ['error', 'e'],
    ]);
    expect(mirrored.map(({ level, payload }) => [level, payload.message])).toEqual([
      ['notice', 'n'],
      ['warning', 'w'],
      ['error', 'e'],
    ]);
  });

  it('logs through methods taken off the logger, as a callback would call them', async () => {
    const { log, destination, mirrored } = setup();
    const { info, error } = log;
    info('detached', { n: 1 });
    await Promise.reject(new Error('boom')).catch((failure: unknown) => error('caught', failure));
    expect(destination.lines.map((line) => [line.msg, line.n ?? line.error])).toEqual([
      ['detached', 1],
      ['caught', 'boom'],
    ]);
    expect(mirrored.map((entry) => entry.level)).toEqual(['info', 'error']);
  });

  it('takes the logger level as the floor when it is stricter, for the mirror too', () => {
    const { log, destination, mirrored } = setup({ loggerLevel: 'error', floor: 'debug' });
    log.warning('w');
    expect(destination.lines).toEqual([]);
    expect(mirrored).toEqual([]);
  });

  it('follows a runtime change of the logger level on both sinks', () => {
    const { log, logger, destination, mirrored } = setup({ loggerLevel: 'debug' });
    log.info('before');
    logger.level = 'warning';
    log.info('after');
    expect(destination.lines.map((line) => line.msg)).toEqual(['before']);
    expect(mirrored.map(({ payload }) => payload.message)).toEqual(['before']);
  });

  it('defaults the floor to the logger level when none is given', () => {
    const { log, destination, mirrored } = setup({ loggerLevel: 'info' });
    log.debug('d');
    log.info('i');
    expect(destination.lines.map((line) => line.msg)).toEqual(['i']);
    expect(mirrored.map(({ payload }) => payload.message)).toEqual(['i']);
  });
});

describe('createContextLogger: the process-log line', () => {
  it('carries the message, the data, the flattened extra and the canonical fields', () => {
    const { log, destination } = setup({ extra: { itemId: 'item-7' } });
    log.info('Retrying upstream call', { attempt: 2, url: 'https://upstream.test' });
    expect(destination.lines[0]).toMatchObject({
      level: 'info',
      msg: 'Retrying upstream call',
      attempt: 2,
      url: 'https://upstream.test',
      itemId: 'item-7',
      ...CANONICAL,
    });
  });

  it('keeps the context value when data or extra reuse a canonical field name', () => {
    const { log, destination } = setup({ extra: { traceId: 'spoof-extra', requestId: 'spoof-extra' } });
    log.info('m', { requestId: 'spoof-data', tenantId: 'spoof-data', operation: 'spoof-data', attempt: 1 });
    expect(destination.lines[0]).toMatchObject({ ...CANONICAL, attempt: 1 });
  });

  it("keeps a caller's canonical-named field when the context does not set that field", () => {
    const { log, destination } = setup({ canonical: { requestId: 'req-2', traceId: undefined } });
    log.info('m', { spanId: 'caller-span', traceId: 'caller-trace' });
    expect(destination.lines[0]).toMatchObject({ requestId: 'req-2', spanId: 'caller-span', traceId: 'caller-trace' });
  });

  it('lets per-call data win over extra for an ordinary key', () => {
    const { log, destination } = setup({ extra: { attempt: 1 } });
    log.info('m', { attempt: 2 });
    expect(destination.lines[0]?.attempt).toBe(2);
  });

  it("never lets caller data duplicate the line's own level, msg or time keys", () => {
    const { log, destination } = setup();
    log.warning('real', { level: 'debug', msg: 'fake', time: 0 });
    const text = destination.texts[0] ?? '';
    expect(text.match(/"level":/g)).toHaveLength(1);
    expect(text.match(/"msg":/g)).toHaveLength(1);
    expect(text.match(/"time":/g)).toHaveLength(1);
    expect(destination.lines[0]).toMatchObject({ level: 'warning', msg: 'real' });
  });

  it('adds the error message and the stack on error()', () => {
    const { log, destination } = setup();
    const failure = new TypeError('boom');
    log.error('Failed to fetch upstream', failure, { statusCode: 502, error: 'spoof' });
    const line = destination.lines[0] ?? {};
    expect(line).toMatchObject({ level: 'error', msg: 'Failed to fetch upstream', error: 'boom', statusCode: 502 });
    expect(line.err).toMatchObject({ type: 'TypeError', message: 'boom' });
    expect((line.err as { stack: string }).stack).toContain('boom');
  });

  it('masks sensitive fields at any depth, including those in extra', () => {
    const { log, destination } = setup({ extra: { client_secret: 'cs' } });
    log.info('m', { apiKey: 'k', nested: { list: [{ accessToken: 't', id: 1 }] } });
    expect(destination.lines[0]).toMatchObject({
      apiKey: REDACTED,
      client_secret: REDACTED,
      nested: { list: [{ accessToken: REDACTED, id: 1 }] },
    });
    expect(destination.texts[0]).not.toMatch(/"(k|t|cs)"/);
  });
});

describe('createContextLogger: the wire mirror', () => {
  it('sends { message, ...data } at the call level, without context fields or extra', () => {
    const { log, mirrored } = setup({ extra: { itemId: 'item-7' } });
    log.notice('Processing query', { query: 'q' });
    expect(mirrored).toEqual([{ level: 'notice', payload: { query: 'q', message: 'Processing query' } }]);
  });

  it('never lets a data key named message replace the log line', () => {
    const { log, mirrored } = setup();
    log.info('the real line', { message: 'spoof', a: 1 });
    expect(mirrored[0]?.payload).toEqual({ a: 1, message: 'the real line' });
  });

  it("sets error to the Error's message, over a data key named error", () => {
    const { log, mirrored } = setup();
    log.error('failed', new Error('boom'), { error: 'spoof', message: 'spoof', url: 'u' });
    expect(mirrored[0]).toEqual({ level: 'error', payload: { url: 'u', message: 'failed', error: 'boom' } });
  });

  it('sets error to String(value) for a non-Error second argument', () => {
    const { log, mirrored } = setup();
    log.error('a', 'plain text');
    log.error('b', 404);
    log.error('c', Object.create(null));
    expect(mirrored.map(({ payload }) => payload.error)).toEqual(['plain text', '404', '[object Object]']);
  });

  it('adds no error key when error() gets no error', () => {
    const { log, mirrored } = setup();
    log.error('just a message');
    expect(mirrored[0]?.payload).toEqual({ message: 'just a message' });
  });

  it('masks sensitive fields at any depth', () => {
    const { log, mirrored } = setup();
    log.info('m', { headers: { 'X-Api-Key': 'k' }, rows: [{ client_secret: 's', tokenCount: 3, tenantId: 't' }] });
    expect(mirrored[0]?.payload).toEqual({
      headers: { 'X-Api-Key': REDACTED },
      rows: [{ client_secret: REDACTED, tokenCount: REDACTED, tenantId: 't' }],
      message: 'm',
    });
  });

  it("never mutates the caller's data", () => {
    const { log, mirrored, destination } = setup();
    const data = deepFreeze({
      message: 'spoof',
      error: 'spoof',
      requestId: 'spoof',
      password: 'p',
      nested: { token: 't' },
    });
    const snapshot = structuredClone(data);
    log.info('m', data);
    log.error('e', new Error('x'), data);
    expect(data).toEqual(snapshot);
    expect(mirrored).toHaveLength(2);
    expect(destination.lines).toHaveLength(2);
  });
});

describe('createContextLogger: mirror failures', () => {
  const unhandled = vi.fn();
  afterEach(() => {
    process.off('unhandledRejection', unhandled);
    unhandled.mockReset();
  });

  async function settle(): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }

  it('swallows a mirror that throws synchronously, still writing the line', () => {
    const { log, destination } = setup({
      mirror: () => {
        throw new Error('client gone');
      },
    });
    expect(() => log.warning('still logged')).not.toThrow();
    expect(destination.lines.map((line) => line.msg)).toEqual(['still logged', 'Log mirror delivery failed']);
    expect(destination.lines[1]).toMatchObject({ level: 'debug', error: 'client gone', requestId: 'req-1' });
  });

  it('swallows a rejected mirror promise without an unhandled rejection', async () => {
    process.on('unhandledRejection', unhandled);
    const { log, destination } = setup({ mirror: () => Promise.reject(new Error('send failed')) });
    expect(() => log.info('still logged')).not.toThrow();
    await settle();
    expect(unhandled).not.toHaveBeenCalled();
    expect(destination.lines.map((line) => line.msg)).toEqual(['still logged', 'Log mirror delivery failed']);
    expect(destination.lines[1]).toMatchObject({ error: 'send failed' });
  });

  it('reports a mirror failure only when the logger level admits debug', async () => {
    process.on('unhandledRejection', unhandled);
    const { log, destination } = setup({ loggerLevel: 'info', mirror: () => Promise.reject(new Error('send failed')) });
    log.info('still logged');
    await settle();
    expect(unhandled).not.toHaveBeenCalled();
    expect(destination.lines.map((line) => line.msg)).toEqual(['still logged']);
  });
});
