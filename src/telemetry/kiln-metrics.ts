// Kiln's metric instruments, created once per app at boot from the registered MeterProvider.
import type { Counter, Histogram, Meter, ObservableUpDownCounter } from '@opentelemetry/api';
import type { OtelApi } from './otel-api.js';
import {
  METRIC,
  OPERATION_DURATION_BUCKETS,
  PAYLOAD_SIZE_BUCKETS,
  STORAGE_DURATION_BUCKETS,
} from './semantic-names.js';

export interface KilnMetrics {
  readonly operationDuration: Histogram;
  readonly requestSize: Histogram;
  readonly responseSize: Histogram;
  readonly inputDroppedKeys: Counter;
  readonly inputAliasedKeys: Counter;
  readonly inputRepairs: Counter;
  readonly storageDuration: Histogram;
  readonly activeSessions: ObservableUpDownCounter;
  readonly activeListenStreams: ObservableUpDownCounter;
  readonly cacheLookups: Counter;
  readonly usageCalls: Counter;
  readonly usageErrors: Counter;
  readonly usageDuration: Counter;
  readonly auditFailures: Counter;
}

export function createKilnMetrics(api: Pick<OtelApi, 'ValueType'>, meter: Meter): KilnMetrics {
  const { ValueType } = api;
  const bytes = (name: string, description: string) =>
    meter.createHistogram(name, {
      description,
      unit: 'By',
      valueType: ValueType.INT,
      advice: { explicitBucketBoundaries: PAYLOAD_SIZE_BUCKETS },
    });
  const seconds = (name: string, description: string, buckets: number[]) =>
    meter.createHistogram(name, { description, unit: 's', advice: { explicitBucketBoundaries: buckets } });
  const count = (name: string, description: string, unit: string) =>
    meter.createCounter(name, { description, unit, valueType: ValueType.INT });
  const live = (name: string, description: string, unit: string) =>
    meter.createObservableUpDownCounter(name, { description, unit, valueType: ValueType.INT });
  return {
    operationDuration: seconds(
      METRIC.operationDuration,
      'MCP request duration as observed on the server, from receipt until the result is ready.',
      OPERATION_DURATION_BUCKETS,
    ),
    requestSize: bytes(METRIC.requestSize, 'Size of an operation’s arguments (or resource URI) as JSON.'),
    responseSize: bytes(METRIC.responseSize, 'Size of an operation’s result as JSON.'),
    inputDroppedKeys: count(
      METRIC.inputDroppedKeys,
      'Root argument keys a client added (a call id, a _meta block) that the input pipeline dropped.',
      '{key}',
    ),
    inputAliasedKeys: count(
      METRIC.inputAliasedKeys,
      'Argument keys the input pipeline renamed to their declared name.',
      '{key}',
    ),
    inputRepairs: count(
      METRIC.inputRepairs,
      'Argument values the input pipeline repaired so the call could validate.',
      '{value}',
    ),
    storageDuration: seconds(
      METRIC.storageDuration,
      'Duration of one storage provider call (ctx.state and StorageService).',
      STORAGE_DURATION_BUCKETS,
    ),
    activeSessions: live(METRIC.activeSessions, 'Live 2025-era HTTP sessions this instance serves.', '{session}'),
    activeListenStreams: live(
      METRIC.activeListenStreams,
      'Open 2026-07-28 subscriptions/listen streams on this instance.',
      '{stream}',
    ),
    cacheLookups: count(
      METRIC.cacheLookups,
      'Lookups of @Cache definitions, by kiln.cache.result (hit, miss).',
      '{lookup}',
    ),
    usageCalls: count(
      METRIC.usageCalls,
      'Tool calls, resource reads and prompt gets, by tenant and definition.',
      '{call}',
    ),
    usageErrors: count(METRIC.usageErrors, 'Calls that answered an error, by tenant and definition.', '{call}'),
    usageDuration: meter.createCounter(METRIC.usageDuration, {
      description: 'Total time spent in calls, by tenant and definition.',
      unit: 's',
    }),
    auditFailures: count(METRIC.auditFailures, 'Audit records the audit sink failed to write.', '{record}'),
  };
}
