// Guards, interceptors and exception filters over real stdio, in both eras, on the everything example's shelf tools:
// a guard refusal's wire error, the timing interceptor's log line, and a filter's declared reason.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVERYTHING_SERVER } from './helpers/built-servers.js';
import { type ConnectedServer, connectServer, waitForProcessLog } from './helpers/connected-server.js';
import { ERAS } from './helpers/eras.js';
import { contentTexts, failureEnvelope } from './helpers/tool-results.js';

describe.each(ERAS)('guards, interceptors and filters over stdio ($era era)', (eraCase) => {
  let server: ConnectedServer;

  beforeAll(async () => {
    server = await connectServer(EVERYTHING_SERVER, eraCase, { MCP_LOG_LEVEL: 'info' });
  });
  afterAll(() => server?.close());

  const readShelf = (shelf: number) => server.client.callTool({ name: 'kiln_read_shelf', arguments: { shelf } });
  const setMaintenance = (closed: boolean) =>
    server.client.callTool({ name: 'kiln_set_maintenance', arguments: { closed } });

  it('runs the handler inside the timing interceptor, which logs how long it took', async () => {
    expect(contentTexts(await readShelf(3))).toEqual(['Shelf 3 holds a book.']);
    const [line] = await waitForProcessLog(server, (entry) =>
      /^tool kiln_read_shelf took \d+ ms$/.test(`${entry.msg}`),
    );
    expect(line).toMatchObject({ level: 'info', requestId: expect.any(String) });
  });

  it('answers a domain error with the reason the filter maps it to, and the contract recovery hint', async () => {
    const error = failureEnvelope(await readShelf(0));
    expect(error).toEqual({
      code: -32001,
      message: 'Shelf 0 is empty.',
      data: {
        reason: 'shelf_empty',
        recovery: { hint: 'Pick another shelf between 1 and 9 and call again.' },
        requestId: expect.any(String),
      },
    });
  });

  it('refuses the call while the guard says no, with forbidden_by_guard, and lets it through again after', async () => {
    await setMaintenance(true);
    const error = failureEnvelope(await readShelf(3));
    expect(error).toEqual({
      code: -32006,
      message: 'Tool kiln_read_shelf was refused by MaintenanceGuard.',
      data: {
        reason: 'forbidden_by_guard',
        guard: 'MaintenanceGuard',
        recovery: {
          hint: 'Do not retry it unchanged: this caller may not make this call. Ask the server operator for access.',
        },
        requestId: expect.any(String),
      },
    });
    await setMaintenance(false);
    expect(contentTexts(await readShelf(3))).toEqual(['Shelf 3 holds a book.']);
  });
});
