// TestingApp.connectClient({ auth }): the client acts as a principal. Every message the server receives carries the
// AuthInfo a bearer-token verifier would produce, so handlers see ctx.auth and the token's tenant on both eras; a
// principal without a tenant has none (fail closed), as a real token without a tenant claim would.
import { type HandlerContext, Module, Tool } from 'mcp-kiln';
import { createTestingModule, type TestingApp } from 'mcp-kiln/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

const Who = z.object({
  auth: z.unknown().describe('ctx.auth as the handler saw it'),
  tenantId: z.string().optional().describe('ctx.tenantId as the handler saw it'),
  stored: z.string().nullable().describe('What this tenant stored before, if anything'),
});

@Tool('fixture_whoami', {
  description: 'Reports who the request runs as, and remembers the last caller per tenant.',
  input: z.object({}),
  output: Who,
})
class WhoAmITool {
  async handle(_input: Record<string, never>, ctx: HandlerContext) {
    const stored = await ctx.state.get('last-caller', z.string());
    await ctx.state.set('last-caller', ctx.auth?.clientId ?? 'nobody');
    return { auth: ctx.auth ?? null, tenantId: ctx.tenantId, stored };
  }
}

@Module({ tools: [WhoAmITool] })
class WhoAmIModule {}

let app: TestingApp;
beforeAll(async () => {
  app = await createTestingModule({ imports: [WhoAmIModule] }).compile();
});
afterAll(() => app.close());

async function whoami(options: Parameters<TestingApp['connectClient']>[0]) {
  const client = await app.connectClient(options);
  return (await client.callTool({ name: 'fixture_whoami', arguments: {} })).structuredContent;
}

describe.each(['handshake', 'envelope'] as const)('connectClient({ auth }), %s era', (era) => {
  it('runs the handler as the principal: client, subject, scopes and tenant', async () => {
    const principal = { clientId: 'client-a', subject: 'alice', tenantId: `acme-${era}`, scopes: ['notes:read'] };
    expect(await whoami({ era, auth: principal })).toEqual({
      auth: { clientId: 'client-a', subject: 'alice', scopes: ['notes:read'], tenantId: `acme-${era}` },
      tenantId: `acme-${era}`,
      stored: null,
    });
  });

  it('gives a principal without a tenant none: ctx.state refuses it rather than share a default tenant', async () => {
    const client = await app.connectClient({ era, auth: { clientId: 'client-b' } });
    const result = await client.callTool({ name: 'fixture_whoami', arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: { data: { reason: 'state_tenant_missing' } } });
  });

  it('keeps each tenant’s ctx.state apart', async () => {
    await whoami({ era, auth: { clientId: 'first', tenantId: `isolated-${era}` } });
    expect(await whoami({ era, auth: { clientId: 'second', tenantId: `isolated-${era}` } })).toMatchObject({
      stored: 'first',
    });
    expect(await whoami({ era, auth: { clientId: 'third', tenantId: `elsewhere-${era}` } })).toMatchObject({
      stored: null,
    });
  });
});

describe('connectClient() without auth', () => {
  it('is unauthenticated: no ctx.auth, tenant default', async () => {
    expect(await whoami({ era: 'envelope' })).toMatchObject({ auth: null, tenantId: 'default' });
  });
});
