// How a server that cannot start says why: the problem list first, one line each, then the lint warnings of the same
// pass, then where boot stopped (with --enable-source-maps, frames name the .ts files). Written by createApp when it
// is the process's entry, instead of Node's report of an unhandled rejection, which leads with the source line that
// threw and ends with the error's fields.
import { KilnBootError } from '../errors/boot-error.js';

export function bootFailureReport(name: string, error: KilnBootError): string {
  const frames = (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  const section = (title: string, lines: readonly string[]) =>
    lines.length === 0 ? [] : [title, ...lines.map((line) => `  - ${line}`)];
  return [
    ...section(`${name} could not start:`, error.problems),
    ...section('Warnings from the same check:', error.warnings),
    ...(frames.length === 0 ? [] : ['Boot stopped:', ...frames]),
    '',
  ].join('\n');
}

/**
 * Runs `boot`; a KilnBootError it raises is written to `stderr` as bootFailureReport says and ends the process with
 * exit code 1. Anything else is rethrown.
 */
export async function exitOnBootFailure<T>(name: string, boot: () => Promise<T>): Promise<T> {
  try {
    return await boot();
  } catch (error) {
    if (!(error instanceof KilnBootError)) throw error;
    process.stderr.write(bootFailureReport(name, error));
    process.exit(1);
  }
}
