// Runs the Nest application with Kiln's endpoint at /mcp: NEST_PLATFORM=express for the Express platform, Fastify
// otherwise; PORT picks the port (3020 by default).
import 'reflect-metadata';
import { startNestWithKiln } from './start.js';

const platform = process.env.NEST_PLATFORM === 'express' ? 'express' : 'fastify';
const running = await startNestWithKiln(platform, Number(process.env.PORT ?? 3020));
process.stdout.write(
  `Nest on ${platform} with Kiln.\n  MCP endpoint: ${running.url}/mcp\n  Nest route: ${running.url}/status\n`,
);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void running.close());
