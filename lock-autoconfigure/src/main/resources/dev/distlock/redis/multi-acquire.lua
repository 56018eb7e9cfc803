-- Acquires the locks of several keys of one hash slot together, all or nothing, in one atomic
-- step: if every key is free (or already holds this owner token), sets each with the token and
-- the lease and grants each its own fencing token, the next values of the slot's counter in key
-- order; else writes nothing. Tokens never fall below this server's clock in microseconds, as in
-- acquire.lua. It never queues: a caller that waits goes on key by key through acquire.lua.
-- KEYS[1..n] the lock keys, in lock order; KEYS[n+1] the fencing counter shared by the locks of
-- their hash slot; KEYS[n+2], only with the restart quarantine, its key (see acquire.lua).
-- ARGV[1] owner token; ARGV[2] lease in ms; ARGV[3], only with the restart quarantine, its length in
-- ms.
-- Returns {1, fencing token of the first key} if acquired (key i has that token + i - 1), else
-- {0, index of the first key found held, its holder's remaining lease in ms}; during a restart
-- quarantine, {0, 1, ms left of it}.
-- Everything that can fail is checked before anything is written (Redis does not roll a script
-- back): the counter, and the type of every key (a key of another type is named in the error: a
-- read-write lock's or a semaphore's sorted set with LOCKKIND, anything else with WRONGTYPE).
-- The restart quarantine (distlock.restart-quarantine; see acquire.lua): returns the ms during which
-- no lock may be granted (0 if none), and the fencing counter, starting the quarantine if the
-- counter is gone.
local function quarantine(counterKey, counter, quarantineKey, millis)
	local left = redis.call('pttl', quarantineKey)
	if left == -1 then
		-- Set without an expiry (by hand): until it is deleted.
		return 2147483647, counter
	elseif left > 0 or counter then
		return math.max(left, 0), counter
	end
	local time = redis.call('time')
	local micros = tonumber(time[1]) * 1000000 + tonumber(time[2])
	redis.call('set', counterKey, string.format('%d', micros))
	redis.call('set', quarantineKey, string.format('%d', math.floor(micros / 1000) + tonumber(millis)), 'PX', millis)
	return tonumber(millis), micros
end
local n = #KEYS - (ARGV[3] and 2 or 1)
local fence = KEYS[n + 1]
local counter = redis.call('get', fence)
if counter and not (string.match(counter, '^%d+$') and tonumber(counter) < 9007199254740992) then
	return redis.error_reply('WRONGTYPE the fencing counter ' .. fence .. ' does not hold a number')
end
-- The owner's token, alone or followed by the queued mark (see acquire.lua): an earlier attempt of
-- this acquisition whose reply was lost took the key, and someone queued for it since.
local marked = ARGV[1] .. '+queued'
local kept = {}
for i = 1, n do
	local holder = redis.pcall('get', KEYS[i])
	kept[i] = (holder == marked) and marked or ARGV[1]
	if type(holder) == 'table' and holder.err then
		-- A key of another type: a read-write lock's or a semaphore's sorted set is named as such.
		if redis.call('type', KEYS[i])['ok'] == 'zset' then
			local first = string.gsub(redis.call('zrange', KEYS[i], 0, 0)[1] or '', '^released:', '')
			local permits = string.match(first, '^s(%d+)%.')
			return redis.error_reply('LOCKKIND key ' .. KEYS[i] .. ' is ' .. (permits and ('a semaphore of '
				.. permits .. ' permits') or 'a read-write lock') .. ', this call asks for an exclusive lock')
		end
		return redis.error_reply('WRONGTYPE key ' .. KEYS[i] .. ' holds a ' .. redis.call('type', KEYS[i])['ok']
			.. ', not a string')
	end
	if holder and holder ~= ARGV[1] and holder ~= marked then
		local remaining = redis.call('pttl', KEYS[i])
		if remaining == -1 then
			-- Set by something else without an expiry: report it as held for long.
			remaining = 2147483647
		elseif remaining < 0 then
			remaining = 0
		end
		return {0, i, remaining}
	end
end
if ARGV[3] then
	local left
	left, counter = quarantine(fence, counter and tonumber(counter), KEYS[n + 2], ARGV[3])
	if left > 0 then
		return {0, 1, left}
	end
end
counter = tonumber(counter or '0')
local time = redis.call('time')
local first = math.max(counter + 1, tonumber(time[1]) * 1000000 + tonumber(time[2]))
for i = 1, n do
	redis.call('set', KEYS[i], kept[i], 'PX', ARGV[2])
end
redis.call('set', fence, string.format('%d', first + n - 1))
return {1, first}
