// Runs the notes example on the transport MCP_TRANSPORT_TYPE selects (stdio by default).
import { createApp } from 'mcp-kiln';
import { NotesModule } from './notes.module.js';

await createApp(NotesModule, { name: 'kiln-notes', version: '0.1.0' });
