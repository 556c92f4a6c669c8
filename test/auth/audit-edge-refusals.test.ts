// Refusals the HTTP host makes before any handler runs go into the audit trail too, with a real bearer-token server
// (MCP_AUTH_MODE=oauth against a local test issuer): no token (401 authentication_required, before the body is read,
// so no method), a bad token (401 invalid_token), a token without the tool's scope (403 insufficient_scope, with the
// method, the tool and the caller). An admitted call is audited once, by the runner.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestIssuer, type TestIssuer } from 'mcp-kiln/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthServer, callWith, RESOURCE, startAuthServer } from '../http/helpers/auth-server.js';

let issuer: TestIssuer;
let server: AuthServer;
const path = join(mkdtempSync(join(tmpdir(), 'kiln-edge-audit-')), 'audit.jsonl');

beforeAll(async () => {
  issuer = await startTestIssuer({ audience: RESOURCE });
  server = await startAuthServer(issuer, { MCP_AUDIT_LOG: 'on', MCP_AUDIT_LOG_PATH: path });
});

afterAll(async () => {
  await server?.close();
  await issuer?.close();
});

describe('refusals at the HTTP edge in the audit trail', () => {
  it('records missing and bad tokens, missing scopes and the admitted call', async () => {
    expect((await callWith(server.endpoint, undefined, 'notes_put', { key: 'k', value: 1 })).status).toBe(401);
    expect((await callWith(server.endpoint, 'not-a-jwt', 'notes_put', { key: 'k', value: 1 })).status).toBe(401);
    const reader = await issuer.mintToken({ sub: 'ada', clientId: 'app-1', tenant: 'acme', scopes: ['notes:read'] });
    expect((await callWith(server.endpoint, reader, 'notes_put', { key: 'k', value: 1 })).status).toBe(403);
    const writer = await issuer.mintToken({ sub: 'ada', clientId: 'app-1', tenant: 'acme', scopes: ['notes:write'] });
    expect((await callWith(server.endpoint, writer, 'notes_put', { key: 'k', value: 1 })).status).toBe(200);
    await server.close();

    const lines = readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(4);
    const [missing, bad, scopes, admitted] = lines;
    expect(missing).toMatchObject({ outcome: 'refused', reason: 'authentication_required', address: '127.0.0.1' });
    expect(missing?.method).toBeUndefined();
    expect(bad).toMatchObject({ outcome: 'refused', reason: 'invalid_token' });
    expect(scopes).toMatchObject({
      outcome: 'refused',
      reason: 'insufficient_scope',
      method: 'tools/call',
      target: 'notes_put',
      tenantId: 'acme',
      subject: 'ada',
      clientId: 'app-1',
    });
    expect(admitted).toMatchObject({ outcome: 'ok', method: 'tools/call', target: 'notes_put', subject: 'ada' });
  });
});
