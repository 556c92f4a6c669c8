// One HTTP exchange through node:http, for the header fetch will not let a caller set: fetch always sends the real
// Host, and the DNS-rebinding guard is about a forged one.
import { request } from 'node:http';

export interface RawResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
}

export function rawHttp(
  url: string,
  init: { readonly method?: string; readonly headers?: Record<string, string>; readonly body?: string },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers: init.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
}
