// The MCP Apps extension (io.modelcontextprotocol/ui) as official SDK clients see it on both eras: the server's
// extension capability, tools/list with `_meta.ui` only for a client that declared the extension with the view MIME
// type (a text-only listing otherwise), the view through resources/list and resources/read, and the view's callback.
import { Client, type ClientCapabilities, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { ProtocolEra } from 'mcp-kiln';
import { createTestingModule, type TestingApp } from 'mcp-kiln/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TallyAppsModule } from '../../examples/apps/apps.module.js';
import { http } from '../../modules/http/index.js';

const UI = 'io.modelcontextprotocol/ui';
const MIME = 'text/html;profile=mcp-app';
const BOARD = 'ui://tally/board';
const RENDERS_APPS: ClientCapabilities = { extensions: { [UI]: { mimeTypes: [MIME] } } };

describe.each<ProtocolEra>(['handshake', 'envelope'])('MCP Apps, %s era', (era) => {
  let app: TestingApp;
  let apps: Client;
  let textOnly: Client;

  beforeAll(async () => {
    app = await createTestingModule({ imports: [TallyAppsModule] }).compile();
    apps = await app.connectClient({ era, capabilities: RENDERS_APPS });
    textOnly = await app.connectClient({ era });
  });
  afterAll(() => app.close());

  it('declares the extension, and resources for the view', () => {
    expect(apps.getServerCapabilities()).toMatchObject({ extensions: { [UI]: {} }, resources: {} });
  });

  it('shows a client that renders views each tool with its view and visibility', async () => {
    const { tools } = await apps.listTools();
    expect(tools.map((tool) => [tool.name, tool._meta])).toEqual([
      ['tally_show_board', { ui: { resourceUri: BOARD }, 'ui/resourceUri': BOARD }],
      ['tally_increment', { ui: { resourceUri: BOARD, visibility: ['app'] }, 'ui/resourceUri': BOARD }],
    ]);
  });

  it('shows a text-only client the tools without views, and not the tool only a view calls', async () => {
    const { tools } = await textOnly.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['tally_show_board']);
    expect(tools[0]).not.toHaveProperty('_meta');
  });

  it('takes an extension declared without the view MIME type as no support', async () => {
    const bare = await app.connectClient({ era, capabilities: { extensions: { [UI]: {} } } });
    const { tools } = await bare.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['tally_show_board']);
  });

  it('lists the view and reads it as a whole HTML document with its CSP and permissions', async () => {
    const ui = {
      csp: { connectDomains: [], resourceDomains: [] },
      permissions: { clipboardWrite: {} },
      prefersBorder: true,
    };
    const { resources } = await textOnly.listResources();
    expect(resources).toContainEqual(
      expect.objectContaining({ uri: BOARD, name: 'tally-board', mimeType: MIME, _meta: { ui } }),
    );
    const { contents } = await apps.readResource({ uri: BOARD });
    expect(contents).toEqual([
      { uri: BOARD, mimeType: MIME, text: expect.stringMatching(/^<!DOCTYPE html>/), _meta: { ui } },
    ]);
  });

  it('answers the view calling back (tally_increment), and the board shows the new count', async () => {
    const added = await apps.callTool({ name: 'tally_increment', arguments: { name: `${era}-visits` } });
    expect(added.structuredContent).toEqual({ name: `${era}-visits`, count: 1 });
    const board = await textOnly.callTool({ name: 'tally_show_board', arguments: {} });
    expect(board.structuredContent).toMatchObject({
      tallies: expect.arrayContaining([{ name: `${era}-visits`, count: 1 }]),
    });
    // The text fallback carries the same counts.
    expect(board.content).toContainEqual({ type: 'text', text: expect.stringContaining(`- ${era}-visits: 1`) });
  });
});

describe('MCP Apps through the testing kit', () => {
  it('reads a view directly, as resources/read answers it', async () => {
    const app = await createTestingModule({ imports: [TallyAppsModule] }).compile();
    const { contents } = await app.readResource(BOARD);
    expect(contents[0]).toMatchObject({ uri: BOARD, mimeType: MIME, _meta: { ui: { prefersBorder: true } } });
    await app.close();
  });
});

describe('MCP Apps for a 2025 client served per request (stateless HTTP)', () => {
  it('shows the views, since that client carries no capabilities to check', async () => {
    const app = await createTestingModule({ imports: [TallyAppsModule] }).compile({
      env: { MCP_TRANSPORT_TYPE: 'http', MCP_HTTP_PORT: '0', MCP_SESSION_MODE: 'stateless', MCP_LOG_LEVEL: 'error' },
    });
    const serving = await app.app.serve(http());
    const client = new Client({ name: 'stateless-2025', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(serving.endpointUrl)));
    const { tools } = await client.listTools();
    expect(tools.map((tool) => [tool.name, (tool._meta?.ui as { resourceUri?: string })?.resourceUri])).toEqual([
      ['tally_show_board', BOARD],
      ['tally_increment', BOARD],
    ]);
    await client.close();
    await serving.close();
    await app.close();
  });
});
