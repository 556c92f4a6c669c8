// Boot: who hears how each call ended. The audit trail (MCP_AUDIT_LOG=on: a file of its own or the app's logger, and
// OpenTelemetry log records when a logs SDK is registered) and usage accounting (MCP_USAGE_ACCOUNTING=on, plus the
// kiln.usage.* metrics when OpenTelemetry is on), composed into the one observer the operation runner calls.
import type { KilnConfig } from '../config/kiln-config.js';
import { AuditLog, type AuditRecord, auditArguments, type LogRecordEmitter } from '../logging/audit-log.js';
import type { Logger, Redaction } from '../logging/index.js';
import type { CallObservation, CallObserver } from '../pipeline/operation-kind.js';
import { principalOf } from '../protocol/principal.js';
import type { StorageProvider, UsageLedger } from '../storage/index.js';
import type { ActiveTelemetry } from '../telemetry/kiln-telemetry.js';
import { ATTR } from '../telemetry/semantic-names.js';
import type { CreateAppOptions } from './app-options.js';
import type { EdgeRefusal } from './edge-refusal.js';

export interface CallObservers {
  readonly observe: CallObserver | undefined;
  /** Closes the audit trail's own file at shutdown (usage flushes through its lifecycle hook). */
  readonly close: () => Promise<void>;
  /** Audits a host's refusal; undefined when the trail is off. */
  readonly auditRefusal: ((refusal: EdgeRefusal) => void) | undefined;
}

/** The problems that stop boot: audit on with nowhere to write, usage on a backend that cannot count. */
export function observationProblems(
  config: KilnConfig,
  options: CreateAppOptions,
  store: StorageProvider | undefined,
): string[] {
  const problems: string[] = [];
  if (config.audit.enabled && !config.audit.path && !options.audit?.logger) {
    problems.push(
      'MCP_AUDIT_LOG=on needs somewhere to write: set MCP_AUDIT_LOG_PATH to a file, or pass createApp({ audit: { logger } }).',
    );
  }
  if (config.usage.enabled && !store?.addCounter) {
    problems.push(
      'MCP_USAGE_ACCOUNTING=on needs a storage provider with counters (addCounter, readCounters); the configured one ' +
        'has none. Use STORAGE_PROVIDER_TYPE=in-memory, filesystem or redis.',
    );
  }
  return problems;
}

export async function callObservation(
  config: KilnConfig,
  options: CreateAppOptions,
  usage: UsageLedger,
  logger: Logger,
  redaction: Redaction,
  telemetry: ActiveTelemetry | undefined,
): Promise<CallObservers> {
  const metrics = telemetry?.metrics;
  let audit: AuditLog | undefined;
  let failures = 0;
  let lastReported = 0;
  if (config.audit.enabled) {
    audit = new AuditLog({
      ...(options.audit?.logger ? { logger: options.audit.logger } : { path: config.audit.path }),
      ...(await otelLogs().then((emitter) => (emitter ? { otel: emitter } : {}))),
      onFailure: (error) => {
        metrics?.auditFailures.add(1);
        failures++;
        // Every failure is counted; the log hears of the first and then at most one a minute.
        const now = Date.now();
        if (failures > 1 && now - lastReported < 60_000) return;
        lastReported = now;
        logger.error({ err: error, failures }, 'The audit trail could not write a record; the call went on');
      },
    });
  }
  const counting = usage.enabled;
  const trail = audit;
  const auditRefusal = trail ? (refusal: EdgeRefusal) => trail.write(refusalRecord(refusal)) : undefined;
  if (!audit && !counting) return { observe: undefined, close: async () => {}, auditRefusal };
  const observe: CallObserver = (call) => {
    if (audit) audit.write(auditRecord(call, redaction));
    if (!counting || call.name === undefined) return;
    const failed = call.ending.outcome === 'error' || call.ending.outcome === 'tool_error';
    usage.record(call.seed.tenantId, call.method, call.name, failed, call.durationMs);
    if (metrics) {
      const attributes = {
        [ATTR.mcpMethod]: call.method,
        [ATTR.definitionName]: call.name,
        ...(call.seed.tenantId === undefined ? {} : { [ATTR.tenantId]: call.seed.tenantId }),
      };
      metrics.usageCalls.add(1, attributes);
      if (failed) metrics.usageErrors.add(1, attributes);
      metrics.usageDuration.add(call.durationMs / 1000, attributes);
    }
  };
  return { observe, close: () => audit?.close() ?? Promise.resolve(), auditRefusal };
}

function refusalRecord(refusal: EdgeRefusal): AuditRecord {
  const principal = principalOf(refusal.authInfo);
  return {
    time: new Date().toISOString(),
    requestId: refusal.requestId ?? '',
    ...(refusal.method === undefined ? {} : { method: refusal.method }),
    ...(refusal.target === undefined ? {} : { target: refusal.target }),
    ...(principal.tenantId === undefined ? {} : { tenantId: principal.tenantId }),
    ...(principal.subject ? { subject: principal.subject } : {}),
    ...(principal.clientId ? { clientId: principal.clientId } : {}),
    ...(refusal.address === undefined ? {} : { address: refusal.address }),
    outcome: 'refused',
    reason: refusal.reason,
    durationMs: 0,
  };
}

function auditRecord(call: CallObservation, redaction: Redaction): AuditRecord {
  const { seed, ending } = call;
  const address = seed.http?.()?.remoteAddress;
  const args = call.method === 'resources/read' ? undefined : auditArguments(call.args ?? {}, redaction);
  return {
    time: new Date(call.startedAt).toISOString(),
    requestId: seed.requestId,
    method: call.method,
    target: call.key,
    ...(seed.tenantId === undefined ? {} : { tenantId: seed.tenantId }),
    ...(seed.auth?.subject ? { subject: seed.auth.subject } : {}),
    ...(seed.auth?.clientId ? { clientId: seed.auth.clientId } : {}),
    ...(seed.sessionId === undefined ? {} : { sessionId: seed.sessionId }),
    ...(address === undefined ? {} : { address }),
    outcome: ending.outcome,
    ...(ending.reason === undefined ? {} : { reason: ending.reason }),
    durationMs: Math.round(call.durationMs * 1000) / 1000,
    ...(args === undefined ? {} : { arguments: args }),
  };
}

/** The OpenTelemetry logs API's logger when `@opentelemetry/api-logs` is installed (any logs SDK brings it). */
async function otelLogs(): Promise<LogRecordEmitter | undefined> {
  try {
    const { logs } = (await import('@opentelemetry/api-logs')) as {
      logs: { getLogger(name: string): LogRecordEmitter };
    };
    return logs.getLogger('mcp-kiln');
  } catch {
    return undefined;
  }
}
