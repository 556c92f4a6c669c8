// The configured provider as telemetry sees it, wrapped once at boot by the core module: each call a child span of the
// span active where it was made (the operation's, inside a handler) and a kiln.storage.operation.duration sample.
// Calls made outside any span (boot hooks, background sweeps) are measured but open no root span of their own.
import { McpError } from '../errors/mcp-error.js';
import type { ActiveTelemetry } from '../telemetry/kiln-telemetry.js';
import { ATTR } from '../telemetry/semantic-names.js';
import type { StorageProvider } from './storage-provider.js';

type StorageCall = Exclude<keyof StorageProvider, 'close'>;

export function traceStorageProvider(provider: StorageProvider, telemetry: ActiveTelemetry): StorageProvider {
  const { tracer, metrics } = telemetry;
  const { context, SpanKind, SpanStatusCode, trace } = telemetry.api;

  const measure = async <T>(operation: StorageCall, call: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const parent = context.active();
    const span =
      tracer && trace.getSpan(parent)
        ? tracer.startSpan(
            `storage ${operation}`,
            { kind: SpanKind.INTERNAL, attributes: { [ATTR.dbOperation]: operation } },
            parent,
          )
        : undefined;
    let errorType: string | undefined;
    try {
      // The provider runs under its span, so a Redis client's own instrumentation nests beneath it.
      return await (span ? context.with(trace.setSpan(parent, span), call) : call());
    } catch (error) {
      errorType = (error instanceof McpError && error.reason) || '_OTHER';
      span?.setAttribute(ATTR.errorType, errorType);
      span?.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      throw error;
    } finally {
      span?.end();
      metrics?.storageDuration.record(
        (performance.now() - started) / 1000,
        errorType === undefined
          ? { [ATTR.dbOperation]: operation }
          : { [ATTR.dbOperation]: operation, [ATTR.errorType]: errorType },
      );
    }
  };

  const sweepExpired = provider.sweepExpired?.bind(provider);
  const setIfAbsent = provider.setIfAbsent?.bind(provider);
  const claimRate = provider.claimRate?.bind(provider);
  const addCounter = provider.addCounter?.bind(provider);
  const readCounters = provider.readCounters?.bind(provider);
  return {
    get: (tenantId, key) => measure('get', () => provider.get(tenantId, key)),
    set: (tenantId, key, value, opts) => measure('set', () => provider.set(tenantId, key, value, opts)),
    ...(setIfAbsent
      ? {
          setIfAbsent: (tenantId, key, value, opts) =>
            measure('setIfAbsent', () => setIfAbsent(tenantId, key, value, opts)),
        }
      : {}),
    delete: (tenantId, key) => measure('delete', () => provider.delete(tenantId, key)),
    take: (tenantId, key) => measure('take', () => provider.take(tenantId, key)),
    getMany: (tenantId, keys) => measure('getMany', () => provider.getMany(tenantId, keys)),
    setMany: (tenantId, entries, opts) => measure('setMany', () => provider.setMany(tenantId, entries, opts)),
    deleteMany: (tenantId, keys) => measure('deleteMany', () => provider.deleteMany(tenantId, keys)),
    list: (tenantId, prefix, opts) => measure('list', () => provider.list(tenantId, prefix, opts)),
    ...(claimRate
      ? { claimRate: (tenantId, key, rule) => measure('claimRate', () => claimRate(tenantId, key, rule)) }
      : {}),
    ...(addCounter
      ? { addCounter: (tenantId, key, add) => measure('addCounter', () => addCounter(tenantId, key, add)) }
      : {}),
    ...(readCounters
      ? { readCounters: (tenantId, keys) => measure('readCounters', () => readCounters(tenantId, keys)) }
      : {}),
    ...(sweepExpired ? { sweepExpired: () => measure('sweepExpired', sweepExpired) } : {}),
    close: () => provider.close(),
  };
}
