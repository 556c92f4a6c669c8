// Nest and Kiln in one server, on either Nest platform: the Nest application is created first, its VisitsService is
// handed to Kiln's module, and Kiln's endpoint is mounted on Nest's HTTP server: the kilnFastify plugin on the Fastify
// adapter's instance, or nodeHandler as Express middleware (Nest's JSON body parser runs first; the handler takes
// the parsed body).
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp, type KilnApp } from 'mcp-kiln';
import { kilnFastify, nodeHandler } from 'mcp-kiln/http';
import { GreetModule } from './greet.module.js';
import { NestAppModule } from './nest-app.module.js';
import { VisitsService } from './visits.service.js';

export interface NestWithKiln {
  readonly nest: INestApplication;
  readonly kiln: KilnApp;
  readonly url: string;
  /** Closes the Kiln app (its endpoint drains MCP calls and ends its streams), then Nest and its server. */
  close(): Promise<void>;
}

export async function startNestWithKiln(platform: 'fastify' | 'express', port = 0): Promise<NestWithKiln> {
  const nest =
    platform === 'fastify'
      ? await NestFactory.create<NestFastifyApplication>(NestAppModule, new FastifyAdapter(), { logger: false })
      : await NestFactory.create(NestAppModule, { logger: false });
  const kiln = await createApp(GreetModule.withVisits(nest.get(VisitsService)), {
    name: 'nest-greeter',
    version: '1.0.0',
    serve: false,
  });
  if (platform === 'fastify') {
    await (nest as NestFastifyApplication).getHttpAdapter().getInstance().register(kilnFastify, { app: kiln });
  } else {
    const handler = nodeHandler(kiln, { prefix: '/mcp' });
    await handler.ready();
    nest.use(handler);
  }
  await nest.listen(port, '127.0.0.1');
  return {
    nest,
    kiln,
    url: (await nest.getUrl()).replace('[::1]', '127.0.0.1'),
    close: async () => {
      await kiln.close();
      // Keep-alive connections nobody is using would hold the server's close until they time out.
      (nest.getHttpServer() as { closeIdleConnections?: () => void }).closeIdleConnections?.();
      await nest.close();
    },
  };
}
