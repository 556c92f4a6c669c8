// Kiln's own error reasons are API: clients match on them. This pins the table (reason → code) and checks that
// every reason the code throws is in it, and that the README lists each one.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { kilnError } from '../../src/errors/factories.js';
import { errorCodeName, JsonRpcErrorCode } from '../../src/errors/json-rpc-error-code.js';
import { KILN_REASONS, reasonEntry } from '../../src/errors/reasons.js';

const C = JsonRpcErrorCode;

describe('the reasons table', () => {
  it('pins every reason and its JSON-RPC code', () => {
    const pinned = Object.fromEntries(Object.entries(KILN_REASONS).map(([reason, entry]) => [reason, entry.code]));
    expect(pinned).toEqual({
      parse_error: C.ParseError,
      invalid_message: C.InvalidRequest,
      message_too_large: C.InvalidRequest,
      not_acceptable: C.InvalidRequest,
      unsupported_media_type: C.InvalidRequest,
      nesting_too_deep: C.InvalidRequest,
      forbidden_key: C.InvalidRequest,
      invalid_http_request: C.InvalidRequest,
      method_not_allowed: C.InvalidRequest,
      request_timeout: C.Timeout,
      header_mismatch: C.HeaderMismatch,
      listen_limit: C.ServiceUnavailable,
      in_flight_limit: C.RateLimited,
      rate_limited: C.RateLimited,
      quota_exceeded: C.RateLimited,
      authentication_required: C.Unauthorized,
      invalid_token: C.Unauthorized,
      token_in_query: C.InvalidRequest,
      insufficient_scope: C.Forbidden,
      forbidden_by_guard: C.Forbidden,
      auth_unavailable: C.ServiceUnavailable,
      auth_options_invalid: C.ConfigurationError,
      session_required: C.ServiceUnavailable,
      session_not_found: C.NotFound,
      session_limit: C.ServiceUnavailable,
      shutting_down: C.ServiceUnavailable,
      internal_error: C.InternalError,
      unknown_tool: C.InvalidParams,
      unknown_prompt: C.InvalidParams,
      unknown_resource: C.InvalidParams,
      invalid_arguments: C.InvalidParams,
      unknown_skill: C.InvalidParams,
      not_a_directory: C.InvalidParams,
      invalid_params: C.InvalidParams,
      input_required: C.InvalidRequest,
      client_capability_missing: C.InvalidRequest,
      consent_declined: C.Forbidden,
      invalid_request_state: C.InvalidParams,
      task_capability_missing: C.MissingRequiredClientCapability,
      unknown_task: C.InvalidParams,
      task_limit_reached: C.StorageError,
      task_tenant_missing: C.InvalidRequest,
      task_owner_lost: C.InternalError,
      task_interrupted: C.InternalError,
      task_expired: C.InternalError,
      task_failed: C.InternalError,
      invalid_state_key: C.ValidationError,
      invalid_list_limit: C.ValidationError,
      invalid_cursor: C.ValidationError,
      invalid_entries: C.ValidationError,
      invalid_ttl: C.ValidationError,
      state_schema_mismatch: C.ValidationError,
      state_not_serializable: C.SerializationError,
      state_quota_exceeded: C.StorageError,
      state_tenant_missing: C.StorageError,
      storage_io: C.StorageError,
      storage_corrupt: C.StorageError,
      storage_unavailable: C.StorageError,
      invalid_idempotency_key: C.InvalidParams,
      idempotency_key_in_use: C.Conflict,
      storage_outcome_unknown: C.StorageError,
      storage_full: C.StorageError,
      storage_failed: C.StorageError,
      state_value_too_large: C.StorageError,
      storage_closed: C.StorageError,
      storage_path_missing: C.ConfigurationError,
      storage_limit_invalid: C.ConfigurationError,
      redis_options_invalid: C.ConfigurationError,
      usage_accounting_off: C.ConfigurationError,
      invalid_day: C.ValidationError,
      storage_type_unknown: C.ConfigurationError,
    });
  });

  it('gives every reason a meaning and a recovery hint of at least five words', () => {
    for (const [reason, entry] of Object.entries(KILN_REASONS)) {
      expect(entry.meaning.length, reason).toBeGreaterThan(10);
      expect(entry.recovery.split(/\s+/).length, reason).toBeGreaterThanOrEqual(5);
    }
  });

  it('kilnError takes the code and default hint from the table; a specific hint wins', () => {
    const plain = kilnError('unknown_tool', 'Unknown tool: x.');
    expect(plain.code).toBe(C.InvalidParams);
    expect(plain.data).toEqual({ reason: 'unknown_tool', recovery: { hint: KILN_REASONS.unknown_tool.recovery } });
    const specific = kilnError('invalid_arguments', 'Bad.', { recovery: { hint: 'Fix the id field and retry.' } });
    expect(specific.data?.recovery).toEqual({ hint: 'Fix the id field and retry.' });
    expect(reasonEntry('no_match')).toBeUndefined();
    expect(reasonEntry('toString')).toBeUndefined();
  });

  it('is what the generated reference page says (npm run docs:reference after a change)', async () => {
    const page = await readFile(new URL('../../docs/reference/reasons.md', import.meta.url), 'utf8');
    const { reasonsMarkdown } = await import('../../scripts/reasons-markdown.mjs');
    expect(page).toBe(reasonsMarkdown(KILN_REASONS, errorCodeName));
  });

  it('is the only source of reasons: no reason string in the runtime is missing from the table', async () => {
    const { execFileSync } = await import('node:child_process');
    const root = new URL('../..', import.meta.url).pathname;
    const found = execFileSync('grep', ['-rhoE', "reason: '[a-z_]+'", 'src', 'modules'], { cwd: root })
      .toString()
      .split('\n')
      .filter(Boolean)
      .map((line) => line.replace(/^reason: '|'$/g, ''));
    expect(found.filter((reason) => reasonEntry(reason) === undefined)).toEqual([]);
  });
});
