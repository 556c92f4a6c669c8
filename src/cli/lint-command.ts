// `kiln lint <entry>`: every check boot runs, without serving, as text for people or JSON for CI. Errors exit 1
// (warnings too under --strict), so a pipeline step fails on exactly what would stop the server from starting.
import { type BootFindings, withBootedApp } from './boot-check.js';
import { type CommandResult, EXIT, LINT_HELP, onePositional, parseCommandArgs } from './cli-usage.js';
import { loadRootModule, type RootModule } from './load-entry.js';

export interface LintReport extends BootFindings {
  readonly entry: string;
  readonly module: string;
  readonly ok: boolean;
}

export async function lintCommand(args: readonly string[]): Promise<CommandResult> {
  const { values, positionals } = parseCommandArgs('lint', args, {
    module: { type: 'string' },
    json: { type: 'boolean' },
    strict: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return { exitCode: EXIT.ok, stdout: LINT_HELP, stderr: '' };
  const root = await loadRootModule(onePositional('lint', 'an entry file', positionals), values.module);
  const findings = await withBootedApp(root.module, () => undefined);
  const failed = findings.errors.length > 0 || (values.strict === true && findings.warnings.length > 0);
  const report: LintReport = {
    entry: root.entry,
    module: root.moduleName,
    ok: !failed,
    errors: findings.errors,
    warnings: findings.warnings,
  };
  const stdout = values.json ? `${JSON.stringify(report, null, 2)}\n` : lintText(root, findings);
  return { exitCode: failed ? EXIT.findings : EXIT.ok, stdout, stderr: '' };
}

function lintText(root: RootModule, findings: BootFindings): string {
  const lines = [
    ...findings.errors.map((message) => finding('error', message)),
    ...findings.warnings.map((message) => finding('warning', message)),
  ];
  const counts = [plural(findings.errors.length, 'error'), plural(findings.warnings.length, 'warning')].join(', ');
  const summary = lines.length === 0 ? 'no problems found' : counts;
  return `${[...lines, ...(lines.length > 0 ? [''] : []), `${root.moduleName} (${root.entry}): ${summary}`].join('\n')}\n`;
}

/** One finding, its continuation lines indented under its first. */
const finding = (severity: string, message: string) =>
  `${severity.padEnd(9)}${message.split('\n').join(`\n${' '.repeat(9)}`)}`;
const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;
