-- Releases one hold of a shared lock (see shared-acquire.lua) only if its owner token is still a
-- member with an unexpired lease, and hands the lock to as many valid waiters from the head of
-- its queue as the rules allow now: all consecutive readers while no writer holds, one writer
-- when nobody holds, as many permit waiters as permits are free. Each is added with the claim
-- window its entry names, gets its own fencing token, and is told on its own channel
-- ('<owner token>:<fencing token>:<block>', as release.lua). It confirms the hand-over by
-- renewing its member to its lease. Lapsed places at the head are dropped; so are waiters of
-- another kind of lock, whose own attempts fail with the reason.
-- A waiter that gives up calls it too: it leaves the queue, and releases a hold it was handed in
-- the meantime.
-- KEYS as release.lua; ARGV[1] owner token; ARGV[2] ms the hold must still be kept (minimum
-- hold), 0 for none; ARGV[3] '1' if the token may have a place in the queue, else '0'; ARGV[4],
-- only with the restart quarantine, its length in ms: as in release.lua, nobody is handed the lock
-- during a quarantine.
-- Returns 1 if released (nobody was handed it), 2 if kept until the minimum hold ends, under a
-- member no renewal matches, 3 if handed to at least one waiter, 0 if the token held nothing (the
-- waiters it may have kept out are handed the lock all the same).
-- What can fail is checked before the lock, the counter or the queue's head are written: the
-- types of the keys, the counter, the channels the user may publish on. Only a waiter giving up
-- leaves the queue before the permissions are checked, which a retry repeats harmlessly.
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
local mine, minePermits = kindOf(token)
local found = redis.call('type', key)['ok']
if found == 'string' then
	return redis.error_reply('LOCKKIND key ' .. key .. ' is an exclusive lock, this call releases a hold of '
		.. ((mine == 's') and ('a semaphore of ' .. minePermits .. ' permits') or 'a read-write lock'))
elseif found ~= 'none' and found ~= 'zset' then
	return redis.error_reply('WRONGTYPE ' .. key .. ' holds a ' .. found .. ', not a zset')
end
local queued = redis.call('exists', KEYS[3], KEYS[4]) > 0
if queued then
	for i, kind in ipairs({'list', 'hash'}) do
		local other = redis.call('type', KEYS[i + 2])['ok']
		if other ~= 'none' and other ~= kind then
			return redis.error_reply('WRONGTYPE ' .. KEYS[i + 2] .. ' holds a ' .. other .. ', not a ' .. kind)
		end
	end
	local counter = redis.call('get', KEYS[2])
	if counter and not (string.match(counter, '^%d+$') and tonumber(counter) < 9007199254740992) then
		return redis.error_reply('WRONGTYPE the fencing counter ' .. KEYS[2] .. ' does not hold a number')
	end
end
if ARGV[3] == '1' and queued and redis.call('hdel', KEYS[4], token) == 1 then
	redis.call('lrem', KEYS[3], 1, token)
end
local time = redis.call('time')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local score = redis.call('zscore', key, token)
local holding = score and tonumber(score) > now
if not holding and not queued then
	redis.call('zremrangebyscore', key, '-inf', now)
	return 0
end
-- A token that holds nothing (a waiter that leaves, a holder whose lease ran out) still hands
-- over below: it may have been what kept the waiters behind it out.
local keep = tonumber(ARGV[2])
if holding and keep > 0 then
	redis.call('zrem', key, token)
	redis.call('zadd', key, now + keep, 'released:' .. token)
	if redis.call('pttl', key) < keep then
		redis.call('pexpire', key, keep)
	end
	return 2
end
-- Who holds once this hold ends, and whom the queue's head may be handed to now: read only, so
-- that the permission to tell each can be checked before anything changes.
local members = redis.call('zrange', key, 0, -1, 'WITHSCORES')
local live, writers = 0, 0
for i = 1, #members, 2 do
	if members[i] ~= token and tonumber(members[i + 1]) > now then
		live = live + 1
		if kindOf(members[i]) == 'w' then
			writers = writers + 1
		end
	end
end
if queued and ARGV[4] and quarantine(KEYS[2], redis.call('get', KEYS[2]), KEYS[5], ARGV[4]) > 0 then
	queued = false
end
local grants, consumed, index, stop = {}, 0, 0, not queued
while not stop do
	local chunk = redis.call('lrange', KEYS[3], index, index + 31)
	if #chunk == 0 then
		break
	end
	for _, candidate in ipairs(chunk) do
		local entry = redis.call('hget', KEYS[4], candidate)
		local validUntil, claim, block, publish, channel
		if entry then
			validUntil, claim, block, publish, channel = string.match(entry, '^(%d+) (%d+) (%d+) (s?publish) (.*)$')
			if not validUntil then
				validUntil, claim, block, channel = string.match(entry, '^(%d+) (%d+) (%d+) (.*)$')
				publish = 'publish'
			end
		end
		local kind, permits = kindOf(candidate)
		local fits = kind and ((mine == 's') == (kind == 's')) and permits == minePermits
		if validUntil and tonumber(validUntil) > now and fits then
			local grant = (kind == 'r' and writers == 0) or (kind == 'w' and live == 0)
				or (kind == 's' and live < tonumber(minePermits))
			if not grant then
				stop = true
				break
			end
			grants[#grants + 1] = {candidate, claim, tonumber(block), publish, channel}
			live = live + 1
			if kind == 'w' then
				writers = writers + 1
				stop = true
			end
		end
		-- Granted, lapsed, or of another kind of lock: taken off the head.
		consumed = consumed + 1
		if stop then
			break
		end
	end
	index = index + #chunk
end
for _, grant in ipairs(grants) do
	-- redis.acl_check_cmd came with Redis 7.0 (see release.lua).
	if redis.acl_check_cmd and not redis.acl_check_cmd(grant[4], grant[5], '') then
		return redis.error_reply('NOPERM this user has no permissions to ' .. grant[4] .. ' on the release channel ' .. grant[5])
	end
end
redis.call('zrem', key, token)
redis.call('zremrangebyscore', key, '-inf', now)
if consumed > 0 then
	for _, gone in ipairs(redis.call('lpop', KEYS[3], consumed)) do
		redis.call('hdel', KEYS[4], gone)
	end
end
local micros = tonumber(time[1]) * 1000000 + tonumber(time[2])
local counter = tonumber(redis.call('get', KEYS[2]) or '0')
for _, grant in ipairs(grants) do
	local fence = math.max(counter + 1, micros)
	counter = fence + grant[3] - 1
	redis.call('zadd', key, now + tonumber(grant[2]), grant[1])
	redis.call('set', KEYS[2], string.format('%d', counter))
	redis.call(grant[4], grant[5], string.format('%s:%d:%d', grant[1], fence, grant[3]))
end
local furthest = redis.call('zrange', key, -1, -1, 'WITHSCORES')
if #furthest == 0 then
	redis.call('del', key)
else
	redis.call('pexpire', key, math.max(tonumber(furthest[2]) - now, 1))
end
if not holding then
	return 0
end
return (#grants > 0) and 3 or 1
