// Child-process entry: starts one benchmark server and prints its endpoint as the first stdout line. Each server
// gets its own process so it never shares an event loop (or a heap) with the load generator or another server.
import { SERVER_KINDS, type ServerKind, startServer } from './servers.js';

const kind = process.argv[2];
if (!SERVER_KINDS.includes(kind as ServerKind)) {
  process.stderr.write(`Unknown server kind ${kind}; expected one of ${SERVER_KINDS.join(', ')}.\n`);
  process.exit(2);
}
const server = await startServer(kind as ServerKind);
process.stdout.write(`${JSON.stringify({ endpointUrl: server.endpointUrl })}\n`);
// An orderly exit, so a --cpu-prof profile gets written.
process.once('SIGTERM', () => void server.close().finally(() => process.exit(0)));
