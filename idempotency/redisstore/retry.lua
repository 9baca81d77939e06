-- Frees a key's live failed marker, keeping its steps (another key); the record lingers,
-- released, so the next claim's epoch counts on from it.
-- ARGV: now (µs, or "" for the server clock), linger (ms).
-- Returns 1, or 0 when the key has no live failed marker.
local r = redis.call('HMGET', KEYS[1], 's', 'x')
local now = tonumber(ARGV[1])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000000 + tonumber(t[2])
end
if r[1] ~= 'f' or tonumber(r[2]) <= now then
  return 0
end
redis.call('HSET', KEYS[1], 's', 'r', 'x', string.format('%.0f', now), 'v', '')
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
