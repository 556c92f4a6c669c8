// The audit trail (MCP_AUDIT_LOG=on) over real HTTP with the official SDK client, both protocol versions: one JSON
// line per tools/call, resources/read and prompts/get in the file MCP_AUDIT_LOG_PATH names, refused calls included
// (rate limits, guards, unknown tools, tool errors), sensitive argument values masked by the app's redaction list and
// large ones summarised; the same records through a pino logger of the app's, and as OpenTelemetry log records when a
// logs SDK is registered. A sink that cannot write is logged and the calls go on.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { logs } from '@opentelemetry/api-logs';
import { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import { type Context, Errors, type KilnGuard, Module, Prompt, RateLimit, Resource, Tool, UseGuards } from 'mcp-kiln';
import { createTestingModule, type TestingApp } from 'mcp-kiln/testing';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { http } from '../../modules/http/index.js';
import { LOGGER } from '../../src/di/tokens.js';
import type { Logger } from '../../src/logging/index.js';
import { bootProblem, capturedLog, closeBootedApps, fixtureModule } from '../di/boot-app.js';

@RateLimit({ limit: 1, windowMs: 60_000, by: 'ip' })
@Tool('lookup_account', {
  description: 'Looks up an account.',
  input: z.object({
    account: z.string().describe('The account id'),
    apiKey: z.string().describe('The caller’s API key'),
    notes: z.string().optional().describe('Free text'),
  }),
})
class LookupAccount {
  handle(input: { account: string }) {
    return `account ${input.account}`;
  }
}

@Errors([
  {
    reason: 'account_frozen',
    code: -32003,
    when: 'The account is frozen',
    recovery: 'Ask support to unfreeze the account first.',
  },
] as const)
@Tool('close_account', { description: 'Closes an account.', input: z.object({ account: z.string().describe('Id') }) })
class CloseAccount {
  handle(_input: unknown, ctx: Context): string {
    throw (ctx as unknown as { fail: (reason: string, message: string) => Error }).fail('account_frozen', 'Frozen.');
  }
}

class NeverGuard implements KilnGuard {
  canActivate() {
    return false;
  }
}

@UseGuards(NeverGuard)
@Tool('wipe_everything', { description: 'Never allowed.', input: z.object({}) })
class WipeEverything {
  handle() {
    return 'wiped';
  }
}

@Resource('ledger://today', { name: 'ledger', description: 'Today’s ledger.', mimeType: 'text/plain' })
class Ledger {
  handle() {
    return 'balanced';
  }
}

@Prompt('audit_summary', { description: 'Summarize the audit.' })
class AuditSummary {
  handle() {
    return [{ role: 'user' as const, content: { type: 'text' as const, text: 'Summarize.' } }];
  }
}

@Module({
  tools: [LookupAccount, CloseAccount, WipeEverything],
  resources: [Ledger],
  prompts: [AuditSummary],
  providers: [NeverGuard],
})
class BankModule {}

const apps: TestingApp[] = [];
afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
  await closeBootedApps();
});

type Line = Record<string, unknown>;

async function exercise(testing: TestingApp, era: 'handshake' | 'envelope') {
  const serving = await testing.app.serve(http());
  const client = new Client(
    { name: 'auditor', version: '1.0.0' },
    era === 'envelope' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(serving.endpointUrl)));
  const args = { account: 'acc-1', apiKey: 'sk-live-123', notes: 'x'.repeat(1000) };
  await client.callTool({ name: 'lookup_account', arguments: args });
  await client.callTool({ name: 'lookup_account', arguments: args }).catch(() => undefined);
  await client.callTool({ name: 'close_account', arguments: { account: 'acc-1' } });
  await client.callTool({ name: 'wipe_everything', arguments: {} });
  await client.callTool({ name: 'no_such_tool', arguments: {} }).catch(() => undefined);
  await client.readResource({ uri: 'ledger://today' });
  await client.getPrompt({ name: 'audit_summary' });
  await client.close();
  await serving.close();
}

function expectTrail(lines: readonly Line[]) {
  const byTarget = (target: string) => lines.filter((line) => line.target === target);
  const [first, limited] = byTarget('lookup_account');
  expect(first).toMatchObject({
    method: 'tools/call',
    outcome: 'ok',
    tenantId: 'default',
    address: expect.stringMatching(/127\.0\.0\.1/),
    arguments: { account: 'acc-1', apiKey: '[REDACTED]', notes: '[1002 bytes]' },
  });
  expect(first?.time).toMatch(/^\d{4}-\d\d-\d\dT/);
  expect(typeof first?.requestId).toBe('string');
  expect(typeof first?.durationMs).toBe('number');
  expect(JSON.stringify(lines)).not.toContain('sk-live-123');
  expect(limited).toMatchObject({ outcome: 'error', reason: 'rate_limited' });
  expect(byTarget('close_account')[0]).toMatchObject({ outcome: 'tool_error', reason: 'account_frozen' });
  expect(byTarget('wipe_everything')[0]).toMatchObject({ outcome: 'tool_error', reason: 'forbidden_by_guard' });
  expect(byTarget('no_such_tool')[0]).toMatchObject({ outcome: 'error', reason: 'unknown_tool' });
  expect(byTarget('ledger://today')[0]).toMatchObject({ method: 'resources/read', outcome: 'ok' });
  expect(byTarget('ledger://today')[0]?.arguments).toBeUndefined();
  expect(byTarget('audit_summary')[0]).toMatchObject({ method: 'prompts/get', outcome: 'ok' });
  expect(lines).toHaveLength(7);
}

