// Embedding example (docs/embedding.md): the app mounted in an Express application with nodeHandler.
import { createApp } from 'mcp-kiln';
import { AppModule } from './app.module.js';

const app = await createApp(AppModule, { name: 'billing', version: '1.4.0', serve: false });

import express from 'express';
import { nodeHandler } from 'mcp-kiln/http';

const web = express();
web.use(express.json());
web.use(nodeHandler(app, { prefix: '/mcp' }));
web.listen(8080);
