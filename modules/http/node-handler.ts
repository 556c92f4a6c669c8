// `nodeHandler(app, options)`: the MCP endpoint as a `(req, res, next?)` handler, for servers that are not Fastify:
// Express 5, Koa (through its `req`/`res`), `node:http`, NestJS on Express.
//
//   expressApp.use(nodeHandler(app, { prefix: '/mcp' }));
//
// Behind it is a Fastify instance that never listens: the `kilnFastify` plugin mounted on it answers each request
// through Fastify's router, so the endpoint behaves exactly as it does on Fastify. A request for any other path goes
// to `next` untouched, its body unread (404 without `next`). A body a middleware already parsed (express.json()) is
// taken as it is. The path is read from `originalUrl` where a framework keeps one, so mounting at
// `app.use('/mcp', …)` and `app.all('/mcp', …)` both work.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import type { KilnApp } from '../../src/index.js';
import { fastifyLogger } from './fastify-logger.js';
import { trustProxyOption } from './http-host.js';
import { type KilnFastifyOptions, kilnFastify } from './kiln-fastify.js';

export type NodeHandlerOptions = Omit<KilnFastifyOptions, 'app'>;

/** A request as Express and friends hand it over: a parsed body and the URL before the mount path was cut. */
interface FrameworkRequest extends IncomingMessage {
  body?: unknown;
  originalUrl?: string;
}

export type NodeHandler = ((req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void) & {
  /** The Fastify instance behind the handler, for `inject()` in tests. Ready once `ready()` resolves. */
  readonly fastify: FastifyInstance;
  /** Resolves once the endpoint is mounted; requests that arrive before wait for it. */
  ready(): Promise<void>;
};

export function nodeHandler(app: KilnApp, options: NodeHandlerOptions = {}): NodeHandler {
  const config = { ...app.config.http, ...options.config };
  const fastify = Fastify({
    loggerInstance: fastifyLogger(app.logger),
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.maxBodyBytes,
    trustProxy: trustProxyOption(config),
  });
  fastify.addHook('preParsing', async (request, _reply, payload) => takeParsedBody(request.raw, payload));
  const ready: Promise<void> = new Promise((resolve, reject) => {
    fastify.register(kilnFastify, { ...options, app }).ready((error) => (error ? reject(error) : resolve()));
  });
  // A mount that failed (the app closed before it finished, say) is answered on each request, through next() or 500.
  ready.catch((error: unknown) => app.logger.error({ err: error }, 'The MCP endpoint could not be mounted'));

  const handler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): void => {
    const request = req as FrameworkRequest;
    ready.then(
      () => {
        const url = request.originalUrl ?? request.url ?? '/';
        // A request for a path Kiln does not route never enters its instance, whose 404 route would read (and so
        // take from the framework's own parsers) the body, and refuse what Kiln's limits refuse.
        const path = url.split('?', 1)[0] ?? url;
        if (!fastify.findRoute({ method: request.method ?? '', url: path })) {
          if (next) return next();
          res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not Found","statusCode":404}');
          return;
        }
        request.url = url;
        fastify.routing(request, res);
      },
      (error: unknown) => {
        if (next) return next(error);
        res.statusCode = 500;
        res.end();
      },
    );
  };
  return Object.assign(handler, { fastify: fastify as FastifyInstance, ready: () => ready });
}

/**
 * The body a middleware already read and parsed (or kept as text or bytes), as a stream Fastify can parse again (its
 * own checks then apply as to any request); the request's own stream otherwise.
 */
function takeParsedBody(raw: FrameworkRequest, payload: Readable): Readable {
  if (!raw.readableEnded) return payload;
  if (raw.body === undefined) {
    // Waiting on a stream that already ended would leave the request unanswered for good.
    if (!declaresBody(raw)) return payload;
    throw new Error(
      'The request body was read before nodeHandler and not left on req.body: mount nodeHandler before the body ' +
        'parser, or use one that sets req.body (express.json()).',
    );
  }
  const bytes = Buffer.isBuffer(raw.body)
    ? raw.body
    : Buffer.from(typeof raw.body === 'string' ? raw.body : JSON.stringify(raw.body));
  const replay = Readable.from([bytes]) as Readable & { receivedEncodedLength?: number };
  // Fastify checks the bytes it read against Content-Length: those were the original body's.
  const declared = Number(raw.headers['content-length']);
  replay.receivedEncodedLength = Number.isNaN(declared) ? bytes.length : declared;
  return replay;
}

function declaresBody(raw: IncomingMessage): boolean {
  const length = raw.headers['content-length'];
  return raw.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
