// Starts the notifying fixture in-process over real HTTP on a free loopback port, with the settings a test passes.
import type { KilnApp } from 'mcp-kiln';
import { createTestingModule } from 'mcp-kiln/testing';
import { type HttpHostOptions, type HttpServing, http } from '../../../modules/http/index.js';
import { LOGGER, NOTIFIER } from '../../../src/di/tokens.js';
import { createLogger } from '../../../src/logging/index.js';
import type { ChangeNotifier } from '../../../src/notifications/change-notifier.js';
import { captureDestination } from '../../logging/capture-destination.js';
import { NotifyingModule } from './notifying-fixture.js';

export interface NotifyingServer {
  readonly app: KilnApp;
  readonly serving: HttpServing;
  readonly endpointUrl: string;
  readonly notifier: ChangeNotifier;
  close(): Promise<void>;
}

export async function startNotifyingServer(
  env: Readonly<Record<string, string>> = {},
  hostOptions: (app: KilnApp) => HttpHostOptions = () => ({}),
): Promise<NotifyingServer> {
  // Debug, so every ctx.log line reaches the client's own filter; the process log goes to memory, not stderr.
  const logger = createLogger({ level: 'debug', name: 'kiln', destination: captureDestination() });
  const testing = await createTestingModule({ imports: [NotifyingModule] })
    .overrideProvider(LOGGER)
    .useValue(logger)
    .compile({
      name: 'kiln-notifying',
      version: '1.0.0',
      shutdownDrainMs: 1_000,
      env: {
        MCP_TRANSPORT_TYPE: 'http',
        MCP_HTTP_PORT: '0',
        MCP_SESSION_MODE: 'stateful',
        MCP_LOG_LEVEL: 'debug',
        ...env,
      },
    });
  const { app } = testing;
  const serving = await app.serve(http(hostOptions(app)));
  return {
    app,
    serving,
    endpointUrl: serving.endpointUrl,
    notifier: app.get(NOTIFIER),
    close: async () => {
      await serving.close();
      await testing.close();
    },
  };
}
