// Forwards one HTTP request to one upstream and pipes the answer back, event streams included: the round-robin front
// of the cluster example and the proxy the multi-instance tests put in front of real Kiln processes share it.
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';

/** Resolves false when the upstream refused the connection before answering, so another can be tried. */
export function forward(origin: string, req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<boolean> {
  return new Promise((resolve) => {
    const upstream = httpRequest(`${origin}${req.url ?? '/'}`, { method: req.method, headers: req.headers });
    upstream.once('error', () => {
      if (res.headersSent) res.destroy();
      resolve(false);
    });
    upstream.once('response', (answer) => {
      resolve(true);
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      // Node holds headers back until the first body byte; a quiet event stream must still open at once.
      res.flushHeaders();
      answer.pipe(res);
      // An upstream that dies mid-stream must look dead to the client too, so it reconnects.
      answer.once('close', () => {
        if (!answer.complete) res.destroy();
      });
    });
    res.once('close', () => upstream.destroy());
    upstream.end(body);
  });
}
