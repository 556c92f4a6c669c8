// MCP_V8_PRETENURING: a created app turns V8's allocation-site pretenuring off for its process unless told `on` or
// the node command line names the flag itself. Checked in a real process, through V8's own view of where objects of
// a literal whose objects all survive are allocated (young, or straight into the old generation once pretenured).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { assertBuilt, PRETENURING_PROBE } from './helpers/built-servers.js';

const run = promisify(execFile);

/** How many of 100 fresh objects of the probe's literal are young, and how many it kept alive before (at most 1M). */
async function probe(
  setting: string | undefined,
  nodeFlags: readonly string[] = [],
): Promise<{ young: number; kept: number }> {
  assertBuilt(PRETENURING_PROBE);
  const env = { ...process.env, MCP_V8_PRETENURING: setting };
  if (setting === undefined) delete env.MCP_V8_PRETENURING;
  const { stdout } = await run(
    process.execPath,
    ['--allow-natives-syntax', '--max-semi-space-size=1', ...nodeFlags, PRETENURING_PROBE],
    {
      env,
      timeout: 60_000,
    },
  );
  return JSON.parse(stdout) as { young: number; kept: number };
}

describe('MCP_V8_PRETENURING', () => {
  it('is off by default: objects of a literal stay young however many of its objects survived', async () => {
    expect(await probe(undefined)).toEqual({ young: 100, kept: 1_000_000 });
  });

  it('on leaves V8 pretenuring the literal', async () => {
    const { young, kept } = await probe('on');
    expect(young).toBe(0);
    expect(kept).toBeLessThan(1_000_000);
  });

  it('leaves the flag to the node command line when it names it', async () => {
    const { young, kept } = await probe(undefined, ['--allocation-site-pretenuring']);
    expect(young).toBe(0);
    expect(kept).toBeLessThan(1_000_000);
  });
});
