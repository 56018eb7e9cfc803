-- Acquires one hold of a shared lock: a reader or the writer of a read-write lock, or one of a
-- semaphore's N permits. The lock key is a sorted set: member = a holder's owner token, score =
-- its lease's end in ms by this server's clock; the key expires with its furthest lease. Owner
-- tokens carry their kind: 'r.<hex>' a reader, 'w.<hex>' a writer, 's<N>.<hex>' one of N permits
-- (a member kept for a minimum hold after its release reads 'released:<token>').
-- Grants, after expired holders are purged and lapsed places in the queue skipped:
--   a reader when no writer holds and no valid waiter ahead of it is other than a reader;
--   a writer when nobody holds and no valid waiter is ahead of it;
--   a permit when fewer than N hold and fewer than N - holders valid waiters are ahead of it.
-- Waiting is first come, first served across kinds: a writer queued before readers is served
-- before them, so that a stream of readers cannot starve it.
-- KEYS and ARGV as acquire.lua: KEYS[1] lock key; KEYS[2] fencing counter; KEYS[3] queue;
-- KEYS[4] waiters' entries. ARGV[1] owner token (with its kind); ARGV[2] lease in ms; ARGV[3]
-- channel to be told of a hand-over, empty to stay out of the queue; ARGV[4] ms the place stays
-- valid; ARGV[5] fencing tokens to reserve; ARGV[6] '1' if an earlier attempt may have queued
-- the caller; ARGV[7] claim window in ms; ARGV[8] 'publish' or 'spublish'.
-- ARGV[9] and KEYS[5], only with the restart quarantine, as in acquire.lua.
-- Returns {1, fencing token} if acquired, else {0, ms until the earliest blocking holder's lease
-- ends (if only earlier waiters block it: until the earliest holder's lease ends, or ARGV[4] with
-- no holder), the fencing counter}; or, during a restart quarantine, {0, ms left of it, the counter,
-- 1} (see acquire.lua).
-- Everything that can fail is checked before anything is written (Redis does not roll a script
-- back): the lock key's type and the kind of its holders, the counter, the queue's types.
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
local key, token = KEYS[1], ARGV[1]
local function kindOf(member)
	local plain = string.gsub(member, '^released:', '')
	local kind, permits = string.match(plain, '^([rws])(%d*)%.')
	return kind, permits
end
local function family(kind, permits)
	return (kind == 's') and ('a semaphore of ' .. permits .. ' permits') or 'a read-write lock'
end
local mine, minePermits = kindOf(token)
local asked = (mine == 's') and family(mine, minePermits) or ((mine == 'r') and 'a read lock' or 'a write lock')
local found = redis.call('type', key)['ok']
if found == 'string' then
	return redis.error_reply('LOCKKIND key ' .. key .. ' is an exclusive lock, this call asks for ' .. asked)
elseif found ~= 'none' and found ~= 'zset' then
	return redis.error_reply('WRONGTYPE ' .. key .. ' holds a ' .. found .. ', not a zset')
end
local counter = redis.call('get', KEYS[2])
if counter and not (string.match(counter, '^%d+$') and tonumber(counter) < 9007199254740992) then
	return redis.error_reply('WRONGTYPE the fencing counter ' .. KEYS[2] .. ' does not hold a number')
end
if ARGV[3] ~= '' or ARGV[6] == '1' then
	for i, kind in ipairs({'list', 'hash'}) do
		local other = redis.call('type', KEYS[i + 2])['ok']
		if other ~= 'none' and other ~= kind then
			return redis.error_reply('WRONGTYPE ' .. KEYS[i + 2] .. ' holds a ' .. other .. ', not a ' .. kind)
		end
	end
end
if ARGV[9] then
	local left
	left, counter = quarantine(KEYS[2], counter and tonumber(counter), KEYS[5], ARGV[9])
	if left > 0 then
		return {0, left, counter, 1}
	end
