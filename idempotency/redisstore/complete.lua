-- Turns the claim held by a token into a completion marker; repeating it succeeds.
-- ARGV: owner, epoch, retention (µs), now (µs, or "" for the server clock), linger (ms),
-- result ("" for none).
-- Returns 1, or 0 when the token does not hold the key.
local r = redis.call('HMGET', KEYS[1], 's', 'o', 'e')
if (r[1] ~= 'p' and r[1] ~= 'c') or r[2] ~= ARGV[1] or r[3] ~= ARGV[2] then
  return 0
end
local now = tonumber(ARGV[4])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000000 + tonumber(t[2])
end
local retention = tonumber(ARGV[3])
redis.call('HSET', KEYS[1], 's', 'c', 'x', string.format('%.0f', now + retention), 'v', ARGV[6] or '')
redis.call('PEXPIRE', KEYS[1], string.format('%.0f', math.ceil(retention / 1000) + tonumber(ARGV[5])))
return 1
