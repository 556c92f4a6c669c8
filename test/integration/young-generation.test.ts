// MCP_V8_BOOT_SEMI_SPACE: importing the runtime holds V8's young generation at its first size while the app boots,
// and serving lets it grow again; `grow`, or a node command line naming a semi-space flag, leaves V8 alone from the
// start; any other value stops the import. Checked in a real process through V8's own new-space size, with ~30 MB
// of surviving objects allocated while booting and again once serving (test/integration/fixtures/young-generation-probe).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { assertBuilt, YOUNG_GENERATION_PROBE } from './helpers/built-servers.js';

const run = promisify(execFile);

interface Probe {
  readonly afterImport: number;
  readonly booting: number;
  readonly served: number;
  readonly flags: readonly string[];
}

async function probe(env: Record<string, string>, nodeFlags: readonly string[] = []): Promise<Probe> {
  assertBuilt(YOUNG_GENERATION_PROBE);
  const { MCP_V8_BOOT_SEMI_SPACE: _, ...inherited } = process.env;
  const { stdout } = await run(process.execPath, [...nodeFlags, YOUNG_GENERATION_PROBE], {
    env: { ...inherited, ...env },
    timeout: 60_000,
  });
  return JSON.parse(stdout) as Probe;
}

describe('MCP_V8_BOOT_SEMI_SPACE', () => {
  it('holds the young generation at its first size while booting and lets it grow once the app serves', async () => {
    const { afterImport, booting, served, flags } = await probe({});
    expect(booting).toBe(afterImport);
    expect(served).toBeGreaterThanOrEqual(8 * afterImport);
    expect(flags).toEqual(['--semi-space-growth-factor=1', '--semi-space-growth-factor=2']);
  });

  it('grow leaves V8 to grow it while booting', async () => {
    const held = await probe({});
    const { booting, flags } = await probe({ MCP_V8_BOOT_SEMI_SPACE: 'grow' });
    expect(booting).toBeGreaterThanOrEqual(8 * held.booting);
    expect(flags).toEqual([]);
  });

  it('leaves the young generation to a node command line that sizes it', async () => {
    const held = await probe({});
    const { booting, flags } = await probe({}, ['--max-semi-space-size=16']);
    expect(booting).toBeGreaterThanOrEqual(8 * held.booting);
    expect(flags).toEqual([]);
  });

  it('stops the import with the values it accepts for any other setting', async () => {
    const failed = await probe({ MCP_V8_BOOT_SEMI_SPACE: 'small' }).then(
      () => undefined,
      (error: { stderr: string }) => error.stderr,
    );
    expect(failed).toContain('MCP_V8_BOOT_SEMI_SPACE must be one of fixed, grow (got "small").');
  });
});
