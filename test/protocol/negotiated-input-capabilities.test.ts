// Input requests follow the protocol version a 2025 session negotiated, not only what its client declared: on a
// 2025-03-26 session, which has no elicitation, a client declaring the capability anyway is refused with Kiln's
// client_capability_missing (and is sent no elicitation/create); on 2025-11-25 the same client is asked.
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { stdio } from 'mcp-kiln';
import { createTestingModule } from 'mcp-kiln/testing';
import { describe, expect, it } from 'vitest';
import { capabilitiesForVersion } from '../../src/context/input-capabilities.js';
import { InputRequiredModule } from '../integration/fixtures/input-required/input-required.module.js';

async function greetOn(version: string) {
  const testing = await createTestingModule({ imports: [InputRequiredModule] }).compile();
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await testing.app.serve(stdio({ transport: serverTransport }));
  const asked: string[] = [];
  const client = new Client(
    { name: 'old-client', version: '1.0.0' },
    { capabilities: { elicitation: {} }, supportedProtocolVersions: [version] },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(request.method);
    return { action: 'accept', content: { name: 'Ada' } };
  });
  await client.connect(clientTransport);
  try {
    const result = await client.callTool({ name: 'fixture_greet', arguments: {} });
    return { result, asked };
  } finally {
    await client.close();
    await testing.close();
  }
}

describe('input requests on a 2025 session', () => {
  it('refuse elicitation on 2025-03-26 with client_capability_missing, sending nothing to the client', async () => {
    const { result, asked } = await greetOn('2025-03-26');
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.structuredContent ?? result.content)).toContain('client_capability_missing');
    expect(asked).toEqual([]);
  });

  it('ask a 2025-11-25 client that declared elicitation', async () => {
    const { result, asked } = await greetOn('2025-11-25');
    expect(result.isError).toBeFalsy();
    expect(asked).toEqual(['elicitation/create']);
  });
});

describe('capabilitiesForVersion', () => {
  it('keeps what each version carries', () => {
    const declared = { elicitation: { form: {}, url: {} }, sampling: { tools: {} }, roots: {} };
    expect(capabilitiesForVersion(declared, '2025-11-25')).toEqual(declared);
    expect(capabilitiesForVersion(declared, '2025-06-18')).toEqual({
      elicitation: { form: {} },
      sampling: {},
      roots: {},
    });
    expect(capabilitiesForVersion(declared, '2025-03-26')).toEqual({ sampling: {}, roots: {} });
    expect(capabilitiesForVersion(declared, undefined)).toEqual(declared);
  });
});
