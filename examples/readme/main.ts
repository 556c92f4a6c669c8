// README example: serving a module. MCP_TRANSPORT_TYPE picks the transport (stdio by default).
import { createApp } from 'mcp-kiln';
import { LibraryModule } from './library.module.js';

await createApp(LibraryModule, { name: 'library', version: '1.0.0' });
