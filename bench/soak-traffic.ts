// The soak's traffic. Under autocannon, every connection cycles through a read mix of both eras: 2026-07-28
// tools/call (get, search), resources/read and prompts/get, and tools/call and tools/list on open 2025 sessions.
// Beside it, a paced loop opens, uses and deletes a 2025 session four times a second and creates a note once a
// second. Notes are never deleted (deleting asks the user), and every search reads them all, so creating them
// faster would turn the store's growth and the example's linear search into a false leak and a slowdown.

import { CLIENT_CAPABILITIES_META_KEY, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import type { SequencedRequest } from 'autocannon';
import { createNote, openSession, REVISION_2025_11_25, REVISION_2026_07_28, toolCall } from './requests.js';

const ACCEPT = 'application/json, text/event-stream';

/** One 2026-07-28 request: the envelope in `_meta`, mirrored by the standard headers. */
function envelopeRequest(method: string, params: Record<string, unknown>, name: string): SequencedRequest {
  return {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: ACCEPT,
      'mcp-protocol-version': REVISION_2026_07_28,
      'mcp-method': method,
      'mcp-name': name,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: '[<id>]',
      method,
      params: {
        ...params,
        _meta: { [PROTOCOL_VERSION_META_KEY]: REVISION_2026_07_28, [CLIENT_CAPABILITIES_META_KEY]: {} },
      },
    }),
  };
}

function sessionRequest(sessionId: string, method: string, params: Record<string, unknown>): SequencedRequest {
  return {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: ACCEPT,
      'mcp-protocol-version': REVISION_2025_11_25,
      'mcp-session-id': sessionId,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: '[<id>]', method, params }),
  };
}

/** The sequence each autocannon connection repeats, against a seeded note and two open 2025 sessions. */
export async function readMix(endpointUrl: string): Promise<SequencedRequest[]> {
  const noteId = await createNote(endpointUrl);
  const sessions = [await openSession(endpointUrl), await openSession(endpointUrl)];
  const getNote = (era: typeof REVISION_2026_07_28 | typeof REVISION_2025_11_25, sessionId?: string) => ({
    method: 'POST' as const,
    ...toolCall(era, 'notes_get_note', { id: noteId }, sessionId),
  });
  return [
    getNote(REVISION_2026_07_28),
    envelopeRequest(
      'tools/call',
      { name: 'notes_search_notes', arguments: { query: 'benchmark', limit: 5 } },
      'notes_search_notes',
    ),
    envelopeRequest('resources/read', { uri: `notes://${noteId}` }, `notes://${noteId}`),
    // The seeded note is the only one tagged `bench`, so the prompt stays the same size however many notes are written.
    envelopeRequest('prompts/get', { name: 'notes_summarize', arguments: { tag: 'bench' } }, 'notes_summarize'),
    ...sessions.flatMap((sessionId) => [
      getNote(REVISION_2025_11_25, sessionId),
      sessionRequest(sessionId, 'tools/list', {}),
    ]),
  ];
}

/**
 * A response that answered its request: a JSON-RPC result that is not a tool error, whether it came as JSON or as the
 * last event of a stream. Parsed, not searched: tools/list carries output schemas that mention "error" and "isError".
 */
export function answered(body: string): boolean {
  const json = body.trimStart().startsWith('{')
    ? body
    : body
        .split('\n')
        .filter((line) => line.startsWith('data:') && line.length > 'data: '.length)
        .at(-1)
        ?.slice('data:'.length);
  try {
    const message = JSON.parse(json ?? '') as { result?: { isError?: boolean } };
    return message.result !== undefined && message.result.isError !== true;
  } catch {
    return false;
  }
}

export interface WriteLoop {
  readonly notesCreated: number;
  readonly sessionsChurned: number;
  readonly failures: readonly string[];
  stop(): Promise<void>;
}

/** Every `everyMs`, one 2025 session opened, used once and deleted; every `notesEvery`-th time, one note created. */
export function paceWrites(endpointUrl: string, everyMs = 250, notesEvery = 4): WriteLoop {
  const failures: string[] = [];
  const counts = { notes: 0, sessions: 0 };
  let running = true;
  const loop = (async () => {
    for (let round = 0; running; round++) {
      const started = Date.now();
      try {
        if (round % notesEvery === 0) {
          const note = { title: `Churn ${round}`, body: 'Written by the write loop.', tags: ['churn'] };
          await expectAnswered(
            endpointUrl,
            toolCall(REVISION_2026_07_28, 'notes_create_note', note),
            'notes_create_note',
          );
          counts.notes++;
        }
        await sessionRoundTrip(endpointUrl);
        counts.sessions++;
      } catch (error) {
        failures.push(error instanceof Error ? error.message : String(error));
      }
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, everyMs - (Date.now() - started))));
    }
  })();
  return {
    get notesCreated() {
      return counts.notes;
    },
    get sessionsChurned() {
      return counts.sessions;
    },
    failures,
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

/** Sends one request of the mix by hand (its id fixed) and throws unless it was answered. */
async function expectAnswered(endpointUrl: string, call: SequencedRequest, what: string): Promise<void> {
  const body = call.body?.replace('"[<id>]"', '"soak-write"');
  const reply = await fetch(endpointUrl, { method: 'POST', headers: call.headers, body });
  const text = await reply.text();
  if (reply.status !== 200 || !answered(text))
    throw new Error(`${what} answered ${reply.status}: ${text.slice(0, 300)}`);
}

async function sessionRoundTrip(endpointUrl: string): Promise<void> {
  const sessionId = await openSession(endpointUrl);
  await expectAnswered(
    endpointUrl,
    sessionRequest(sessionId, 'tools/call', { name: 'notes_search_notes', arguments: { query: 'benchmark' } }),
    '2025 session tools/call',
  );
  const closed = await fetch(endpointUrl, {
    method: 'DELETE',
    headers: { 'mcp-session-id': sessionId, 'mcp-protocol-version': REVISION_2025_11_25 },
  });
  await closed.text();
  if (closed.status !== 200 && closed.status !== 204)
    throw new Error(`DELETE of a 2025 session answered ${closed.status}`);
}
