// Kiln's own per-session event stores, each also noting the id it gave every frame, so a test can compare what a
// resumed stream replayed with what the server actually stored for that session.
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import {
  type EventRetention,
  InMemorySessionEventStore,
  type SessionEventStoreFactory,
} from '../../../modules/http/sessions/session-event-store.js';

export interface StoredFrame {
  readonly streamId: string;
  readonly id: string;
  readonly message: JSONRPCMessage;
}

export interface RecordingEventStores {
  readonly factory: SessionEventStoreFactory;
  /** Frames stored per session id, in storage order. */
  framesOf(sessionId: string): readonly StoredFrame[];
}

/** `retention` as the app configures it, plus the clock frame ages are measured on (`now`). */
export function recordingEventStores(retention: EventRetention): RecordingEventStores {
  const bySession = new Map<string, StoredFrame[]>();
  return {
    factory: (sessionId) => {
      const frames: StoredFrame[] = [];
      bySession.set(sessionId, frames);
      return new RecordingEventStore(retention, frames);
    },
    framesOf: (sessionId) => bySession.get(sessionId) ?? [],
  };
}

class RecordingEventStore extends InMemorySessionEventStore {
  constructor(
    retention: EventRetention,
    private readonly frames: StoredFrame[],
  ) {
    super(retention);
  }

  override async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const id = await super.storeEvent(streamId, message);
    this.frames.push({ streamId, id, message });
    return id;
  }
}
