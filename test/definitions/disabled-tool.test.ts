// @Disabled: the tool stays in the manifest with its reason, but is neither listed to clients nor callable.
import { Disabled, Tool } from 'mcp-kiln';
import { McpError } from 'mcp-kiln/errors';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bootApp, closeBootedApps, fixtureModule } from '../di/boot-app.js';

afterEach(closeBootedApps);

const Query = z.object({ query: z.string().describe('Words to search for') });

@Tool('legacy_search', { description: 'Searches the retired index.', input: Query })
@Disabled({ reason: 'The legacy index was retired.', hint: 'Use modern_search instead.', since: '0.2.0' })
class LegacySearchTool {
  handle() {
    return 'legacy results';
  }
}

@Tool('modern_search', { description: 'Searches the current index.', input: Query })
class ModernSearchTool {
  handle() {
    return 'modern results';
  }
}

describe('@Disabled tools', () => {
  it('keeps the tool in the manifest with its disabled metadata', async () => {
    const app = await bootApp(fixtureModule({ tools: [LegacySearchTool, ModernSearchTool] }));
    const manifest = app.runtime.manifestTools.map((t) => [t.name, t.disabled]);
    expect(manifest).toEqual([
      [
        'legacy_search',
        { reason: 'The legacy index was retired.', hint: 'Use modern_search instead.', since: '0.2.0' },
      ],
      ['modern_search', undefined],
    ]);
  });

  it('leaves it out of tools/list and of the callable tools', async () => {
    const app = await bootApp(fixtureModule({ tools: [LegacySearchTool, ModernSearchTool] }));
    expect(app.runtime.listings.tools.tools.map((t) => t.name)).toEqual(['modern_search']);
    expect([...app.runtime.tools.keys()]).toEqual(['modern_search']);
  });

  it('rejects a call to it as an unknown tool, while its neighbour still answers', async () => {
    const app = await bootApp(fixtureModule({ tools: [LegacySearchTool, ModernSearchTool] }));
    const refused = await app.callTool('legacy_search', { query: 'x' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(McpError);
    expect(refused).toMatchObject({ code: -32602, message: 'Unknown tool: legacy_search.' });
    expect((await app.callTool('modern_search', { query: 'x' })).content).toEqual([
      { type: 'text', text: 'modern results' },
    ]);
  });

  it('still counts toward the tools capability only when something is callable', async () => {
    const onlyDisabled = await bootApp(fixtureModule({ tools: [LegacySearchTool] }));
    expect(onlyDisabled.runtime.capabilities.tools).toBeUndefined();
    expect(onlyDisabled.runtime.manifestTools).toHaveLength(1);
  });
});
