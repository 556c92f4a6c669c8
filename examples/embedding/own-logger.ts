// Embedding example (docs/embedding.md): Kiln logging through the application's own pino logger.
import { createApp } from 'mcp-kiln';
import pino from 'pino';
import { AppModule } from './app.module.js';

const logger = pino({ level: 'info', base: { service: 'billing' } });
const app = await createApp(AppModule, { logger, serve: false });
await app.close();
