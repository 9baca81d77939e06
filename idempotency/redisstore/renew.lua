-- Extends the lease of the in-progress claim held by a token.
-- ARGV: owner, epoch, lease (µs), now (µs, or "" for the server clock), linger (ms).
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
local lease = tonumber(ARGV[3])
redis.call('HSET', KEYS[1], 'x', string.format('%.0f', now + lease))
redis.call('PEXPIRE', KEYS[1], string.format('%.0f', math.ceil(lease / 1000) + tonumber(ARGV[5])))
return 1
