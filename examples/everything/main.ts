// Runs the conformance "everything" server on the transport MCP_TRANSPORT_TYPE selects (stdio by default).
import { createApp } from 'mcp-kiln';
import { EverythingModule } from './everything.module.js';

await createApp(EverythingModule, { name: 'kiln-everything', version: '0.1.0' });
