-- Frees the in-progress claim held by a token; repeating it succeeds. The record lingers,
-- released, so the next claim's epoch counts on from it.
-- ARGV: owner, epoch, (unused), now (µs, or "" for the server clock), linger (ms).
-- Returns 1, or 0 when the token does not hold an in-progress claim.
local r = redis.call('HMGET', KEYS[1], 's', 'o', 'e')
if (r[1] ~= 'p' and r[1] ~= 'r') or r[2] ~= ARGV[1] or r[3] ~= ARGV[2] then
  return 0
end
local now = tonumber(ARGV[4])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000000 + tonumber(t[2])
end
redis.call('HSET', KEYS[1], 's', 'r', 'x', string.format('%.0f', now))
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1
