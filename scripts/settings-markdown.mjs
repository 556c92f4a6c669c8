// The settings reference page (docs/reference/settings.md), rendered from src/config/settings-catalog.ts:
// `npm run docs:reference` writes it, test/docs/reference-pages.test.ts fails when the page is not what the list says.

const INTRO =
  'Kiln reads its settings from environment variables and validates them at boot. A bad value stops boot with a message\nthat names the variable and the values it accepts.';
const AFTER_GENERAL =
  '`MCP_LOG_LEVEL` sets the floor for both the process log (stderr) and the messages mirrored to the client. On stdio,\nstdout carries only JSON-RPC: a stdin line that is not JSON gets `-32700`, and one that is not a JSON-RPC 2.0 message\n(a batch included) or is too long gets `-32600`, after which the server keeps serving. The server exits cleanly on\nstdin EOF (stdio), `SIGTERM` and `SIGINT`, after the requests in flight have answered.';
const AUTH_INTRO =
  'HTTP only; stdio runs as the user who started it ([auth and tenants](../guide/auth.md),\n[identity providers](../identity-providers.md)).';

const cell = (text) => text.replaceAll('|', '\\|');
const names = (entry) => entry.names.map((name) => `\`${name}\``).join(' / ');

/**
 * An entry's default: what the catalog writes (a default the code cannot pass as a value: conditional, derived,
 * required), else the fallback the code passes for each of its names.
 */
function defaultOf(entry, fallbacks) {
  if (entry.default !== undefined) return entry.default;
  return entry.names
    .map((name) => {
      if (!fallbacks.has(name)) throw new Error(`${name}: the code passes no default and the catalog writes none.`);
      return `\`${String(fallbacks.get(name))}\``;
    })
    .join(' / ');
}

/**
 * @param {readonly {names: readonly string[], meaning: string, default?: string, mode?: string}[]} general
 * @param {typeof general} auth
 * @param {ReadonlyMap<string, unknown>} fallbacks the defaults the code passes (configFallbacks and authFallbacks)
 */
export function settingsMarkdown(general, auth, fallbacks) {
  return [
    '# Settings',
    '',
    '<!-- Generated from src/config/settings-catalog.ts by `npm run docs:reference`; do not edit by hand. -->',
    '',
    INTRO,
    '',
    '| Variable | Values | Default |',
    '| --- | --- | --- |',
    ...general.map((entry) => `| ${names(entry)} | ${cell(entry.meaning)} | ${cell(defaultOf(entry, fallbacks))} |`),
    '',
    AFTER_GENERAL,
    '',
    '## Authentication',
    '',
    AUTH_INTRO,
    '',
    '| Variable | Mode | Meaning | Default |',
    '| --- | --- | --- | --- |',
    ...auth.map(
      (entry) =>
        `| ${names(entry)} | ${cell(entry.mode ?? '')} | ${cell(entry.meaning)} | ${cell(defaultOf(entry, fallbacks))} |`,
    ),
    '',
  ].join('\n');
}
