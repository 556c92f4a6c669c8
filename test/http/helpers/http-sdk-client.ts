// The shared SDK client connection (http-server.ts), plus every inbound message recorded in arrival order (before
// the SDK dispatches it) and, on the 2025 era, a promise for the moment its GET stream is open.
import type { Client, JSONRPCMessage } from '@modelcontextprotocol/client';
import { connectClient, type Era } from './http-server.js';

export interface HttpSdkClient {
  readonly client: Client;
  /** Every message received, as the transport delivered it. */
  readonly wire: JSONRPCMessage[];
  /** 2025 era: resolves once the server answered the client's GET stream, so unsolicited notifications can arrive. */
  readonly streamOpen: Promise<void>;
  close(): Promise<void>;
}

export async function connectHttpClient(endpointUrl: string, era: Era): Promise<HttpSdkClient> {
  let markOpen: () => void = () => undefined;
  const streamOpen = new Promise<void>((resolve) => {
    markOpen = resolve;
  });
  const watching: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (init?.method === 'GET' && response.ok) markOpen();
    return response;
  };
  const { client, transport } = await connectClient(endpointUrl, era, { fetch: watching });
  const wire: JSONRPCMessage[] = [];
  const dispatch = transport.onmessage;
  transport.onmessage = (...args: Parameters<NonNullable<typeof dispatch>>) => {
    wire.push(args[0]);
    dispatch?.(...args);
  };
  return { client, wire, streamOpen, close: () => client.close() };
}

/** The wire's notifications of one method, in arrival order. */
export function notificationsOf(wire: readonly JSONRPCMessage[], method: string) {
  return wire.filter(
    (message): message is Extract<JSONRPCMessage, { method: string }> =>
      'method' in message && !('id' in message) && message.method === method,
  );
}