describe.each(['handshake', 'envelope'] as const)('the audit trail (%s era)', (era) => {
  it('writes one line per call to MCP_AUDIT_LOG_PATH, refused calls included, secrets masked', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'kiln-audit-')), 'nested', 'audit.jsonl');
    const testing = await createTestingModule({ imports: [BankModule] }).compile({
      env: { MCP_TRANSPORT_TYPE: 'http', MCP_HTTP_PORT: '0', MCP_AUDIT_LOG: 'on', MCP_AUDIT_LOG_PATH: path },
    });
    await exercise(testing, era);
    // Closing flushes the trail's own file.
    await testing.close();
    const lines = readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Line);
    expect(lines.every((line) => line.event === 'mcp.audit' && line.level === 30)).toBe(true);
    expectTrail(lines);
  });
});

describe('the audit trail through the app’s own sinks', () => {
  it('writes through a pino logger the app passes', async () => {
    const lines: Line[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as Line);
        done();
      },
    });
    const testing = await createTestingModule({ imports: [BankModule] }).compile({
      env: { MCP_TRANSPORT_TYPE: 'http', MCP_HTTP_PORT: '0', MCP_AUDIT_LOG: 'on' },
      audit: { logger: pino({ base: null }, sink) },
    });
    apps.push(testing);
    await exercise(testing, 'envelope');
    expect(lines.every((line) => line.msg === 'mcp.audit')).toBe(true);
    expectTrail(lines);
  });

  it('emits each record as an OpenTelemetry log record when a logs SDK is registered', async () => {
    const exporter = new InMemoryLogRecordExporter();
    const provider = new LoggerProvider({ processors: [new SimpleLogRecordProcessor({ exporter })] });
    logs.setGlobalLoggerProvider(provider);
    try {
      const path = join(mkdtempSync(join(tmpdir(), 'kiln-audit-')), 'audit.jsonl');
      const testing = await createTestingModule({ imports: [BankModule] }).compile({
        env: { MCP_TRANSPORT_TYPE: 'http', MCP_HTTP_PORT: '0', MCP_AUDIT_LOG: 'on', MCP_AUDIT_LOG_PATH: path },
      });
      apps.push(testing);
      await exercise(testing, 'handshake');
      const records = exporter.getFinishedLogRecords();
      expect(records).toHaveLength(7);
      const limited = records.find((record) => record.attributes['kiln.error.reason'] === 'rate_limited');
      expect(limited?.body).toBe('mcp.audit');
      expect(limited?.attributes).toMatchObject({
        'mcp.method.name': 'tools/call',
        'kiln.audit.target': 'lookup_account',
        'kiln.outcome': 'error',
        'kiln.tenant.id': 'default',
      });
      expect(String(limited?.attributes['kiln.audit.arguments'])).toContain('[REDACTED]');
    } finally {
      await provider.shutdown();
      logs.disable();
    }
  });
});

describe('an audit sink that fails', () => {
  it('is logged, and every call still gets its answer', async () => {
    // A path below a regular file: the directory can never be created.
    const file = join(mkdtempSync(join(tmpdir(), 'kiln-audit-')), 'not-a-dir');
    await import('node:fs/promises').then(({ writeFile }) => writeFile(file, 'x'));
    const captured = capturedLog();
    const builder = createTestingModule({ imports: [BankModule] });
    builder.overrideProvider(LOGGER).useValue(captured.options.logger as Logger);
    const testing = await builder.compile({
      env: {
        MCP_TRANSPORT_TYPE: 'http',
        MCP_HTTP_PORT: '0',
        MCP_AUDIT_LOG: 'on',
        MCP_AUDIT_LOG_PATH: join(file, 'audit.jsonl'),
      },
    });
    apps.push(testing);
    const serving = await testing.app.serve(http());
    const client = new Client({ name: 'c', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(serving.endpointUrl)));
    const answers = [
      await client.callTool({ name: 'lookup_account', arguments: { account: 'a', apiKey: 'k' } }),
      await client.readResource({ uri: 'ledger://today' }),
      await client.getPrompt({ name: 'audit_summary' }),
    ];
    expect(answers).toHaveLength(3);
    await expect
      .poll(() =>
        captured.lines.filter((line) => line.msg === 'The audit trail could not write a record; the call went on'),
      )
      .not.toHaveLength(0);
    await client.close();
    await serving.close();
  });

  it('with nowhere to write is a boot problem', async () => {
    const problem = await bootProblem(fixtureModule({ tools: [CloseAccount] }), { env: { MCP_AUDIT_LOG: 'on' } });
    expect(problem).toMatch(/^MCP_AUDIT_LOG=on needs somewhere to write: set MCP_AUDIT_LOG_PATH/);
  });
});
