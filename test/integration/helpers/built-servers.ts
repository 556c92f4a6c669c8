// The compiled servers the integration suite spawns. The suite runs what `npm run build` produced and never builds
// itself, so a missing file fails with the command that makes it.
import { existsSync } from 'node:fs';
import { repoFile } from '../../support/repo-root.js';

export const REPO_ROOT = repoFile('');
export const NOTES_SERVER = repoFile('dist/examples/notes/main.js');
/** The everything example (conformance fixtures, plus the shelf tools behind a guard, an interceptor and a filter). */
export const EVERYTHING_SERVER = repoFile('dist/examples/everything/main.js');
/** The MCP Apps example: the tally board view and its two tools. */
export const APPS_SERVER = repoFile('dist/examples/apps/main.js');
export const PIPELINE_FIXTURE = repoFile('dist/test/integration/fixtures/pipeline-fixture.js');
/** Notes plus a tool that announces resource updates, for the multi-instance session tests. */
export const SESSIONS_FIXTURE = repoFile('dist/test/redis/fixtures/sessions-fixture.js');

export function assertBuilt(serverPath: string): void {
  if (!existsSync(serverPath)) {
    throw new Error(`${serverPath} does not exist: run npm run build first (the integration tests never build).`);
  }
}
