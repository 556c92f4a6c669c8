// InMemorySessionEventStore: the frames one 2025 session's SSE streams carried, for Last-Event-ID replay. Ids are
// unique across the session's streams and name their stream; replay covers one stream, strictly after the given id;
// retention is bounded by count and by age (spec 2025-11-25, Streamable HTTP "Resumability and Redelivery").
// The cases are shared with the Redis store (test/redis): see session-event-store-compliance.ts.
import { InMemorySessionEventStore } from '../../modules/http/sessions/session-event-store.js';
import { describeSessionEventStore } from './session-event-store-compliance.js';

describeSessionEventStore('InMemorySessionEventStore', () => ({
  open: (retention) => {
    const store = new InMemorySessionEventStore(retention);
    return { store, size: async () => store.size };
  },
  // Ids are `<seq>_<streamId>`; 99 is past every sequence number a case issues.
  unissued: (issued) => issued.replace(/^\d+/, '99'),
  forged: ['0__GET_stream', '-1__GET_stream', '1e0__GET_stream', ' 1__GET_stream'],
}));
