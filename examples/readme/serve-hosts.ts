// README example: choosing hosts in code instead of MCP_TRANSPORT_TYPE (run by hand; the tests only compile it).
import { createApp, stdio } from 'mcp-kiln';
import { http, InMemoryServerEventBus } from 'mcp-kiln/http';
import { LibraryModule } from './library.module.js';

const app = await createApp(LibraryModule, { serve: false });
const web = await app.serve(http({ bus: new InMemoryServerEventBus(), config: { port: 8080 } }));
console.log(web.endpointUrl);
await app.serve(stdio()); // both at once is fine
// later: app.close('SIGTERM') stops every host, lets requests in flight answer, then runs the shutdown hooks.
