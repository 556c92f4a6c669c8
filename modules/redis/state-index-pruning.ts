// Lazy removal of index members whose value Redis has already expired. The check and the removal run as one
// script: removing after a separate check would race a concurrent `set` of the same key and unlist a live entry.
import type { RedisClient } from './redis-connection.js';

const COMMAND = 'kilnPruneStateIndex';

// KEYS[1] is the index, KEYS[2..n] the value keys; ARGV[i] is the member of KEYS[i + 1]. All share one hash tag.
const SCRIPT = `
local removed = 0
for i = 2, #KEYS do
  if redis.call('EXISTS', KEYS[i]) == 0 then
    removed = removed + redis.call('ZREM', KEYS[1], ARGV[i - 1])
  end
end
return removed`;

type PruneCommand = (numberOfKeys: number, ...keysAndMembers: Buffer[]) => Promise<number>;

const defined = new WeakSet<RedisClient>();

/** Removes each of `members` from `index` whose value key no longer exists; resolves with the number removed. */
export function pruneIndexMembers(
  client: RedisClient,
  index: Buffer,
  members: readonly Buffer[],
  valueKeys: readonly Buffer[],
): Promise<number> {
  if (!defined.has(client)) {
    // ioredis sends EVALSHA and falls back to EVAL on NOSCRIPT, per node, so a restarted node is no problem.
    client.defineCommand(COMMAND, { lua: SCRIPT });
    defined.add(client);
  }
  const prune = (client as unknown as Record<typeof COMMAND, PruneCommand>)[COMMAND].bind(client);
  return prune(valueKeys.length + 1, index, ...valueKeys, ...members);
}
