// Raw HTTP clients for the per-principal share tests: sessions opened and held busy, listen streams and slow calls
// sent as a given caller (its bearer token, or its address in X-Forwarded-For). Streams stay open until the test
// aborts the controllers in `open`.
import { expect } from 'vitest';
import {
  envelopeHeaders,
  envelopeRequest,
  handshakeToolsList,
  initializeRequest,
  MCP_ACCEPT,
  post,
  sessionHeaders,
} from './http-server.js';

export const from = (address: string) => ({ 'x-forwarded-for': address });

/** Every stream and call a test left open; abort them all when it ends. */
export const open: AbortController[] = [];

/** initialize + notifications/initialized; the response of the initialize and the session id, if any. */
export async function initialize(endpoint: string, headers: Record<string, string>) {
  const response = await post(endpoint, initializeRequest(), headers);
  const sessionId = response.headers.get('mcp-session-id');
  if (response.status !== 200 || sessionId === null) return { response, sessionId: undefined };
  await response.text();
  const initialized = await post(
    endpoint,
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { ...headers, ...sessionHeaders(sessionId) },
  );
  expect(initialized.status).toBe(202);
  return { response, sessionId };
}

export async function openSession(endpoint: string, headers: Record<string, string>): Promise<string> {
  const { response, sessionId } = await initialize(endpoint, headers);
  expect(response.status, await (sessionId ? '' : response.clone().text())).toBe(200);
  return sessionId as string;
}

export async function toolsListStatus(endpoint: string, headers: Record<string, string>, sessionId: string) {
  const response = await post(endpoint, handshakeToolsList(), { ...headers, ...sessionHeaders(sessionId) });
  await response.text();
  return response.status;
}

/** Opens the session's GET stream (it is busy while the stream is open). */
export async function holdStream(endpoint: string, headers: Record<string, string>, sessionId: string): Promise<void> {
  const abort = new AbortController();
  open.push(abort);
  const response = await fetch(endpoint, {
    headers: { accept: 'text/event-stream', ...headers, ...sessionHeaders(sessionId) },
    signal: abort.signal,
  });
  expect(response.status).toBe(200);
}

export function listen(endpoint: string, headers: Record<string, string>): Promise<Response> {
  const abort = new AbortController();
  open.push(abort);
  const method = 'subscriptions/listen';
  return fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: MCP_ACCEPT, ...envelopeHeaders(method), ...headers },
    body: JSON.stringify(envelopeRequest(method, { notifications: { toolsListChanged: true } }, { id: 'listen' })),
    signal: abort.signal,
  });
}

export function slowCall(endpoint: string, headers: Record<string, string>, ms: number, abort?: AbortController) {
  return fetch(endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: MCP_ACCEPT,
      ...envelopeHeaders('tools/call'),
      'mcp-name': 'probe_slow',
      ...headers,
    },
    body: JSON.stringify(envelopeRequest('tools/call', { name: 'probe_slow', arguments: { ms } })),
    ...(abort ? { signal: abort.signal } : {}),
  });
}
