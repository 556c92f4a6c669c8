// `kiln inspect <entry>`: what the app serves, the catalogue the landing page renders, as text or as JSON. An app
// that does not boot has nothing to list; its boot errors are printed instead.
import { withBootedApp } from './boot-check.js';
import { catalogText } from './catalog-text.js';
import { type CommandResult, EXIT, INSPECT_HELP, onePositional, parseCommandArgs } from './cli-usage.js';
import { loadRootModule } from './load-entry.js';

export async function inspectCommand(args: readonly string[]): Promise<CommandResult> {
  const { values, positionals } = parseCommandArgs('inspect', args, {
    module: { type: 'string' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return { exitCode: EXIT.ok, stdout: INSPECT_HELP, stderr: '' };
  const root = await loadRootModule(onePositional('inspect', 'an entry file', positionals), values.module);
  const { errors, result: catalog } = await withBootedApp(root.module, (app) => app.catalog());
  if (!catalog) {
    const problems = errors.map((problem) => `  - ${problem}`).join('\n');
    return {
      exitCode: EXIT.findings,
      stdout: '',
      stderr: `${root.moduleName} (${root.entry}) does not boot; kiln lint reports the same:\n${problems}\n`,
    };
  }
  const stdout = values.json ? `${JSON.stringify(catalog, null, 2)}\n` : catalogText(catalog);
  return { exitCode: EXIT.ok, stdout, stderr: '' };
}
