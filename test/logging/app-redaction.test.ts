// MCP_LOG_REDACT_FIELDS extends the masked fields for one app: what a handler logs with such a field is masked in
// the process log, while an app without the setting (and the built-in list) is unchanged.

import { type Context, LOGGER, Module, Tool } from 'mcp-kiln';
import { createTestingModule } from 'mcp-kiln/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createLogger } from '../../src/logging/index.js';
import { captureDestination } from './capture-destination.js';

@Tool('charge_card', {
  description: 'Logs the payment it would make, with the card PIN among the fields it logs.',
  input: z.object({ pin: z.string().describe('The card PIN.') }),
  output: z.object({ ok: z.boolean().describe('Always true.') }),
})
class ChargeCard {
  handle(input: { pin: string }, ctx: Context) {
    ctx.log.info('Charging', { cardPin: input.pin, amount: 12, password: 'hunter2' });
    return { ok: true };
  }
}

@Module({ tools: [ChargeCard] })
class PaymentsModule {}

async function loggedFields(env: Record<string, string>): Promise<Record<string, unknown> | undefined> {
  const destination = captureDestination();
  const app = await createTestingModule({ imports: [PaymentsModule] })
    .overrideProvider(LOGGER)
    .useValue(createLogger({ level: 'debug', destination }))
    .compile({ env: { MCP_LOG_LEVEL: 'debug', ...env } });
  await app.callTool('charge_card', { pin: '1234' });
  await app.close();
  return destination.lines.find((line) => line.msg === 'Charging');
}

describe('MCP_LOG_REDACT_FIELDS', () => {
  it('masks the configured fields in this app only, on top of the built-in list', async () => {
    expect(await loggedFields({ MCP_LOG_REDACT_FIELDS: 'pin, iban' })).toMatchObject({
      cardPin: '[REDACTED]',
      password: '[REDACTED]',
      amount: 12,
    });
    expect(await loggedFields({})).toMatchObject({ cardPin: '1234', password: '[REDACTED]' });
  });
});
