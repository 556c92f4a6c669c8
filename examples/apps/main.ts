// Runs the MCP Apps example on the transport MCP_TRANSPORT_TYPE selects (stdio by default).
import { createApp } from 'mcp-kiln';
import { TallyAppsModule } from './apps.module.js';

await createApp(TallyAppsModule, { name: 'kiln-tally', version: '0.1.0' });
