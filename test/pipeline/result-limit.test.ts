// maxResultBytes through the official SDK client on both protocol versions: content[] over a tool's limit is cut
// (whole blocks while they fit, then the text of the next at a character boundary) and a closing block says so, with
// `_meta["mcp-kiln/truncated"]` giving the size and the limit; structuredContent is sent whole; createApp's limit
// applies to tools without their own; a limit out of range is a boot problem naming the class.
import { Module, Tool } from 'mcp-kiln';
import { createTestingModule, type TestingApp } from 'mcp-kiln/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bootProblems, closeBootedApps, fixtureModule } from '../di/boot-app.js';

const Size = z.object({ bytes: z.number().int().min(0).max(1_000_000).describe('How many bytes of text to return') });

@Tool('dump_log', {
  description: 'Returns a log of the given size as text, in lines of ten characters.',
  input: Size,
  maxResultBytes: 2048,
})
class DumpLog {
  handle(input: z.output<typeof Size>) {
    // "é" is two bytes: a cut must not split it.
    return 'é'.repeat(input.bytes / 2);
  }
}

@Tool('dump_table', {
  description: 'Returns rows as structured output and their text rendering.',
  input: Size,
  output: z.object({ rows: z.array(z.string().describe('A row')).describe('Every row') }),
})
class DumpTable {
  handle(input: z.output<typeof Size>) {
    return {
      rows: Array.from({ length: Math.ceil(input.bytes / 100) }, (_, index) => `row ${index} `.padEnd(100, '.')),
    };
  }
}

@Module({ tools: [DumpLog, DumpTable] })
class DumpModule {}

const apps: TestingApp[] = [];
afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
  await closeBootedApps();
});

const bytesOf = (content: unknown[]) =>
  content.reduce<number>((sum, block) => sum + Buffer.byteLength(JSON.stringify(block)), 0);

describe.each(['handshake', 'envelope'] as const)('maxResultBytes (%s era)', (era) => {
  async function client(options: { maxResultBytes?: number } = {}) {
    const app = await createTestingModule({ imports: [DumpModule] }).compile(options);
    apps.push(app);
    return app.connectClient({ era });
  }

  it('cuts content over the tool’s limit and says so, and leaves a result within it alone', async () => {
    const connected = await client();
    const big = await connected.callTool({ name: 'dump_log', arguments: { bytes: 100_000 } });
    const content = big.content as { type: string; text: string }[];
    const notice = content.at(-1)?.text ?? '';
    expect(notice).toMatch(
      /^\[Truncated: dump_log returned \d+ bytes of content; the first \d+ are shown \(the limit is 2048\)/,
    );
    expect(bytesOf(content.slice(0, -1))).toBeLessThanOrEqual(2048);
    expect(content[0]?.text).toMatch(/^é+$/);
    expect(big._meta).toMatchObject({ 'mcp-kiln/truncated': { bytes: expect.any(Number), limit: 2048 } });

    const small = await connected.callTool({ name: 'dump_log', arguments: { bytes: 200 } });
    expect(small.content).toEqual([{ type: 'text', text: 'é'.repeat(100) }]);
    expect(small._meta?.['mcp-kiln/truncated']).toBeUndefined();
  });

  it('applies createApp’s limit to tools without their own, and sends structuredContent whole', async () => {
    const connected = await client({ maxResultBytes: 4096 });
    const table = await connected.callTool({ name: 'dump_table', arguments: { bytes: 50_000 } });
    expect(bytesOf((table.content as unknown[]).slice(0, -1))).toBeLessThanOrEqual(4096);
    expect((table.structuredContent as { rows: string[] }).rows).toHaveLength(500);
    // The tool's own limit wins over the app's.
    const log = await connected.callTool({ name: 'dump_log', arguments: { bytes: 100_000 } });
    expect(log._meta).toMatchObject({ 'mcp-kiln/truncated': { limit: 2048 } });
  });
});

describe('maxResultBytes at boot', () => {
  it('refuses a limit out of range, naming the class', async () => {
    @Tool('tiny_tool', { description: 'Returns nothing much.', input: z.object({}), maxResultBytes: 10 })
    class TinyTool {
      handle() {
        return 'x';
      }
    }
    expect(await bootProblems(fixtureModule({ tools: [TinyTool] }))).toEqual([
      'Tool tiny_tool (TinyTool) declares maxResultBytes 10: use an integer from 1024 to 67108864.',
    ]);
  });
});
