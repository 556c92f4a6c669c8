// Serves the app the way MCP_TRANSPORT_TYPE says: stdio by default, http for MCP_HTTP_HOST:MCP_HTTP_PORT.
import { createApp } from 'mcp-kiln';
import { AppModule } from './app.module.js';

await createApp(AppModule, { name: '{{name}}', version: '0.1.0' });
