-- Claims KEYS[1] for an owner when it is free.
-- ARGV: owner, fingerprint, lease (µs), now (µs, or "" for the server clock), linger (ms).
-- Returns {claimed 1|0, state, owner, epoch, fingerprint, expires in (µs)}; states are
-- p (in progress), c (completed), r (released).
local now = tonumber(ARGV[4])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000000 + tonumber(t[2])
end
local r = redis.call('HMGET', KEYS[1], 's', 'o', 'e', 'f', 'x')
if r[1] and r[1] ~= 'r' and tonumber(r[5]) > now then
  return {0, r[1], r[2], r[3], r[4] or '', string.format('%.0f', tonumber(r[5]) - now)}
end
-- The epoch is past every epoch the key had and at least the clock: it keeps growing even
-- after Redis dropped an old record.
local epoch = string.format('%.0f', math.max((tonumber(r[3]) or 0) + 1, now))
local lease = tonumber(ARGV[3])
redis.call('HSET', KEYS[1], 's', 'p', 'o', ARGV[1], 'e', epoch, 'f', ARGV[2], 'x', string.format('%.0f', now + lease))
redis.call('PEXPIRE', KEYS[1], string.format('%.0f', math.ceil(lease / 1000) + tonumber(ARGV[5])))
return {1, 'p', ARGV[1], epoch, '', string.format('%.0f', lease)}
