-- Acquires a lock and grants it the next block of fencing tokens, in one atomic step. A caller
-- that is going to wait takes a place in the lock's queue instead, so that a release hands it the
-- lock. The holder uses the first token of the block; threads of its process that the lock
-- passes to without Redis use the others, so that tokens still increase with every holder.
-- Tokens never fall below this server's clock in microseconds, so that they keep increasing when
-- the counter is lost (a restart without persistence, an older snapshot, a lagging replica).
-- KEYS[1] lock key; KEYS[2] the fencing counter shared by the locks of its hash slot; KEYS[3] the
-- lock's queue (a list of waiters' owner tokens in arrival order); KEYS[4] the waiters' entries
-- (a hash: owner token -> "<valid until, ms by this server's clock> <claim window ms> <block> <publish
-- command> <channel>"; release.lua also reads "<valid until> <claim window> <block> <channel>", as
-- older versions of this script wrote it, as a classic channel).
-- ARGV[1] owner token; ARGV[2] lease in ms; ARGV[3] channel on which the caller is told that it
-- was handed the lock, empty to stay out of the queue; ARGV[4] ms the place in the queue stays
-- valid unless another attempt renews it; ARGV[5] how many fencing tokens to reserve (1 or more);
-- ARGV[6] '1' if an earlier attempt of this acquisition may have queued it, else '0'; ARGV[7] the
-- claim window in ms: how long a release that hands the caller the lock keeps it until the caller
-- confirms it (the caller counts its validity from the same figure); ARGV[8] how to tell the caller:
-- 'publish', or 'spublish' for a sharded channel in the lock's slot (a cluster, Redis 7.0+).
-- ARGV[9] and KEYS[5], only with the restart quarantine (distlock.restart-quarantine): its length in
-- ms, and its key, in the slot of the counter.
-- While anyone waits in the queue, the lock's value is the holder's owner token followed by
-- '+queued' (the queued mark): a caller that takes a place in the queue marks it, and a grant or a
-- hand-over that leaves waiters behind sets it marked. An owner therefore holds the lock when the
-- value is its token, marked or not; and a release that compares the value with the token alone
-- (a native conditional delete, DELEX ... IFEQ or DELIFEQ, or delete-if-equal.lua) fails while
-- anyone waits, so that the release script hands the lock over instead.
-- Returns {1, first fencing token of the block} if acquired, else {0, the holder's remaining
-- lease in ms, the fencing counter}: a hand-over at or below that counter came before this
-- attempt and is void; or, during a restart quarantine, {0, ms left of it, the counter, 1}.
-- The restart quarantine ("delayed restarts", done by the lock): the fencing counter never expires,
-- so a server without it has lost distlock's state (a restart without persistence, a flush, an
-- eviction) or never had it. The first script to find it gone starts the quarantine: the counter is
-- set to this server's clock in microseconds (so that it is found again), and KEYS[5] to the end of
-- the quarantine by this server's clock in ms, expiring then. Until KEYS[5] is gone no lock is granted:
-- the caller is told the lock is held for the rest of the quarantine, and waits as for a held lock,
-- without a place in the queue (nobody releases, so nobody would hand it over). Without ARGV[9] the
-- script neither reads nor writes KEYS[5].
-- Everything that can fail is checked before anything is written (Redis does not roll a script
-- back): a counter that is not a number below 2^53 (the largest a Lua number counts exactly), a queue or entries key of another type. A lock key of
-- another type fails the GET below, also before any write; a read-write lock's or a semaphore's
-- (a sorted set) with a LOCKKIND error that says so.
-- The restart quarantine (above): returns the ms during which no lock may be granted (0 if none),
-- and the fencing counter, starting the quarantine if the counter is gone. The other scripts carry
-- the same function.
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
local block = tonumber(ARGV[5])
local counter = redis.call('get', KEYS[2])
if counter and not (string.match(counter, '^%d+$') and tonumber(counter) < 9007199254740992) then
	return redis.error_reply('WRONGTYPE the fencing counter ' .. KEYS[2] .. ' does not hold a number')
end
local queuing = ARGV[3] ~= '' or ARGV[6] == '1'
if queuing then
	for i, kind in ipairs({'list', 'hash'}) do
		local found = redis.call('type', KEYS[i + 2])['ok']
		if found ~= 'none' and found ~= kind then
			return redis.error_reply('WRONGTYPE ' .. KEYS[i + 2] .. ' holds a ' .. found .. ', not a ' .. kind)
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
-- A key of another type fails the GET: a shared lock's sorted set is named as such.
local function wrongKind(failed, asked)
	if redis.call('type', KEYS[1])['ok'] == 'zset' then
		local first = string.gsub(redis.call('zrange', KEYS[1], 0, 0)[1] or '', '^released:', '')
		local permits = string.match(first, '^s(%d+)%.')
		return redis.error_reply('LOCKKIND key ' .. KEYS[1] .. ' is ' .. (permits and ('a semaphore of ' .. permits
			.. ' permits') or 'a read-write lock') .. ', this call ' .. asked)
	end
	return failed
end
local function grant()
	local time = redis.call('time')
	local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
	local first = math.max(counter + 1, now)
	redis.call('set', KEYS[2], string.format('%d', first + block - 1))
	return {1, first}
end
local QUEUED = '+queued'
if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
	if ARGV[6] == '1' and redis.call('hdel', KEYS[4], ARGV[1]) == 1 then
		-- It had a place in the queue, and found the lock free (its holder's lease ran out).
		redis.call('lrem', KEYS[3], 1, ARGV[1])
		if redis.call('lindex', KEYS[3], 0) then
			redis.call('set', KEYS[1], ARGV[1] .. QUEUED, 'KEEPTTL')
		end
	end
	return grant()
end
local current = redis.pcall('get', KEYS[1])
if type(current) == 'table' then
	return wrongKind(current, 'asks for an exclusive lock')
end
if current == ARGV[1] or current == ARGV[1] .. QUEUED then
	-- A release handed the lock to this caller, and the message saying so was lost or is late:
	-- take it with a fresh lease and a new fencing token.
	redis.call('pexpire', KEYS[1], ARGV[2])
	return grant()
end
if ARGV[3] ~= '' then
	local time = redis.call('time')
	local validUntil = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000) + tonumber(ARGV[4])
	if redis.call('hset', KEYS[4], ARGV[1], string.format('%d %s %d %s %s', validUntil, ARGV[7], block, ARGV[8], ARGV[3])) == 1 then
		redis.call('rpush', KEYS[3], ARGV[1])
	end
	-- The queue lives as long as its most recently renewed place.
	redis.call('pexpire', KEYS[3], ARGV[4])
	redis.call('pexpire', KEYS[4], ARGV[4])
	-- Marked, so that the holder's release hands the lock over (see above); a lock kept for
	-- its minimum hold ('released:<token>') is not released again, and a mark stays.
	if not string.find(current, QUEUED, 1, true) and not string.find(current, '^released:') then
		redis.call('set', KEYS[1], current .. QUEUED, 'KEEPTTL')
	end
end
local remaining = redis.call('pttl', KEYS[1])
if remaining == -1 then
	-- Set by something else without an expiry: report it as held for long.
	remaining = 2147483647
elseif remaining < 0 then
	remaining = 0
end
return {0, remaining, counter}
