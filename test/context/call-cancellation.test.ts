// CallCancellation: the on-demand cancellation hosts give the direct calls. Its signal behaves as an AbortController's
// whether it is read before the abort (listeners hear it) or only after (it comes back already aborted), and the
// Context hands it out as ctx.signal.
import { describe, expect, it, vi } from 'vitest';
import { CallCancellation, signalOf } from '../../src/context/call-cancellation.js';
import { createContext } from '../../src/context/create-context.js';
import { createTestingLogger } from '../../src/testing/testing-logger.js';

describe('CallCancellation', () => {
  it('aborts a signal read before the abort, once, with the first reason', () => {
    const cancellation = new CallCancellation();
    const { signal } = cancellation;
    const heard = vi.fn();
    signal.addEventListener('abort', heard);
    expect(signal.aborted).toBe(false);
    const reason = new Error('client disconnected');
    cancellation.abort(reason);
    cancellation.abort(new Error('server shutting down'));
    expect(heard).toHaveBeenCalledTimes(1);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(reason);
    expect(cancellation.aborted).toBe(true);
    expect(cancellation.signal).toBe(signal);
  });

  it('hands out an already aborted signal, with the reason, when read only after the abort', () => {
    const cancellation = new CallCancellation();
    const reason = new Error('request cancelled');
    expect(cancellation.aborted).toBe(false);
    cancellation.abort(reason);
    expect(cancellation.aborted).toBe(true);
    expect(cancellation.signal.aborted).toBe(true);
    expect(cancellation.signal.reason).toBe(reason);
  });

  it('is read through signalOf like a plain signal', () => {
    const controller = new AbortController();
    expect(signalOf(controller.signal)).toBe(controller.signal);
    const cancellation = new CallCancellation();
    expect(signalOf(cancellation)).toBe(cancellation.signal);
  });

  it('is ctx.signal for a context seeded with it', () => {
    const cancellation = new CallCancellation();
    const { context } = createContext(
      {
        requestId: 'r-1',
        tenantId: 'default',
        operation: 'tool:probe',
        era: 'envelope',
        signal: cancellation,
        clientCapabilities: undefined,
        channel: {},
      },
      {
        logger: createTestingLogger(),
        logFloor: 'debug',
        stateFor: () => {
          throw new Error('no state in this test');
        },
      },
    );
    cancellation.abort(new Error('gone'));
    expect(context.signal.aborted).toBe(true);
    expect(context.signal).toBe(cancellation.signal);
  });
});
