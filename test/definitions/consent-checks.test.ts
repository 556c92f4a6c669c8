// Boot-time checks of @RequiresConsent: a gate missing its question, with a target that is not a function, a
// contentHash naming no method, or a TTL that is not a positive number stops boot with a message naming the tool.
import { RequiresConsent, Tool } from 'mcp-kiln';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ConsentMetadata } from '../../decorators/requires-consent.js';
import type { CompiledTool } from '../../src/definitions/compiled-tool.js';
import { bootApp, bootProblems, closeBootedApps, fixtureModule } from '../di/boot-app.js';

afterEach(closeBootedApps);

const Input = z.object({ id: z.string().describe('Item id') });

/** A tool behind a gate declared with `options` as they arrive at runtime, whatever their static type. */
function gatedTool(options: Partial<Record<keyof ConsentMetadata, unknown>>) {
  @Tool('remove_item', { description: 'Removes an item once the user confirms.', input: Input })
  class RemoveItemTool {
    handle() {
      return 'removed';
    }
    hashOf() {
      return 'hash';
    }
  }
  RequiresConsent(options as unknown as ConsentMetadata)(RemoveItemTool);
  return RemoveItemTool;
}

const target = (input: unknown) => (input as { id: string }).id;
const WHERE = 'Tool remove_item (RemoveItemTool): @RequiresConsent';

describe('@RequiresConsent at boot', () => {
  it('compiles a valid gate, with the default TTL of 600 seconds', async () => {
    const app = await bootApp(
      fixtureModule({ tools: [gatedTool({ message: 'Remove it?', target, contentHash: 'hashOf' })] }),
    );
    const consent = (app.runtime.tools.get('remove_item') as CompiledTool).consent;
    expect(consent?.ttlSeconds).toBe(600);
    expect(consent?.message({ id: 'x' })).toBe('Remove it?');
    expect(consent?.target({ id: 'x' })).toBe('x');
  });

  it('leaves a tool without the decorator ungated', async () => {
    @Tool('plain_item', { description: 'Reads an item.', input: Input })
    class PlainTool {
      handle() {
        return 'read';
      }
    }
    const app = await bootApp(fixtureModule({ tools: [PlainTool] }));
    expect((app.runtime.tools.get('plain_item') as CompiledTool).consent).toBeUndefined();
  });

  it.each([
    ['no message', { target }, 'message is missing'],
    ['a blank message', { message: '  ', target }, 'message is missing'],
    ['a target that is not a function', { message: 'Remove?', target: 'id' }, 'target must be a function'],
    [
      'a contentHash naming no method',
      { message: 'Remove?', target, contentHash: 'hashof' },
      "contentHash 'hashof' names no method of RemoveItemTool",
    ],
    [
      'a contentHash of another type',
      { message: 'Remove?', target, contentHash: 42 },
      'contentHash must be a function',
    ],
    [
      'a zero TTL',
      { message: 'Remove?', target, ttlSeconds: 0 },
      'ttlSeconds must be a positive number of seconds, not 0',
    ],
  ])('rejects %s', async (_label, options, problem) => {
    const problems = await bootProblems(fixtureModule({ tools: [gatedTool(options)] }));
    expect(problems).toEqual([expect.stringContaining(`${WHERE} ${problem}`)]);
  });

  it('reports every problem of one gate together', async () => {
    const problems = await bootProblems(fixtureModule({ tools: [gatedTool({ target: null, ttlSeconds: -1 })] }));
    expect(problems).toHaveLength(3);
  });
});