end
counter = tonumber(counter or '0')
local time = redis.call('time')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local members = redis.call('zrange', key, 0, -1, 'WITHSCORES')
local live, writers, expired, earliest, soonest, held = 0, 0, 0, nil, nil, false
for i = 1, #members, 2 do
	local member, score = members[i], tonumber(members[i + 1])
	local kind, permits = kindOf(member)
	if not kind then
		return redis.error_reply('WRONGTYPE ' .. key .. ' holds a sorted set that distlock did not write')
	end
	if family(kind, permits) ~= family(mine, minePermits) then
		return redis.error_reply('LOCKKIND key ' .. key .. ' is ' .. family(kind, permits) .. ', this call asks for ' .. asked)
	end
	if score <= now then
		expired = expired + 1
	elseif member == token then
		held = true
	else
		live = live + 1
		if kind == 'w' then
			writers = writers + 1
		end
		if not soonest or score < soonest then
			soonest = score
		end
		if (mine ~= 'r' or kind == 'w') and (not earliest or score < earliest) then
			earliest = score
		end
	end
end
if expired > 0 then
	redis.call('zremrangebyscore', key, '-inf', now)
end
local blocked = earliest ~= nil and (mine ~= 's' or live >= tonumber(minePermits))
if not blocked and not held and redis.call('exists', KEYS[3]) == 1 then
	-- Count the valid waiters ahead of the caller (all of them if it has no place).
	local ahead, start = 0, 0
	while not blocked do
		local chunk = redis.call('lrange', KEYS[3], start, start + 31)
		if #chunk == 0 then
			break
		end
		for _, candidate in ipairs(chunk) do
			if candidate == token then
				start = -1
				break
			end
			local entry = redis.call('hget', KEYS[4], candidate)
			local validUntil = entry and tonumber(string.match(entry, '^(%d+) '))
			if validUntil and validUntil > now then
				ahead = ahead + 1
				if mine == 'w' or (mine == 'r' and kindOf(candidate) ~= 'r')
						or (mine == 's' and ahead >= tonumber(minePermits) - live) then
					blocked = true
					break
				end
			end
		end
		if start < 0 then
			break
		end
		start = start + 32
	end
end
if held or not blocked then
	-- Granted; or a release handed the caller a hold and the message saying so was lost or is
	-- late: take it with a fresh lease and a new fencing token.
	redis.call('zadd', key, now + tonumber(ARGV[2]), token)
	if redis.call('pttl', key) < tonumber(ARGV[2]) then
		redis.call('pexpire', key, ARGV[2])
	end
	if ARGV[6] == '1' and redis.call('hdel', KEYS[4], token) == 1 then
		redis.call('lrem', KEYS[3], 1, token)
	end
	local first = math.max(counter + 1, tonumber(time[1]) * 1000000 + tonumber(time[2]))
	redis.call('set', KEYS[2], string.format('%d', first + tonumber(ARGV[5]) - 1))
	return {1, first}
end
if ARGV[3] ~= '' then
	if redis.call('hset', KEYS[4], token, string.format('%d %s %d %s %s', now + tonumber(ARGV[4]), ARGV[7],
			tonumber(ARGV[5]), ARGV[8], ARGV[3])) == 1 then
		redis.call('rpush', KEYS[3], token)
	end
	redis.call('pexpire', KEYS[3], ARGV[4])
	redis.call('pexpire', KEYS[4], ARGV[4])
end
-- Blocked by holders: until the earliest of them ends. Only by earlier waiters: until the earliest
-- holder's lease ends (a release then hands over, with a message), or, with nobody holding, for
-- as long as a place in the queue stays valid: the waiters ahead take the lock with their own
-- next attempt, and the caller hears of it by message or its backstop, never by polling.
local holders = earliest ~= nil and (mine ~= 's' or live >= tonumber(minePermits))
if holders then
	return {0, math.max(earliest - now, 0), counter}
end
return {0, soonest and math.max(soonest - now, 1) or tonumber(ARGV[4]), counter}
