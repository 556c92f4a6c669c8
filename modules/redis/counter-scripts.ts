// Call-policy counters in Redis: the rules of src/storage/counters.ts (claimRate, addToCounter) as Lua scripts, so a
// check and its write are one atomic step on the server whichever instance sends it. A rate is a string holding its
// theoretical arrival time (provider clock, ms) that expires when it no longer matters; a counter is a hash of fields
// whose expiry is set when it is created.
import { RedisScript } from './redis-script.js';

/** KEYS: rate key. ARGV: now, limit, windowMs. Returns { allowed 0|1, remaining, retryAfterMs }. */
export const CLAIM_RATE = new RedisScript(`
local now = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local interval = window / limit
local tat = now
local stored = tonumber(redis.call('GET', KEYS[1]) or '')
if stored ~= nil and stored > now then tat = stored end
local nextTat = tat + interval
local ahead = nextTat - now
if ahead > window then return {0, 0, math.ceil(ahead - window)} end
redis.call('SET', KEYS[1], string.format('%.3f', nextTat), 'PX', math.max(1, math.ceil(ahead)))
return {1, math.floor((window - ahead) / interval), 0}
`);

/**
 * KEYS: counter key. ARGV: ttlMs, cap field or '', cap limit, then field/delta pairs. Returns { applied 0|1,
 * HGETALL after (before, when the cap refused) }.
 */
export const ADD_COUNTER = new RedisScript(`
if ARGV[2] ~= '' then
  local current = tonumber(redis.call('HGET', KEYS[1], ARGV[2]) or '0')
  local delta = 0
  for i = 4, #ARGV, 2 do
    if ARGV[i] == ARGV[2] then delta = delta + tonumber(ARGV[i + 1]) end
  end
  if current + delta > tonumber(ARGV[3]) then return {0, redis.call('HGETALL', KEYS[1])} end
end
local existed = redis.call('EXISTS', KEYS[1])
for i = 4, #ARGV, 2 do redis.call('HINCRBYFLOAT', KEYS[1], ARGV[i], ARGV[i + 1]) end
if existed == 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {1, redis.call('HGETALL', KEYS[1])}
`);

/** HGETALL's flat field/value list as numbers by field. */
export function countsOf(flat: readonly (string | Buffer)[]): Record<string, number> {
  const values: Record<string, number> = {};
  for (let index = 0; index + 1 < flat.length; index += 2) {
    values[String(flat[index])] = Number(String(flat[index + 1]));
  }
  return values;
}
