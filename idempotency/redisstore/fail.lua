-- Turns the in-progress claim held by a token into a failed marker (state f, the reason in
-- v); repeating it succeeds. KEYS[1] is the record, KEYS[2] its steps (see step.lua), which
-- are kept at least as long as the marker so that a retry after review resumes from them.
-- ARGV: owner, epoch, retention (µs), now (µs, or "" for the server clock), linger (ms),
-- reason.
-- Returns 1, or 0 when the token does not hold an in-progress claim.
local r = redis.call('HMGET', KEYS[1], 's', 'o', 'e')
if (r[1] ~= 'p' and r[1] ~= 'f') or r[2] ~= ARGV[1] or r[3] ~= ARGV[2] then
  return 0
end
local now = tonumber(ARGV[4])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000000 + tonumber(t[2])
end
local expires = now + tonumber(ARGV[3])
local ttl = string.format('%.0f', math.ceil(tonumber(ARGV[3]) / 1000) + tonumber(ARGV[5]))
redis.call('HSET', KEYS[1], 's', 'f', 'x', string.format('%.0f', expires), 'v', ARGV[6])
redis.call('PEXPIRE', KEYS[1], ttl)
local x = tonumber(redis.call('HGET', KEYS[2], 'x'))
if x and x > now and x < expires then
  redis.call('HSET', KEYS[2], 'x', string.format('%.0f', expires))
  redis.call('PEXPIRE', KEYS[2], ttl)
end
return 1
