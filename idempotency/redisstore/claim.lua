-- Claims KEYS[1] for an owner when it is free. KEYS[2] is the epoch counter of KEYS[1]'s hash
-- slot: the highest epoch handed out there, kept without TTL, so a new epoch is above every
-- epoch the key had even after its record expired away or the server's clock stepped back.
-- ARGV: owner, fingerprint, lease (µs), now (µs, or "" for the server clock), linger (ms).
-- Returns {claimed 1|0, state, owner, epoch, fingerprint, expires in (µs), result}; states
-- are p (in progress), c (completed), r (released); the result is a completion marker's.
local now = tonumber(ARGV[4])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000000 + tonumber(t[2])
end
local lease = tonumber(ARGV[3])
local r = redis.call('HMGET', KEYS[1], 's', 'o', 'e', 'f', 'x', 'v')
if r[1] and r[1] ~= 'r' and tonumber(r[5]) > now then
  if r[1] == 'p' and r[2] == ARGV[1] then
    -- The owner asking again (go-redis retrying after a lost reply): its claim, renewed.
    redis.call('HSET', KEYS[1], 'x', string.format('%.0f', now + lease))
    redis.call('PEXPIRE', KEYS[1], string.format('%.0f', math.ceil(lease / 1000) + tonumber(ARGV[5])))
    return {1, 'p', ARGV[1], r[3], '', string.format('%.0f', lease), ''}
  end
  return {0, r[1], r[2], r[3], r[4] or '', string.format('%.0f', tonumber(r[5]) - now), r[6] or ''}
end
local epoch = math.max((tonumber(r[3]) or 0) + 1, now, (tonumber(redis.call('GET', KEYS[2])) or 0) + 1)
epoch = string.format('%.0f', epoch)
redis.call('SET', KEYS[2], epoch)
redis.call('HSET', KEYS[1], 's', 'p', 'o', ARGV[1], 'e', epoch, 'f', ARGV[2], 'x', string.format('%.0f', now + lease), 'v', '')
redis.call('PEXPIRE', KEYS[1], string.format('%.0f', math.ceil(lease / 1000) + tonumber(ARGV[5])))
return {1, 'p', ARGV[1], epoch, '', string.format('%.0f', lease), ''}
