// The tool through the real module wiring, with and without its service replaced.
import { createTestingModule } from 'mcp-kiln/testing';
import { describe, expect, it } from 'vitest';
import { AppModule } from './app.module.js';
import { GreetingService } from './greeting.service.js';

describe('say_hello', () => {
  it('greets through the injected service', async () => {
    const app = await createTestingModule({ imports: [AppModule] }).compile();

    const result = await app.callTool('say_hello', { name: 'Ada' });

    expect(result.structuredContent).toEqual({ greeting: 'Hello, Ada!' });
    expect(result.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
    await app.close();
  });

  it('uses a replaced service', async () => {
    const app = await createTestingModule({ imports: [AppModule] })
      .overrideProvider(GreetingService)
      .useValue({ greet: (name: string) => `Hi ${name}` })
      .compile();

    const result = await app.callTool('say_hello', { name: 'Grace' });

    expect(result.structuredContent).toEqual({ greeting: 'Hi Grace' });
    await app.close();
  });

  it('refuses an empty name before the handler runs', async () => {
    const app = await createTestingModule({ imports: [AppModule] }).compile();

    const result = await app.callTool('say_hello', { name: '' });

    expect(result.isError).toBe(true);
    await app.close();
  });
});
