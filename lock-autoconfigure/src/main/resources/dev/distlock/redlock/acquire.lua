-- RedLock phase 1 on one node: takes the lock if it is free and returns this node's candidate
-- fencing token, max(its counter + 1, its clock in microseconds), which it also stores.
-- KEYS[1] lock key; KEYS[2] the lock's fencing counter (never expires).
-- ARGV[1] owner token; ARGV[2] lease in ms.
-- Returns {1, candidate token} if taken, else {0, the holder's remaining lease in ms}.
-- A counter that is not a number below 2^53 fails before anything is written.
local counter = redis.call('get', KEYS[2])
if counter and not (string.match(counter, '^%d+$') and tonumber(counter) < 9007199254740992) then
	return redis.error_reply('WRONGTYPE the fencing counter ' .. KEYS[2] .. ' does not hold a number')
end
local holder = redis.call('get', KEYS[1])
if holder then
	return {0, redis.call('pttl', KEYS[1])}
end
local time = redis.call('time')
local micros = tonumber(time[1]) * 1000000 + tonumber(time[2])
local token = math.max(tonumber(counter or '0') + 1, micros)
redis.call('set', KEYS[2], string.format('%d', token))
redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
return {1, token}
