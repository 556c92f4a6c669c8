// resources/read of a URI that matches a template but is not a URL: the caller's error (-32602 invalid_arguments
// naming the URI), never an internal error, whether read directly or through a connected client.
import { createTestingModule, type TestingApp } from 'mcp-kiln/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotesModule } from '../../examples/notes/notes.module.js';
import { JsonRpcErrorCode } from '../../src/errors/json-rpc-error-code.js';

let app: TestingApp;
beforeAll(async () => {
  app = await createTestingModule({ imports: [NotesModule] }).compile();
});
afterAll(() => app.close());

describe('resources/read of a template match that is not a URL', () => {
  it.each(['notes://a b', 'notes://<'])(
    'answers %s with invalid_arguments, directly and over a client',
    async (uri) => {
      await expect(app.readResource(uri)).rejects.toMatchObject({
        code: JsonRpcErrorCode.InvalidParams,
        data: { reason: 'invalid_arguments', uri },
      });
      const client = await app.connectClient({ era: 'envelope' });
      await expect(client.readResource({ uri })).rejects.toMatchObject({
        code: JsonRpcErrorCode.InvalidParams,
        data: { reason: 'invalid_arguments', uri },
      });
    },
  );
});
