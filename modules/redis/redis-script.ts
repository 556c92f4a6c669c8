// A Lua script sent by its SHA-1 (EVALSHA), so Redis neither receives nor hashes its text on every call; the text
// goes once, when the server answers NOSCRIPT (first use, or after a restart or SCRIPT FLUSH).
import { createHash } from 'node:crypto';
import type { RedisClient } from './redis-connection.js';

export class RedisScript {
  readonly #text: string;
  readonly #sha: string;

  constructor(text: string) {
    this.#text = text;
    this.#sha = createHash('sha1').update(text).digest('hex');
  }

  async run(
    client: RedisClient,
    keys: readonly (string | Buffer)[],
    args: readonly (string | Buffer)[],
  ): Promise<unknown> {
    try {
      return await client.evalsha(this.#sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return client.eval(this.#text, keys.length, ...keys, ...args);
    }
  }
}
