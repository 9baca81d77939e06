-- Records the result of a step for the in-progress claim held by a token. KEYS[1] is the
-- key's record, KEYS[2] its steps: a hash of 'n:' .. name -> result, and 'x', when the steps
-- expire together (µs). Steps whose 'x' has passed are a finished run's: they are dropped
-- before this run's first step is kept, so they never come back with it.
-- ARGV: owner, epoch, retention (µs), now (µs, or "" for the server clock), linger (ms),
-- name, result.
-- Returns 1, or 0 when the token does not hold an in-progress claim.
local r = redis.call('HMGET', KEYS[1], 's', 'o', 'e')
if r[1] ~= 'p' or r[2] ~= ARGV[1] or r[3] ~= ARGV[2] then
  return 0
end
local now = tonumber(ARGV[4])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000000 + tonumber(t[2])
end
local x = tonumber(redis.call('HGET', KEYS[2], 'x'))
if not x or x <= now then
  redis.call('DEL', KEYS[2])
  x = 0
end
local expires = math.max(now + tonumber(ARGV[3]), x)
redis.call('HSET', KEYS[2], 'n:' .. ARGV[6], ARGV[7], 'x', string.format('%.0f', expires))
redis.call('PEXPIRE', KEYS[2], string.format('%.0f', math.ceil((expires - now) / 1000) + tonumber(ARGV[5])))
return 1
