// Ids of the requests a server sends to a 2025 client (elicitation, sampling, roots, ping), tagged with the instance
// that sent them. The SDK numbers them per process, so across instances they collide, and it matches a reply by
// `Number(id)`: on the wire they are `<instance>:<n>`, and only the tagging instance turns a reply back into `n`.
// The progress token the SDK derives from the id travels the same way.
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
} from '@modelcontextprotocol/server';

const TAGGED = /^([^:]+):(\d{1,15})$/;

const tag = (instance: string, id: number) => `${instance}:${id}`;

function parseTag(value: unknown): { instance: string; id: number } | undefined {
  if (typeof value !== 'string') return undefined;
  const match = TAGGED.exec(value);
  return match ? { instance: match[1] as string, id: Number(match[2]) } : undefined;
}

/** A message on its way to the client, with this instance's request ids tagged. */
export function tagOutbound(message: JSONRPCMessage, instance: string): JSONRPCMessage {
  if (isJSONRPCRequest(message) && typeof message.id === 'number') {
    const meta = message.params?._meta;
    const progressToken = meta?.progressToken;
    const params =
      typeof progressToken === 'number' && message.params
        ? { ...message.params, _meta: { ...meta, progressToken: tag(instance, progressToken) } }
        : message.params;
    return { ...message, id: tag(instance, message.id), ...(params ? { params } : {}) };
  }
  if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') {
    const requestId = message.params?.requestId;
    if (typeof requestId === 'number') {
      return { ...message, params: { ...message.params, requestId: tag(instance, requestId) } };
    }
  }
  return message;
}

/** The tag a client message carries back: a reply's id, or the progress token of a progress notification. */
function carriedTag(message: JSONRPCMessage): { instance: string; id: number } | undefined {
  // Cheap field checks first: this runs on every message a client POSTs to a session.
  const { id, method } = message as { id?: unknown; method?: unknown };
  if (method === undefined) {
    const isReply = typeof id === 'string' && (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message));
    return isReply ? parseTag(id) : undefined;
  }
  if (method === 'notifications/progress' && isJSONRPCNotification(message)) {
    return parseTag(message.params?.progressToken);
  }
  return undefined;
}

/** The instance a client message must reach, when it answers a request an instance sent; undefined otherwise. */
export function replyTarget(message: JSONRPCMessage): string | undefined {
  return carriedTag(message)?.instance;
}

/** A client message as the SDK of the tagging instance expects it: its own tags turned back into numbers. */
export function untagInbound(message: JSONRPCMessage, instance: string): JSONRPCMessage {
  const carried = carriedTag(message);
  if (!carried || carried.instance !== instance) return message;
  if (isJSONRPCNotification(message)) {
    return { ...message, params: { ...message.params, progressToken: carried.id } };
  }
  return { ...message, id: carried.id } as JSONRPCMessage;
}

export interface RoutedBody {
  /** Client messages that answer requests other instances sent, by instance. */
  readonly elsewhere: ReadonlyMap<string, JSONRPCMessage[]>;
  /** What is left for this instance (a batch stays a batch); undefined when nothing is. */
  readonly here: unknown;
}

/** Splits a POST body into the replies other instances wait for and what this instance serves itself. */
export function routeClientMessages(body: unknown, instance: string): RoutedBody {
  const messages = Array.isArray(body) ? body : [body];
  const elsewhere = new Map<string, JSONRPCMessage[]>();
  const here: unknown[] = [];
  for (const message of messages) {
    const target = typeof message === 'object' && message !== null ? replyTarget(message) : undefined;
    if (target === undefined || target === instance) {
      here.push(message);
      continue;
    }
    const forTarget = elsewhere.get(target) ?? [];
    forTarget.push(message);
    elsewhere.set(target, forTarget);
  }
  if (elsewhere.size === 0) return { elsewhere, here: body };
  return { elsewhere, here: here.length === 0 ? undefined : Array.isArray(body) ? here : here[0] };
}
