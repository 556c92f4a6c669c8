// Shared pieces of the Redis event store and bus tests: connections closed after each case, a logger whose lines a
// case can read, the compliance subject for RedisSessionEventStore, and listeners that record what a bus delivered.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import type { ServerEvent } from '@modelcontextprotocol/server';
import { afterEach, expect } from 'vitest';
import {
  createRedisConnection,
  type RedisConnection,
  RedisServerEventBus,
  RedisSessionEventStore,
} from '../../modules/redis/index.js';
import { createLogger, type Logger } from '../../src/logging/index.js';
import { changeEventIdOf } from '../../src/notifications/change-notifier.js';
import type { SessionEventStoreSubject } from '../http/session-event-store-compliance.js';
import { type RedisTarget, uniquePrefix } from './redis-test-providers.js';

export interface LogLine {
  level: string;
  msg: string;
  err?: { message: string };
}

export function capturingLogger(): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const logger = createLogger({
    level: 'debug',
    destination: { write: (line: string) => lines.push(JSON.parse(line)) },
  });
  return { logger, lines };
}

export interface OpenedRedis {
  /** A connection on `target()` with its own key prefix unless one is given, closed after the current case. */
  connection(keyPrefix?: string, logger?: Logger): RedisConnection;
  /** A bus on its own connection with the given prefix, closed (bus, then connection) after the current case. */
  bus(keyPrefix: string, logger?: Logger): RedisServerEventBus;
}

/** Call inside a describe block: registers the afterEach that closes what its cases opened, newest first. */
export function openedRedis(target: () => RedisTarget): OpenedRedis {
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });
  const connection = (keyPrefix = uniquePrefix(), logger?: Logger) => {
    const opened = createRedisConnection({ ...target(), keyPrefix }, logger ? { logger } : {});
    closers.push(() => opened.close());
    return opened;
  };
  return {
    connection,
    bus(keyPrefix, logger) {
      const bus = new RedisServerEventBus({ connection: connection(keyPrefix), ...(logger ? { logger } : {}) });
      closers.push(() => bus.close());
      return bus;
    },
  };
}

/** The compliance suite's view of RedisSessionEventStore: each store a fresh session on `connection()`. */
export function redisStoreSubject(connection: () => RedisConnection): SessionEventStoreSubject {
  return {
    open: (retention) => {
      const store = new RedisSessionEventStore({ connection: connection(), sessionId: randomUUID(), retention });
      return { store, size: () => store.size() };
    },
    // Ids are `<ms>-<seq>_<streamId>`; a millisecond part a day ahead is past everything a case stores.
    unissued: (issued) => {
      const [, ms, streamId] = /^(\d+)-\d+_(.*)$/.exec(issued) ?? [];
      return `${BigInt(ms ?? '0') + 86_400_000n}-0_${streamId}`;
    },
    forged: [
      '0-0__GET_stream',
      '-1-0__GET_stream',
      '1e0-0__GET_stream',
      ' 1-0__GET_stream',
      '01-0__GET_stream',
      '1-01__GET_stream',
      '1__GET_stream',
    ],
  };
}

/** Everything a bus delivered to one listener, in order. */
/** The events `bus` delivers, without the id the bus gives each (recordEventIds has those). */
export function recordEvents(bus: RedisServerEventBus): ServerEvent[] {
  const seen: ServerEvent[] = [];
  bus.subscribe((event) => {
    const { kilnEventId: _id, ...plain } = event as ServerEvent & { kilnEventId?: string };
    seen.push(plain as ServerEvent);
  });
  return seen;
}

/** The id each delivered event carries: one per published event, the same on every instance. */
export function recordEventIds(bus: RedisServerEventBus): (string | undefined)[] {
  const ids: (string | undefined)[] = [];
  bus.subscribe((event) => ids.push(changeEventIdOf(event)));
  return ids;
}

export const LIST_CHANGES: ServerEvent[] = [
  { kind: 'tools_list_changed' },
  { kind: 'prompts_list_changed' },
  { kind: 'resources_list_changed' },
];

/**
 * What a bus pair shows once Redis is back after an outage: the lists re-announced exactly once on B (delivery is at
 * most once, so an event published during the outage may arrive late or never), the recovery logged, and A's
 * publishing connection (reconnecting on its own schedule) reaching B again.
 */
export async function expectDeliveryRecovered(
  a: RedisServerEventBus,
  seenOnB: ServerEvent[],
  lines: LogLine[],
  timeout: { timeout: number; interval: number },
): Promise<void> {
  const listChanges = () => seenOnB.filter((event) => event.kind !== 'resource_updated');
  await expect.poll(listChanges, timeout).toEqual(LIST_CHANGES);
  expect(lines.some((line) => line.level === 'info' && /subscription is back/.test(line.msg))).toBe(true);
  await expect
    .poll(() => {
      a.publish({ kind: 'resource_updated', uri: 'notes://after' });
      return seenOnB.some((event) => event.kind === 'resource_updated' && event.uri === 'notes://after');
    }, timeout)
    .toBe(true);
  expect(listChanges()).toEqual(LIST_CHANGES);
}

/** One command through redis-cli (independent of the code under test); the reply's lines, for arrays too. */
export async function redisCli(port: number, args: readonly string[]): Promise<string[]> {
  const { stdout } = await promisify(execFile)('redis-cli', ['-p', String(port), ...args], { timeout: 5_000 });
  return stdout.trimEnd().split('\n');
}
