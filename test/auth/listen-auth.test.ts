// How a protected HTTP host is configured: `listen()` (what createApp runs) reads MCP_AUTH_MODE and loads the auth
// module's settings from the environment, refusing to serve when one is missing; `http({ auth: { verifier } })` takes
// a verifier of your own, here one for opaque tokens such as the MCP conformance suite's.
import { createApp, listen, Module } from 'mcp-kiln';
import { InvalidTokenError } from 'mcp-kiln/auth';
import { KilnBootError } from 'mcp-kiln/errors';
import { http } from 'mcp-kiln/http';
import { startTestIssuer } from 'mcp-kiln/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthFixtureModule } from '../http/helpers/auth-fixture.module.js';
import { bearer, callWith, RESOURCE } from '../http/helpers/auth-server.js';
import { initializeRequest, post } from '../http/helpers/http-server.js';

@Module({ imports: [AuthFixtureModule] })
class ServedModule {}

const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

describe('listen() with MCP_AUTH_MODE', () => {
  it('serves HTTP behind bearer tokens configured from the environment', async () => {
    const issuer = await startTestIssuer({ audience: RESOURCE });
    closing.push(() => issuer.close());
    const env = { MCP_TRANSPORT_TYPE: 'http', MCP_HTTP_PORT: '0', MCP_LOG_LEVEL: 'error', ...issuer.oauthEnv() };
    const app = await createApp(ServedModule, { env, serve: false });
    closing.push(() => app.close());
    vi.spyOn(process.stdout, 'write').mockImplementationOnce(() => true);
    const serving = (await listen(app, { env, exitOnSignals: false })) as unknown as { endpointUrl: string };

    expect((await post(serving.endpointUrl, initializeRequest())).status).toBe(401);
    const token = await issuer.mintToken({ tenant: 'acme' });
    expect((await post(serving.endpointUrl, initializeRequest(), bearer(token))).status).toBe(200);
  });

  it('refuses to serve when a setting of the mode is missing, naming it', async () => {
    const env = { MCP_TRANSPORT_TYPE: 'http', MCP_HTTP_PORT: '0', MCP_LOG_LEVEL: 'error', MCP_AUTH_MODE: 'oauth' };
    const app = await createApp(ServedModule, { env, serve: false });
    closing.push(() => app.close());
    const refused = listen(app, { env, exitOnSignals: false });
    await expect(refused).rejects.toBeInstanceOf(KilnBootError);
    await expect(refused).rejects.toThrow(/OAUTH_ISSUER_URL is required[\s\S]*OAUTH_AUDIENCE is required/);
  });

  it('is checked by the app configuration too: an unknown mode stops boot', async () => {
    await expect(createApp(ServedModule, { env: { MCP_AUTH_MODE: 'saml' }, serve: false })).rejects.toThrow(
      'MCP_AUTH_MODE="saml" is not valid: expected one of none, jwt, oauth.',
    );
  });
});

describe('http({ auth: { verifier } })', () => {
  it('accepts opaque tokens a verifier of your own vouches for, scopes included', async () => {
    const verifier = {
      verify: async (token: string) => {
        if (!token.startsWith('mcp-conformance-scope-')) throw new InvalidTokenError('Unknown token.');
        const scope = token.endsWith('-full') ? 'notes:read notes:write' : 'notes:read';
        return { sub: 'suite', tid: 'conformance', scope, exp: Math.floor(Date.now() / 1000) + 60 };
      },
    };
    const app = await createApp(ServedModule, { env: { MCP_LOG_LEVEL: 'error' }, serve: false });
    closing.push(() => app.close());
    const serving = await app.serve(http({ config: { port: 0 }, auth: { verifier } }));
    const put = { key: 'k', value: 'v' };
    expect((await callWith(serving.endpointUrl, 'mcp-conformance-scope-low', 'notes_put', put)).status).toBe(403);
    expect((await callWith(serving.endpointUrl, 'mcp-conformance-scope-full', 'notes_put', put)).status).toBe(200);
    expect((await callWith(serving.endpointUrl, 'guessed', 'notes_put', put)).status).toBe(401);
  });
});
