// The session direct path answers exactly what the SDK's session transport answers: one corpus of 2025 requests
// inside a session (successes, handler and pipeline errors, log lines under each log level, input_required rounds the
// SDK's shim fulfils, progress, malformed shapes, session and header refusals) sent to one app with
// MCP_HTTP_FAST_PATH=on and one with it off, in the same order; status, headers and the body's bytes must be
// identical. Only each side's own session id, the random stream id inside event ids and generated requestIds are normalised.
import type { KilnApp } from 'mcp-kiln';
import type { TestingApp } from 'mcp-kiln/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type HttpServing, http } from '../../modules/http/index.js';
import { closeDiffSides, compileDiffApp, DIFF_REQUEST_STATE_KEY } from './helpers/diff-app.js';
import { HANDSHAKE_VERSION, MCP_ACCEPT } from './helpers/http-server.js';
import { type CorpusCase, type Json, request, SESSION_CALL_CORPUS, whoami } from './helpers/session-call-corpus.js';

interface Side {
  readonly testing: TestingApp;
  readonly serving: HttpServing;
  readonly sessionId: string;
  /** A second session, opened by a client that declared elicitation (the shim asks it instead of refusing). */
  readonly askingSessionId: string;
  readonly runs: { readonly mock: { readonly calls: Parameters<KilnApp['runSessionCall']>[] } };
}

const sides: Record<'direct' | 'sdk', Side> = {} as never;

async function start(fastPath: 'on' | 'off'): Promise<Side> {
  const testing = await compileDiffApp('kiln-session-diff', fastPath, {
    MCP_SESSION_MODE: 'stateful',
    MCP_REQUEST_STATE_KEY: DIFF_REQUEST_STATE_KEY,
  });
  const runs = vi.spyOn(testing.app, 'runSessionCall');
  const serving = await testing.app.serve(http());
  const sessionId = await openSession(serving.endpointUrl, {});
  const askingSessionId = await openSession(serving.endpointUrl, { elicitation: { form: {} } });
  return { testing, serving, sessionId, askingSessionId, runs };
}

beforeAll(async () => {
  [sides.direct, sides.sdk] = await Promise.all([start('on'), start('off')]);
});
afterAll(() => closeDiffSides(Object.values(sides)));

async function openSession(endpointUrl: string, capabilities: Json): Promise<string> {
  const initialize = {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: HANDSHAKE_VERSION, capabilities, clientInfo: { name: 'diff', version: '1.0.0' } },
  };
  const opened = await fetch(endpointUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: MCP_ACCEPT },
    body: JSON.stringify(initialize),
  });
  await opened.text();
  const sessionId = opened.headers.get('mcp-session-id');
  if (!sessionId) throw new Error(`initialize answered HTTP ${opened.status} without a session`);
  const initialized = await fetch(endpointUrl, {
    method: 'POST',
    headers: sessionHeaders(sessionId),
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  expect(initialized.status).toBe(202);
  return sessionId;
}

function sessionHeaders(sessionId: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: MCP_ACCEPT,
    'mcp-protocol-version': HANDSHAKE_VERSION,
    'mcp-session-id': sessionId,
  };
}

interface Case extends CorpusCase {
  readonly headers?: Record<string, string | undefined>;
  /** Sent in the session whose client declared elicitation. */
  readonly asking?: boolean;
}

function withHeaders(base: Case, label: string, headers: Record<string, string | undefined>): Case {
  return { ...base, name: `${base.name} [${label}]`, headers };
}

const CORPUS: Case[] = [
  ...SESSION_CALL_CORPUS,
  // Session and header refusals.
  withHeaders(whoami, 'version header missing', { 'mcp-protocol-version': undefined }),
  withHeaders(whoami, 'version header unsupported', { 'mcp-protocol-version': '1999-01-01' }),
  withHeaders(whoami, 'version header 2026', { 'mcp-protocol-version': '2026-07-28' }),
  withHeaders(whoami, 'unknown session', { 'mcp-session-id': '00000000-0000-4000-8000-000000000000' }),
  withHeaders(whoami, 'malformed session id', { 'mcp-session-id': 'nope' }),
  withHeaders(whoami, 'accept json only', { accept: 'application/json' }),
  withHeaders(whoami, 'content type with charset', { 'content-type': 'application/json; charset=utf-8' }),
  withHeaders(whoami, 'content type text', { 'content-type': 'text/plain' }),
];

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** Headers that legitimately differ between two servers or with a response's timing. */
const VARYING_HEADERS = new Set(['date', 'keep-alive', 'content-length', 'transfer-encoding']);

