// Serves the app the way MCP_TRANSPORT_TYPE says: stdio by default, http for MCP_HTTP_HOST:MCP_HTTP_PORT.
import module from 'node:module';

// Node 22.8+ caches the code it compiles for this app in a folder it manages (NODE_COMPILE_CACHE names another), so
// later starts are faster. It must run before the app's modules load, hence the imports below it. Remove it to
// opt out; Node 20 has no such call.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

const { createApp } = await import('mcp-kiln');
const { AppModule } = await import('./app.module.js');

await createApp(AppModule, { name: '{{name}}', version: '0.1.0' });
