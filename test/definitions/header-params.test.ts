// Header parameters (x-mcp-header, SEP-2243) at boot: found in the advertised input schema, zod or raw, and a
// designation conforming clients would refuse (they drop the whole tool) stops boot instead of hiding the tool.
import { headerParam, InputAlias, Tool } from 'mcp-kiln';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { scanHeaderParams } from '../../src/definitions/header-params.js';
import { prepareArguments } from '../../src/pipeline/input/index.js';
import { bootApp, bootProblem, closeBootedApps, fixtureModule } from '../di/boot-app.js';
import { compileForTest } from '../pipeline/input/compile-for-test.js';
import { expectRejected } from '../pipeline/input/expect-prepared.js';

afterEach(closeBootedApps);

describe('scanHeaderParams', () => {
  it('finds designations at the root and through nested properties', () => {
    const { params, problems } = scanHeaderParams({
      type: 'object',
      properties: {
        region: { type: 'string', 'x-mcp-header': 'Region' },
        routing: {
          type: 'object',
          properties: { shard: { type: 'integer', 'x-mcp-header': 'Shard-Id' } },
        },
        dryRun: { type: 'boolean', 'x-mcp-header': 'Dry-Run' },
      },
    });
    expect(problems).toEqual([]);
    expect(params).toEqual([
      { path: ['region'], header: 'Region', type: 'string' },
      { path: ['routing', 'shard'], header: 'Shard-Id', type: 'integer' },
      { path: ['dryRun'], header: 'Dry-Run', type: 'boolean' },
    ]);
  });

  it.each([
    [
      'under items',
      { tags: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Tag' } } },
      'x-mcp-header at tags.items is not reachable through properties alone (not under items, composition, conditionals, $defs or a union root)',
    ],
    [
      'on a number',
      { ratio: { type: 'number', 'x-mcp-header': 'Ratio' } },
      'x-mcp-header of ratio is on a number property; only string, integer and boolean properties may be header parameters',
    ],
    [
      'a name that is no HTTP token',
      { region: { type: 'string', 'x-mcp-header': 'My Region' } },
      'x-mcp-header of region must be a non-empty HTTP token (no spaces or delimiters)',
    ],
    [
      'a name used twice, in another case',
      { a: { type: 'string', 'x-mcp-header': 'Region' }, b: { type: 'string', 'x-mcp-header': 'region' } },
      "x-mcp-header 'region' of b repeats 'Region' (names are case-insensitive)",
    ],
  ])('reports a designation %s', (_label, properties, problem) => {
    expect(scanHeaderParams({ type: 'object', properties }).problems).toEqual([problem]);
  });

  it('reports a designation inside a union root', () => {
    const { problems } = scanHeaderParams({
      type: 'object',
      oneOf: [{ type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } }],
    });
    expect(problems).toEqual([
      'x-mcp-header at oneOf[0].region is not reachable through properties alone (not under items, composition, conditionals, $defs or a union root)',
    ]);
  });
});

describe('header parameters on a tool', () => {
  it('come out of headerParam() and .meta() alike, and reach the compiled tool', async () => {
    @Tool('route_lookup', {
      description: 'Looks a record up in one region.',
      input: z.object({
        region: headerParam(z.string(), 'Region').describe('Deployment region.'),
        shard: z.int().meta({ 'x-mcp-header': 'Shard' }).optional().describe('Shard.'),
      }),
    })
    class RouteLookupTool {
      handle() {
        return 'found';
      }
    }
    const app = await bootApp(fixtureModule({ tools: [RouteLookupTool] }));
    const tool = app.runtime.tools.get('route_lookup');
    expect(tool?.definition.inputSchema.properties).toMatchObject({
      region: { type: 'string', description: 'Deployment region.', 'x-mcp-header': 'Region' },
      shard: { type: 'integer', 'x-mcp-header': 'Shard' },
    });
    expect(tool?.headerParams.map((param) => param.header)).toEqual(['Region', 'Shard']);
  });

  it('stop boot when clients would refuse them', async () => {
    @Tool('route_lookup', {
      description: 'Looks a record up.',
      input: z.object({ ratio: headerParam(z.number(), 'Ratio').describe('A ratio.') }),
    })
    class RatioTool {
      handle() {
        return 'found';
      }
    }
    expect(await bootProblem(fixtureModule({ tools: [RatioTool] }))).toBe(
      'Tool route_lookup (RatioTool): x-mcp-header of ratio is on a number property; only string, integer and boolean properties may be header parameters.',
    );
  });

  it('are never the target of an alias: declaring one stops boot', async () => {
    @Tool('route_lookup', {
      description: 'Looks a record up.',
      input: z.object({ region: headerParam(z.string(), 'Region').describe('Region.') }),
    })
    @InputAlias({ zone: 'region' })
    class AliasedTool {
      handle() {
        return 'found';
      }
    }
    expect(await bootProblem(fixtureModule({ tools: [AliasedTool] }))).toMatch(
      /Alias "zone" names the header parameter "region", which is never rewritten/,
    );
  });

  it('are never the target of a case-style rewrite either: the key the header mirrored stays as sent', () => {
    const compiled = compileForTest(z.object({ region: headerParam(z.string(), 'Region'), maxResults: z.number() }));
    const rejection = expectRejected(prepareArguments(compiled, { Region: 'eu', max_results: 2 }));
    expect(rejection.issues).toEqual([
      expect.objectContaining({ path: ['region'] }),
      expect.objectContaining({ code: 'unrecognized_keys', keys: ['Region'] }),
    ]);
    expect(rejection.notes).toContain('Validated max_results as maxResults.');
  });
});
