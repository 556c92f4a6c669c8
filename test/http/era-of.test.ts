// The host's shortcut for plain 2025-era requests agrees with the SDK's classifier: wherever it answers "handshake"
// without asking the classifier, the classifier says "legacy" (the SDK's name for that era) too, over a corpus of
// bodies and version headers.
import { classifyInboundRequest } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { isPlainHandshakeRequest, standardHeaders } from '../../modules/http/era-of.js';

const ENVELOPE = 'io.modelcontextprotocol/protocolVersion';
const call = { name: 'probe_whoami', arguments: {} };
const BODIES: Record<string, unknown> = {
  'a tools/call': { jsonrpc: '2.0', id: 1, method: 'tools/call', params: call },
  'a string id': { jsonrpc: '2.0', id: 'a', method: 'tools/call', params: call },
  'no params': { jsonrpc: '2.0', id: 1, method: 'ping' },
  initialize: { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25' } },
  'a trace context': { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { ...call, _meta: { traceparent: 'x' } } },
  'a progress token': { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { ...call, _meta: { progressToken: 7 } } },
  'a fractional progress token': {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { ...call, _meta: { progressToken: 1.5 } },
  },
  'an envelope claim': {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { ...call, _meta: { [ENVELOPE]: '2026-07-28' } },
  },
  'a 2025 envelope claim': {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { ...call, _meta: { [ENVELOPE]: '2025-11-25' } },
  },
  '_meta a string': { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { ...call, _meta: 'x' } },
  'params an array': { jsonrpc: '2.0', id: 1, method: 'tools/call', params: [] },
  'id null': { jsonrpc: '2.0', id: null, method: 'tools/call', params: call },
  'id fractional': { jsonrpc: '2.0', id: 1.5, method: 'tools/call', params: call },
  'a notification': { jsonrpc: '2.0', method: 'notifications/initialized' },
  'a response': { jsonrpc: '2.0', id: 1, result: {} },
  'an error response': { jsonrpc: '2.0', id: 1, error: { code: 1, message: 'x' } },
  'jsonrpc 1.0': { jsonrpc: '1.0', id: 1, method: 'tools/call', params: call },
  'an extra key': { jsonrpc: '2.0', id: 1, method: 'tools/call', params: call, extra: true },
  'a batch': [{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: call }],
  'a string': 'tools/call',
};
const VERSIONS = [undefined, '2025-11-25', '2025-06-18', '2026-07-28', ' 2025-11-25', '1999-01-01', ''];

describe('isPlainHandshakeRequest', () => {
  const cases = Object.entries(BODIES).flatMap(([name, body]) =>
    VERSIONS.map((version) => [`${name}, version ${JSON.stringify(version)}`, body, version] as const),
  );
  it.each(cases)('%s: a shortcut only where the SDK classifier says legacy', (_name, body, version) => {
    const headers = version === undefined ? {} : { 'mcp-protocol-version': version };
    if (!isPlainHandshakeRequest(headers, body)) return;
    const outcome = classifyInboundRequest({ httpMethod: 'POST', ...standardHeaders(headers), body });
    expect(outcome.kind).toBe('legacy');
  });

  it('takes the plain requests a 2025 session sends', () => {
    for (const name of [
      'a tools/call',
      'a string id',
      'no params',
      'initialize',
      'a trace context',
      'a progress token',
    ]) {
      expect(isPlainHandshakeRequest({ 'mcp-protocol-version': '2025-11-25' }, BODIES[name]), name).toBe(true);
      expect(isPlainHandshakeRequest({}, BODIES[name]), name).toBe(true);
    }
  });
});
