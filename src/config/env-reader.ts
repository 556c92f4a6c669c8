// Reads typed settings from environment variables, collecting every problem instead of stopping at the first, so
// one failed boot names every bad variable with what it accepts. Public, so modules read their own settings the
// same way (mcp-kiln/auth does).
import { KilnBootError } from '../errors/boot-error.js';

export class EnvReader {
  private readonly problems: string[] = [];
  private readonly fallbackValues = new Map<string, unknown>();

  constructor(private readonly env: Readonly<Record<string, string | undefined>>) {}

  /** The raw value, with an empty string treated as unset. */
  raw(variable: string): string | undefined {
    const value = this.env[variable]?.trim();
    return value === '' ? undefined : value;
  }

  oneOf<T extends string>(variable: string, values: readonly T[], fallback: T): T {
    this.noteFallback(variable, fallback);
    const value = this.raw(variable);
    if (value === undefined) return fallback;
    if ((values as readonly string[]).includes(value)) return value as T;
    return this.reject(variable, value, `one of ${values.join(', ')}`, fallback);
  }

  integer(variable: string, fallback: number, bounds: { min: number; max: number }): number {
    this.noteFallback(variable, fallback);
    const value = this.raw(variable);
    if (value === undefined) return fallback;
    const parsed = Number(value);
    if (/^-?\d+$/.test(value) && parsed >= bounds.min && parsed <= bounds.max) return parsed;
    return this.reject(variable, value, `an integer from ${bounds.min} to ${bounds.max}`, fallback);
  }

  boolean(variable: string, fallback: boolean): boolean {
    this.noteFallback(variable, fallback);
    const value = this.raw(variable)?.toLowerCase();
    if (value === undefined) return fallback;
    if (value === 'true' || value === '1') return true;
    if (value === 'false' || value === '0') return false;
    return this.reject(variable, value, 'true or false', fallback);
  }

  string(variable: string): string | undefined {
    return this.raw(variable);
  }

  /** A comma-separated list; undefined when unset. */
  list(variable: string): string[] | undefined {
    const value = this.raw(variable);
    return value === undefined
      ? undefined
      : value
          .split(',')
          .map((item) => item.trim())
          .filter(Boolean);
  }

  /**
   * The default of each setting read so far, as the code passed it: the settings reference takes its defaults from
   * here, so they are written once, where they take effect.
   */
  fallbacks(): ReadonlyMap<string, unknown> {
    return this.fallbackValues;
  }

  problem(message: string): void {
    this.problems.push(message);
  }

  /** Throws one KilnBootError listing every problem found so far. */
  assertValid(): void {
    if (this.problems.length > 0) throw new KilnBootError(this.problems.map((p) => `Invalid configuration: ${p}`));
  }

  private noteFallback(variable: string, fallback: unknown): void {
    if (!this.fallbackValues.has(variable)) this.fallbackValues.set(variable, fallback);
  }

  private reject<T>(variable: string, value: string, accepted: string, fallback: T): T {
    this.problems.push(`${variable}=${JSON.stringify(value)} is not valid: expected ${accepted}.`);
    return fallback;
  }
}

/**
 * The defaults `readAll` passes for each setting, read over several environments so settings read only in some
 * configurations (Redis storage, one auth mode) are seen too; the first default seen for a setting wins.
 */
export function fallbacksOver(
  envs: readonly Readonly<Record<string, string | undefined>>[],
  readAll: (read: EnvReader, env: Readonly<Record<string, string | undefined>>) => void,
): ReadonlyMap<string, unknown> {
  const merged = new Map<string, unknown>();
  for (const env of envs) {
    const read = new EnvReader(env);
    readAll(read, env);
    for (const [variable, fallback] of read.fallbacks()) if (!merged.has(variable)) merged.set(variable, fallback);
  }
  return merged;
}
