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

const sensitiveFields = new Set(DEFAULT_SENSITIVE_FIELDS.map(normalizeFieldName));

/** Adds field names to the sensitive list; they match the same way the defaults do. */
export function setSensitiveFields(fields: readonly string[]): void {
  for (const field of fields) {
    const normalized = normalizeFieldName(field);
    if (normalized !== '') sensitiveFields.add(normalized);
  }
}

/**
 * True when the key, or any run of consecutive words in it, normalizes to a listed field:
 * `API_KEY` and `X-Api-Key` match `apikey`, `accessToken` and `tokenCount` match `token`.
 */
export function isSensitiveKey(key: string): boolean {
  const words = splitKeyWords(key);
  for (let start = 0; start < words.length; start++) {
    let run = '';
    for (let end = start; end < words.length; end++) {
      run += words[end];
      if (sensitiveFields.has(run)) return true;
    }
  }
  return false;
}

/**
 * A deep copy safe to log: sensitive keys masked at any depth, cycles as `[Circular]`, errors as
 * `{ name, message }`, objects with `toJSON` (Date, URL, Buffer) as their JSON form. The input is untouched.
 */
export function sanitizeForLogging(value: unknown): unknown {
  return sanitizeValue(value, new Set());
}

/** `sanitizeForLogging` for a record, typed as one. */
export function sanitizeRecordForLogging(record: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return sanitizeEntries(record, new Set([record]));
}

function sanitizeValue(value: unknown, ancestors: Set<object>): unknown {
  if (typeof value !== 'object' || value === null) return value;
  // Only the current path counts: the same object reached twice through siblings is copied twice.
  if (ancestors.has(value)) return CIRCULAR;
  if (value instanceof Error) return { name: value.name, message: value.message };
  ancestors.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => sanitizeValue(item, ancestors));
    if (!isPlainObject(value) && hasToJson(value)) return sanitizeValue(value.toJSON(), ancestors);
    return sanitizeEntries(value, ancestors);
  } finally {
    ancestors.delete(value);
  }
}

function sanitizeEntries(source: object, ancestors: Set<object>): Record<string, unknown> {
  // fromEntries defines properties, so a `__proto__` key stays data instead of replacing the prototype.
  return Object.fromEntries(
    Object.entries(source).map(([key, item]) => [key, isSensitiveKey(key) ? REDACTED : sanitizeValue(item, ancestors)]),
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
