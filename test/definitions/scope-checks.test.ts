// Boot-time checks of @Scopes: scope names go verbatim into WWW-Authenticate challenges and the protected resource
// metadata, so a name outside the OAuth scope-token grammar, or a decorator naming none, stops boot naming the
// definition. Valid requirements are compiled onto tools, resources and prompts and listed in the catalogue.
import { Prompt, Resource, Scopes, Tool } from 'mcp-kiln';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bootApp, bootProblems, closeBootedApps, fixtureModule } from '../di/boot-app.js';

afterEach(closeBootedApps);

function scopedTool(name: string, scopes: unknown[]) {
  @Tool(name, { description: 'Does one scoped thing for the tests.', input: z.object({}) })
  class ScopedTool {
    handle() {
      return 'done';
    }
  }
  (Scopes as (...args: unknown[]) => (target: object) => void)(...scopes)(ScopedTool);
  return ScopedTool;
}

@Resource('scoped://doc', { name: 'scoped_doc', description: 'A document behind a scope.' })
@Scopes({ anyOf: ['docs:read', 'docs:admin'] })
class ScopedResource {
  handle() {
    return 'doc';
  }
}

@Prompt('scoped_prompt', { description: 'A prompt behind a scope.' })
@Scopes('prompts:use')
class ScopedPrompt {
  handle() {
    return 'prompt';
  }
}

describe('@Scopes at boot', () => {
  it('compiles each form onto its definition, without duplicates, and lists every scope in the catalogue', async () => {
    const valid = await bootApp(
      fixtureModule({
        tools: [scopedTool('all_of', ['b:write', 'a:read', 'b:write'])],
        resources: [ScopedResource],
        prompts: [ScopedPrompt],
      }),
    );
    expect(valid.runtime.tools.get('all_of')?.scopes).toEqual({ mode: 'all', scopes: ['b:write', 'a:read'] });
    expect(valid.runtime.resources[0]?.scopes).toEqual({ mode: 'any', scopes: ['docs:read', 'docs:admin'] });
    const catalog = valid.catalog();
    expect(catalog.scopes).toEqual(['a:read', 'b:write', 'docs:admin', 'docs:read', 'prompts:use']);
    expect(catalog.tools[0]?.scopes).toEqual({ mode: 'all', scopes: ['b:write', 'a:read'] });
    expect(catalog.prompts[0]?.scopes).toEqual({ mode: 'all', scopes: ['prompts:use'] });
  });

  it('refuses a @Scopes naming no scope', async () => {
    expect(await bootProblems(fixtureModule({ tools: [scopedTool('open_tool', [])] }))).toEqual([
      'Tool open_tool (ScopedTool): @Scopes lists no scope; name at least one, or remove the decorator.',
    ]);
  });

  it('refuses scope names with spaces, quotes or backslashes, naming them', async () => {
    const problems = await bootProblems(
      fixtureModule({ tools: [scopedTool('bad_scopes', ['ok', 'two words', 'q"uote'])] }),
    );
    expect(problems).toEqual([
      'Tool bad_scopes (ScopedTool): @Scopes has invalid scope names "two words", "q\\"uote": a scope is printable ' +
        'ASCII without spaces, double quotes or backslashes.',
    ]);
  });
});
