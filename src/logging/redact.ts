// Redaction of log payloads: one sensitive-field list shared by the process log and the MCP wire mirror,
// matched case- and separator-insensitively on whole keys and on the words of compound keys.

export const REDACTED = '[REDACTED]';
export const CIRCULAR = '[Circular]';

const DEFAULT_SENSITIVE_FIELDS = [
  'password',
  'passwd',
  'pwd',
  'secret',
  'token',
  'apikey',
  'authorization',
  'auth_token',
  'cookie',
  'credential',
  'credentials',
  'privatekey',
  'private_key',
  'clientsecret',
  'accesskey',
  'signature',
  'jwt',
  'bearer',
  'ssn',
  'sessiontoken',
];

/**
 * One sensitive-field list and the sanitizer that applies it. The app builds one from the defaults plus
 * MCP_LOG_REDACT_FIELDS; nothing is process-global, so two apps in one process redact each their own way.
 */
export class Redaction {
  private readonly fields: ReadonlySet<string>;

  /** The default fields plus `extraFields`, which match the same way the defaults do. */
  constructor(extraFields: readonly string[] = []) {
    const fields = new Set(DEFAULT_SENSITIVE_FIELDS.map(normalizeFieldName));
    for (const field of extraFields) {
      const normalized = normalizeFieldName(field);
      if (normalized !== '') fields.add(normalized);
    }
    this.fields = fields;
  }

  /**
   * True when the key, or any run of consecutive words in it, normalizes to a listed field:
   * `API_KEY` and `X-Api-Key` match `apikey`, `accessToken` and `tokenCount` match `token`.
   */
  isSensitiveKey(key: string): boolean {
    const words = splitKeyWords(key);
    for (let start = 0; start < words.length; start++) {
      let run = '';
      for (let end = start; end < words.length; end++) {
        run += words[end];
        if (this.fields.has(run)) return true;
      }
    }
    return false;
  }

  /**
   * A deep copy safe to log: sensitive keys masked at any depth, cycles as `[Circular]`, errors as
   * `{ name, message }`, objects with `toJSON` (Date, URL, Buffer) as their JSON form. The input is untouched.
   */
  sanitize(value: unknown): unknown {
    return sanitizeValue(value, new Set(), this);
  }

  /** `sanitize` for a record, typed as one. */
  sanitizeRecord(record: Readonly<Record<string, unknown>>): Record<string, unknown> {
    return sanitizeEntries(record, new Set([record]), this);
  }
}

/** The default fields only: for code that runs outside an app (mock contexts, the testing kit). */
export const DEFAULT_REDACTION = new Redaction();

export const isSensitiveKey = (key: string): boolean => DEFAULT_REDACTION.isSensitiveKey(key);
export const sanitizeForLogging = (value: unknown): unknown => DEFAULT_REDACTION.sanitize(value);
export const sanitizeRecordForLogging = (record: Readonly<Record<string, unknown>>): Record<string, unknown> =>
  DEFAULT_REDACTION.sanitizeRecord(record);

function sanitizeValue(value: unknown, ancestors: Set<object>, redaction: Redaction): unknown {
  if (typeof value !== 'object' || value === null) return value;
  // Only the current path counts: the same object reached twice through siblings is copied twice.
  if (ancestors.has(value)) return CIRCULAR;
  if (value instanceof Error) return { name: value.name, message: value.message };
  ancestors.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => sanitizeValue(item, ancestors, redaction));
    if (!isPlainObject(value) && hasToJson(value)) return sanitizeValue(value.toJSON(), ancestors, redaction);
    return sanitizeEntries(value, ancestors, redaction);
  } finally {
    ancestors.delete(value);
  }
}

function sanitizeEntries(source: object, ancestors: Set<object>, redaction: Redaction): Record<string, unknown> {
  // fromEntries defines properties, so a `__proto__` key stays data instead of replacing the prototype.
  return Object.fromEntries(
    Object.entries(source).map(([key, item]) => [
      key,
      redaction.isSensitiveKey(key) ? REDACTED : sanitizeValue(item, ancestors, redaction),
    ]),
  );
}

function splitKeyWords(key: string): string[] {
  return key
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_.-]+/)
    .filter((word) => word !== '')
    .map((word) => word.toLowerCase());
}

function normalizeFieldName(name: string): string {
  return splitKeyWords(name).join('');
}

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function hasToJson(value: object): value is { toJSON(): unknown } {
  return typeof (value as { toJSON?: unknown }).toJSON === 'function';
}
