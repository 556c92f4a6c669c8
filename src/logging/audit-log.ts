// The audit trail: one JSON line per tools/call, resources/read and prompts/get (refused ones included) in a pino
// destination of its own (MCP_AUDIT_LOG_PATH) or the app's own pino logger, and the same record as an OpenTelemetry
// log record when a logs SDK is registered. Nothing here can fail a call: a sink that fails is reported to
// `onFailure` (the app logs and counts it) and the call goes on.
import pino from 'pino';
import type { AppPinoLogger } from './adopted-logger.js';
import { REDACTED, type Redaction } from './redact.js';

/** One audited call. */
export interface AuditRecord {
  /** When the call arrived (ISO 8601, UTC). */
  readonly time: string;
  /** The request's id (Kiln's request id; a refusal at the HTTP edge: the JSON-RPC id, or '' before the body was read). */
  readonly requestId: string;
  /** The JSON-RPC method; absent for a refusal made before the request's body was read (a missing or bad token). */
  readonly method?: string;
  /** What the call named: a tool or prompt name, a resource URI; absent like `method`. */
  readonly target?: string;
  readonly tenantId?: string;
  readonly subject?: string;
  readonly clientId?: string;
  readonly sessionId?: string;
  /** The caller's address over HTTP. */
  readonly address?: string;
  /** `ok`, `tool_error` (an isError result), `error` (a JSON-RPC error), `input_required`, or `refused` at the edge. */
  readonly outcome: 'ok' | 'tool_error' | 'error' | 'input_required' | 'refused';
  /** The error's `data.reason`, when there was one. */
  readonly reason?: string;
  readonly durationMs: number;
  /** The arguments' keys, sensitive values replaced and large ones summarised by size. */
  readonly arguments?: Readonly<Record<string, unknown>>;
}

/** What an OpenTelemetry logs API logger offers (`@opentelemetry/api-logs`), as much as the trail uses. */
export interface LogRecordEmitter {
  emit(record: {
    timestamp?: number;
    severityNumber?: number;
    severityText?: string;
    body?: string;
    attributes?: Record<string, string | number | boolean>;
  }): void;
}

export interface AuditLogOptions {
  /** A file to append JSON lines to (created with its directory). */
  readonly path?: string;
  /** The app's pino logger (or a child of it) to write the records through instead. */
  readonly logger?: AppPinoLogger;
  /** The OpenTelemetry logs API's logger, when the app has one. */
  readonly otel?: LogRecordEmitter;
  /** Hears every failure to write a record. */
  readonly onFailure: (error: unknown) => void;
}

/** Argument values longer than this (as JSON) are recorded by size only. */
const MAX_VALUE_BYTES = 256;
const INFO = 9;

export class AuditLog {
  readonly #logger: AppPinoLogger | pino.Logger;
  readonly #destination: ReturnType<typeof pino.destination> | undefined;
  readonly #otel: LogRecordEmitter | undefined;
  readonly #onFailure: (error: unknown) => void;
  /** Set once the trail's own file failed: records are no longer buffered for it (they would pile up in memory). */
  #broken: unknown;

  constructor(options: AuditLogOptions) {
    this.#onFailure = options.onFailure;
    this.#otel = options.otel;
    if (options.logger) {
      this.#logger = options.logger;
      this.#destination = undefined;
    } else {
      if (!options.path) throw new Error('An audit log needs a path or a logger.');
      const destination = pino.destination({ dest: options.path, mkdir: true, sync: false });
      destination.on('error', (error: unknown) => {
        this.#broken = error;
        this.#onFailure(error);
      });
      this.#destination = destination;
      this.#logger = pino({ base: null, timestamp: false, messageKey: 'event' }, destination);
    }
  }

  write(record: AuditRecord): void {
    if (this.#broken !== undefined) this.#onFailure(this.#broken);
    else {
      try {
        this.#logger.info(record as unknown as Record<string, unknown>, 'mcp.audit');
      } catch (error) {
        this.#onFailure(error);
      }
    }
    if (!this.#otel) return;
    try {
      this.#otel.emit({
        timestamp: Date.parse(record.time),
        severityNumber: INFO,
        severityText: 'INFO',
        body: 'mcp.audit',
        attributes: otelAttributes(record),
      });
    } catch (error) {
      this.#onFailure(error);
    }
  }

  /** Flushes and closes a file of the trail's own; a logger of the app's is left to the app. */
  async close(): Promise<void> {
    const destination = this.#destination;
    if (!destination) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 1000);
      destination.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      try {
        destination.end();
      } catch {
        clearTimeout(timer);
        resolve();
      }
    });
  }
}

/** The arguments as the trail records them: every key, sensitive values masked, large values by size. */
export function auditArguments(args: unknown, redaction: Redaction): Record<string, unknown> | undefined {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return undefined;
  const recorded: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    if (redaction.isSensitiveKey(key)) {
      recorded[key] = REDACTED;
      continue;
    }
    const safe = redaction.sanitize(value);
    const json = JSON.stringify(safe) ?? 'null';
    recorded[key] = Buffer.byteLength(json) > MAX_VALUE_BYTES ? `[${Buffer.byteLength(json)} bytes]` : safe;
  }
  return recorded;
}

function otelAttributes(record: AuditRecord): Record<string, string | number | boolean> {
  const attributes: Record<string, string | number | boolean> = {
    'kiln.request.id': record.requestId,
    'kiln.outcome': record.outcome,
    'kiln.duration_ms': record.durationMs,
  };
  if (record.method !== undefined) attributes['mcp.method.name'] = record.method;
  if (record.target !== undefined) attributes['kiln.audit.target'] = record.target;
  if (record.tenantId !== undefined) attributes['kiln.tenant.id'] = record.tenantId;
  if (record.subject !== undefined) attributes['enduser.id'] = record.subject;
  if (record.clientId !== undefined) attributes['kiln.client.id'] = record.clientId;
  if (record.sessionId !== undefined) attributes['mcp.session.id'] = record.sessionId;
  if (record.address !== undefined) attributes['client.address'] = record.address;
  if (record.reason !== undefined) attributes['kiln.error.reason'] = record.reason;
  if (record.arguments !== undefined) attributes['kiln.audit.arguments'] = JSON.stringify(record.arguments);
  return attributes;
}