async function send(side: Side, testCase: Case): Promise<Answer> {
  const sessionId = testCase.asking ? side.askingSessionId : side.sessionId;
  const headers = sessionHeaders(sessionId);
  for (const [name, value] of Object.entries(testCase.headers ?? {})) {
    if (value === undefined) delete headers[name];
    else headers[name] = value;
  }
  const response = await fetch(side.serving.endpointUrl, {
    method: 'POST',
    headers,
    body: typeof testCase.body === 'string' ? testCase.body : JSON.stringify(testCase.body),
  });
  const text = await response.text();
  const seen: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!VARYING_HEADERS.has(name)) seen[name] = value.replaceAll(sessionId, '<session>');
  });
  // Event ids are `<seq>_<stream id>`, the stream id a random UUID per response: the sequence must agree.
  // Kiln's generated requestIds differ per request too.
  const body = text
    .replaceAll(sessionId, '<session>')
    .replace(/^id: (\d+)_[0-9a-f-]{36}$/gm, 'id: $1_<stream>')
    .replace(/"requestId":"[\w-]+"/g, '"requestId":"<requestId>"')
    .replace(/\*\*Request id:\*\* [\w-]+/g, '**Request id:** <requestId>');
  return { status: response.status, headers: seen, body };
}

describe('the session direct path answers what the SDK session transport answers', () => {
  it.each(CORPUS.map((testCase) => [testCase.name, testCase] as const))('%s', async (_name, testCase) => {
    const [direct, sdk] = await Promise.all([send(sides.direct, testCase), send(sides.sdk, testCase)]);
    expect(direct).toEqual(sdk);
  });

  it('ran the calls it owns itself, and none on the side with it off', () => {
    expect(sides.sdk.runs).not.toHaveBeenCalled();
    const methods = new Set(sides.direct.runs.mock.calls.map(([run]) => run.method));
    expect(methods).toEqual(new Set(['tools/call', 'resources/read', 'prompts/get']));
  });
});

describe('a slow direct call', () => {
  it('turns into a stream with keep-alive comments, then answers as the SDK path does', async () => {
    const answers = await Promise.all(
      (['on', 'off'] as const).map(async (fastPath) => {
        const testing = await compileDiffApp('kiln-session-diff', fastPath, {
          MCP_SESSION_MODE: 'stateful',
          MCP_HTTP_SSE_KEEP_ALIVE_MS: '50',
        });
        const serving = await testing.app.serve(http());
        try {
          const sessionId = await openSession(serving.endpointUrl, {});
          const response = await fetch(serving.endpointUrl, {
            method: 'POST',
            headers: sessionHeaders(sessionId),
            body: JSON.stringify(request('tools/call', { name: 'probe_slow', arguments: { ms: 400 } }, 1)),
          });
          const text = await response.text();
          return { status: response.status, type: response.headers.get('content-type'), text };
        } finally {
          await serving.close();
          await testing.close();
        }
      }),
    );
    const [direct, sdk] = answers.map((answer) => ({
      ...answer,
      text: answer.text.replaceAll(': keepalive\n\n', '').replace(/^id: (\d+)_[0-9a-f-]{36}$/gm, 'id: $1_<stream>'),
    }));
    expect(answers[0]?.text).toContain(': keepalive\n\n');
    expect(direct).toEqual(sdk);
  });
});

describe('an input_required round in a session whose client can answer it', () => {
  /** Sends probe_ask, answers the elicitations the SDK's shim sends on the stream, and returns the frames. */
  async function askAndAnswer(side: Side): Promise<string> {
    const headers = sessionHeaders(side.askingSessionId);
    const response = await fetch(side.serving.endpointUrl, {
      method: 'POST',
      headers,
      body: JSON.stringify(request('tools/call', { name: 'probe_ask', arguments: { kind: 'form' } }, 'ask-1')),
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    const answered = new Set<string>();
    // The probe asks on every round, so the shim asks again after each answer: two rounds are compared, then the
    // client goes away.
    while (answered.size < 2) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      for (const line of text.split('\n')) {
        if (!line.includes('"elicitation/create"')) continue;
        const { id } = JSON.parse(line.slice('data: '.length)) as { id: string };
        if (answered.has(id)) continue;
        answered.add(id);
        const reply = { jsonrpc: '2.0', id, result: { action: 'accept', content: { ok: true } } };
        const posted = await fetch(side.serving.endpointUrl, { method: 'POST', headers, body: JSON.stringify(reply) });
        expect(posted.status).toBe(202);
      }
    }
    await reader.cancel();
    return text
      .replaceAll(side.askingSessionId, '<session>')
      .replace(/^id: (\d+)_[0-9a-f-]{36}$/gm, 'id: $1_<stream>')
      .replace(/"[0-9a-f-]{36}:(\d+)"/g, '"<instance>:$1"')
      .replace(/"requestId":"[\w-]+"/g, '"requestId":"<requestId>"');
  }

  it('asks the client on the same stream and answers as the SDK path does', async () => {
    const [direct, sdk] = await Promise.all([askAndAnswer(sides.direct), askAndAnswer(sides.sdk)]);
    expect(direct.match(/elicitation\/create/g)).toHaveLength(2);
    expect(direct).toEqual(sdk);
  });
});
