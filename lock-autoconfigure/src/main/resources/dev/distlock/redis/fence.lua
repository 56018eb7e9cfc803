-- Issues the fencing token of an exclusive lock that was acquired without a script (SET NX PX),
-- when its holder first asks for it: only to the lock's current owner, so that tokens increase in
-- the order of the holds that use them. Like acquire.lua's grant, the token is the fencing counter
-- plus one, and never below this server's clock in microseconds.
-- KEYS[1] lock key; KEYS[2] the fencing counter shared by the locks of its hash slot.
-- ARGV[1] owner token.
-- Returns the token, or 0 if the lock is not held with the owner token (the holder lost it).
-- A counter that is not a number below 2^53 fails before anything is written.
local counter = redis.call('get', KEYS[2])
if counter and not (string.match(counter, '^%d+$') and tonumber(counter) < 9007199254740992) then
	return redis.error_reply('WRONGTYPE the fencing counter ' .. KEYS[2] .. ' does not hold a number')
end
local current = redis.pcall('get', KEYS[1])
-- The owner holds the lock with its token, or with its token and the queued mark (see acquire.lua).
if current ~= ARGV[1] and current ~= ARGV[1] .. '+queued' then
	return 0
end
local time = redis.call('time')
local token = math.max(tonumber(counter or '0') + 1, tonumber(time[1]) * 1000000 + tonumber(time[2]))
redis.call('set', KEYS[2], string.format('%d', token))
return token
