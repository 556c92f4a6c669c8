// Parses POST bodies as JSON-RPC messages. Past plain JSON.parse it bounds nesting depth (JSON.stringify and the
// SDK's schemas recurse, so a deep body would overflow the stack) and refuses prototype-pollution keys, both in one
// walk with an explicit stack. Other methods never carry a message, so their bodies are drained and ignored.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { edgeError } from '../../../src/errors/index.js';
import { EdgeRejection } from './edge-rejection.js';

export function installJsonBodyParser(fastify: FastifyInstance, limits: { readonly maxJsonDepth: number }): void {
  // Only application/json is a JSON-RPC message; Fastify's text/plain parser would let anything through.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (request.method !== 'POST') return done(null, undefined);
    try {
      done(null, parseMessage(body as string, limits.maxJsonDepth));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  // A DELETE or GET is what it is whatever its body says: the SDK client copies custom headers (Content-Type too)
  // onto its DELETE, and refusing that would leave the client unable to end its session.
  fastify.addContentTypeParser('*', (request: FastifyRequest, _payload, done) => {
    if (request.method !== 'POST') return done(null, undefined);
    done(
      new EdgeRejection(
        415,
        edgeError('unsupported_media_type', 'Unsupported Content-Type: send the JSON-RPC message as application/json.'),
      ),
      undefined,
    );
  });
}

/** The parsed body, or an EdgeRejection saying what is wrong with it. */
export function parseMessage(text: string, maxDepth: number): unknown {
  if (text.trim() === '') {
    throw new EdgeRejection(
      400,
      edgeError('parse_error', 'Parse error: the request body is empty; send one JSON-RPC message.'),
    );
  }
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch (error) {
    throw new EdgeRejection(
      400,
      edgeError('parse_error', `Parse error: the request body is not valid JSON (${(error as Error).message}).`),
    );
  }
  checkStructure(message, maxDepth);
  return message;
}

interface Visit {
  readonly value: object;
  /** 1 for the message itself. */
  readonly level: number;
  readonly parent: Visit | undefined;
  readonly key: string;
}

/**
 * Walks the objects and arrays of the parsed value with an explicit stack, never recursing. The keys refused are the
 * ones whose assignment would reach a prototype: `__proto__`, and `constructor` holding a `prototype`.
 */
function checkStructure(root: unknown, maxDepth: number): void {
  if (typeof root !== 'object' || root === null) return;
  const pending: Visit[] = [{ value: root, level: 1, parent: undefined, key: '' }];
  for (let visit = pending.pop(); visit !== undefined; visit = pending.pop()) {
    if (visit.level > maxDepth) throw tooDeep(maxDepth);
    const { value } = visit;
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        const child: unknown = value[index];
        if (typeof child === 'object' && child !== null) {
          pending.push({ value: child, level: visit.level + 1, parent: visit, key: `[${index}]` });
        }
      }
      continue;
    }
    for (const key of Object.keys(value)) {
      const child: unknown = (value as Record<string, unknown>)[key];
      if (key === '__proto__' || (key === 'constructor' && isObjectWith(child, 'prototype'))) {
        throw forbiddenKey(key === '__proto__' ? '__proto__' : 'constructor.prototype', pathOf(visit, key));
      }
      if (typeof child === 'object' && child !== null) {
        pending.push({ value: child, level: visit.level + 1, parent: visit, key });
      }
    }
  }
}

function tooDeep(maxDepth: number): EdgeRejection {
  return new EdgeRejection(
    400,
    edgeError(
      'nesting_too_deep',
      `The message nests objects and arrays more than ${maxDepth} levels deep (MCP_HTTP_MAX_JSON_DEPTH); ` +
        'send flatter data.',
      { limit: maxDepth },
    ),
  );
}

function forbiddenKey(refused: string, path: string): EdgeRejection {
  return new EdgeRejection(
    400,
    edgeError(
      'forbidden_key',
      `Refused: the message contains the key "${refused}" at ${path}, which could alter object prototypes; ` +
        'rename or remove it.',
      { key: refused },
    ),
  );
}

function isObjectWith(value: unknown, key: string): boolean {
  return typeof value === 'object' && value !== null && Object.hasOwn(value, key);
}

/** Where `key` sits in the message (`params.arguments.__proto__`), cut short: it is echoed back. */
function pathOf(visit: Visit, key: string): string {
  const parts = [key];
  for (let at: Visit | undefined = visit; at?.parent !== undefined; at = at.parent) parts.unshift(at.key);
  const path = parts.map((part, index) => (index === 0 || part.startsWith('[') ? part : `.${part}`)).join('');
  return path.length <= 80 ? path : `${path.slice(0, 77)}...`;
}
