// Kiln's metric instruments, created once per app at boot from the registered MeterProvider.
import { type Counter, type Histogram, type Meter, type ObservableUpDownCounter, ValueType } from '@opentelemetry/api';
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
}

export function createKilnMetrics(meter: Meter): KilnMetrics {
  const bytes = (name: string, description: string) =>
    meter.createHistogram(name, {
      description,
      unit: 'By',
      valueType: ValueType.INT,
      advice: { explicitBucketBoundaries: PAYLOAD_SIZE_BUCKETS },
    });
  return {
    operationDuration: meter.createHistogram(METRIC.operationDuration, {
      description: 'MCP request duration as observed on the server, from receipt until the result is ready.',
      unit: 's',
      advice: { explicitBucketBoundaries: OPERATION_DURATION_BUCKETS },
    }),
    requestSize: bytes(METRIC.requestSize, 'Size of an operation’s arguments (or resource URI) as JSON.'),
    responseSize: bytes(METRIC.responseSize, 'Size of an operation’s result as JSON.'),
    inputDroppedKeys: meter.createCounter(METRIC.inputDroppedKeys, {
      description: 'Root argument keys a client added (a call id, a _meta block) that the input pipeline dropped.',
      unit: '{key}',
      valueType: ValueType.INT,
    }),
    inputAliasedKeys: meter.createCounter(METRIC.inputAliasedKeys, {
      description: 'Argument keys the input pipeline renamed to their declared name.',
      unit: '{key}',
      valueType: ValueType.INT,
    }),
    inputRepairs: meter.createCounter(METRIC.inputRepairs, {
      description: 'Argument values the input pipeline repaired so the call could validate.',
      unit: '{value}',
      valueType: ValueType.INT,
    }),
    storageDuration: meter.createHistogram(METRIC.storageDuration, {
      description: 'Duration of one storage provider call (ctx.state and StorageService).',
      unit: 's',
      advice: { explicitBucketBoundaries: STORAGE_DURATION_BUCKETS },
    }),
    activeSessions: meter.createObservableUpDownCounter(METRIC.activeSessions, {
      description: 'Live 2025-era HTTP sessions this instance serves.',
      unit: '{session}',
      valueType: ValueType.INT,
    }),
    activeListenStreams: meter.createObservableUpDownCounter(METRIC.activeListenStreams, {
      description: 'Open 2026-07-28 subscriptions/listen streams on this instance.',
      unit: '{stream}',
      valueType: ValueType.INT,
    }),
  };
}
