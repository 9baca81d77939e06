-- Reads a key's kept steps. KEYS[1] is the steps hash (see step.lua).
-- ARGV: now (µs, or "" for the server clock).
-- Returns {name, result, ...}, empty when the steps have expired.
local now = tonumber(ARGV[1])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000000 + tonumber(t[2])
end
local all = redis.call('HGETALL', KEYS[1])
local out = {}
local x = 0
for i = 1, #all, 2 do
  if all[i] == 'x' then
    x = tonumber(all[i + 1])
  end
end
if x <= now then
  return out
end
for i = 1, #all, 2 do
  if string.sub(all[i], 1, 2) == 'n:' then
    table.insert(out, string.sub(all[i], 3))
    table.insert(out, all[i + 1])
  end
end
return out
