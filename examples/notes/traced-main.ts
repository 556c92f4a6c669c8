// The notes example with OpenTelemetry, served over HTTP only: the console exporters write to stdout, which the stdio
// transport reserves for the wire. `npm run build && MCP_TRANSPORT_TYPE=http node dist/examples/notes/traced-main.js`.
import './register-otel.js';
import { createApp } from 'mcp-kiln';
import { NotesModule } from './notes.module.js';

await createApp(NotesModule, { name: 'kiln-notes-traced', version: '0.1.0' });
