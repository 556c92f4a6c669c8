// Kiln's configuration: every setting read from one environment variable, validated once at boot. A bad value
// stops boot with a message naming the variable and what it accepts.
import { z } from 'zod';
import { KilnBootError } from '../errors/index.js';
import { LOG_LEVELS, type LogLevel } from '../logging/index.js';

export const TRANSPORT_TYPES = ['stdio'] as const;
export const STORAGE_PROVIDER_TYPES = ['in-memory', 'filesystem'] as const;

export interface KilnConfig {
  readonly transportType: (typeof TRANSPORT_TYPES)[number];
  readonly logLevel: LogLevel;
  readonly storage: { readonly type: 'in-memory' } | { readonly type: 'filesystem'; readonly path: string };
}

type Env = Readonly<Record<string, string | undefined>>;

interface Setting<T> {
  readonly variable: string;
  readonly schema: z.ZodType<T>;
  readonly accepted: string;
}

const enumSetting = <T extends string>(variable: string, values: readonly [T, ...T[]], fallback: T): Setting<T> => ({
  variable,
  schema: z.enum(values).default(fallback) as unknown as z.ZodType<T>,
  accepted: `one of ${values.join(', ')}`,
});

const SETTINGS = {
  transportType: enumSetting('MCP_TRANSPORT_TYPE', TRANSPORT_TYPES as unknown as ['stdio'], 'stdio'),
  logLevel: enumSetting('MCP_LOG_LEVEL', LOG_LEVELS as unknown as [LogLevel, ...LogLevel[]], 'info'),
  storageType: enumSetting(
    'STORAGE_PROVIDER_TYPE',
    STORAGE_PROVIDER_TYPES as unknown as ['in-memory', 'filesystem'],
    'in-memory',
  ),
  storagePath: {
    variable: 'STORAGE_FILESYSTEM_PATH',
    schema: z.string().min(1).optional(),
    accepted: 'a directory path',
  } satisfies Setting<string | undefined>,
};

/** Reads and validates the configuration; throws KilnBootError listing every bad variable. */
export function loadConfig(env: Env = process.env): KilnConfig {
  const problems: string[] = [];
  const read = <T>(setting: Setting<T>): T => {
    const raw = env[setting.variable];
    const result = setting.schema.safeParse(raw === '' ? undefined : raw);
    if (result.success) return result.data;
    problems.push(`${setting.variable}=${JSON.stringify(raw)} is not valid: expected ${setting.accepted}.`);
    return undefined as T;
  };
  const transportType = read(SETTINGS.transportType);
  const logLevel = read(SETTINGS.logLevel);
  const storageType = read(SETTINGS.storageType);
  const storagePath = read(SETTINGS.storagePath);
  if (storageType === 'filesystem' && !storagePath) {
    problems.push(
      'STORAGE_FILESYSTEM_PATH is required when STORAGE_PROVIDER_TYPE=filesystem: set it to a directory path.',
    );
  }
  if (problems.length > 0) throw new KilnBootError(problems.map((p) => `Invalid configuration: ${p}`));
  return {
    transportType,
    logLevel,
    storage: storageType === 'filesystem' ? { type: 'filesystem', path: storagePath as string } : { type: 'in-memory' },
  };
}
