-- Releases a lock only if it still holds this acquisition's token, and hands it to the first
-- waiter in its queue whose place is still valid: the lock is set to that waiter's token for the
-- short claim window its entry names, the waiter's block of fencing tokens is reserved,
-- and the waiter alone is told the first token and the size of the block, on its channel. The
-- waiter confirms the hand-over by extending the key to its lease; a waiter that died meanwhile
-- keeps the lock only for the claim window. Tokens never fall below this server's clock in
-- microseconds (see acquire.lua).
-- With nobody waiting the lock is deleted and nothing is published. The lock's value is the owner
-- token, or the owner token with the queued mark while anyone waits (see acquire.lua). A release
-- of an unmarked lock is normally a conditional delete instead (delete-if-equal.lua, or the
-- server's DELEX ... IFEQ or DELIFEQ), which frees it even for a waiter left unmarked (queued by
-- an older acquire.lua, or before the holder took a free lock): that waiter takes it with its
-- next attempt. This script, run for a marked lock or a lock name last found taken, looks at the
-- queue either way, and hands the lock to such waiters too. A hand-over that leaves others waiting sets the lock marked. A waiter that gives up calls
-- it too: it leaves the queue, and passes the lock on if it was handed it in the meantime.
-- KEYS[1] lock key; KEYS[2] fencing counter; KEYS[3] queue; KEYS[4] waiters' entries (see acquire.lua).
-- ARGV[1] owner token; ARGV[2] ms the lock must still be kept (minimum hold), 0 for none; ARGV[3]
-- '1' if the token may have a place in the queue (a waiter giving up), else '0'.
-- ARGV[4] and KEYS[5], only with the restart quarantine (see acquire.lua): its length in ms and its
-- key. A hand-over is a grant: during a quarantine, or when the counter is gone (which starts one),
-- the lock is deleted instead of handed over, and the waiters take it with their own attempts once
-- the quarantine is over.
-- Returns 1 if deleted, 2 if left to expire when the minimum hold ends, 3 if handed to a waiter,
-- 0 if the lock was gone or someone else's.
-- What can fail is checked before the lock, the counter or the queue's head are written (Redis
-- does not roll a script back): a lock key, queue or entries key of another type (found by the
-- reads themselves, which fail before anything is written), a counter that is not a number below
-- 2^53 (read only to hand over or for the restart quarantine), a channel the user may not publish
-- on. Only a waiter giving up leaves the queue before those checks, which a retry repeats
-- harmlessly. A hand-over runs ten commands: GET, LRANGE, TIME, HGET, GET of the counter, LPOP,
-- HDEL, two SETs and the PUBLISH.
-- Where the permission cannot be checked ahead (Redis 6.2), a refused publish leaves the lock set
-- to the waiter for its claim window: the waiter's next attempt finds it holds the lock, and
-- nobody else gets it.
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
-- A key of the queue's that holds another type: named with the type it holds.
local function notA(key, kind)
	return redis.error_reply('WRONGTYPE ' .. key .. ' holds a ' .. redis.call('type', key)['ok'] .. ', not a ' .. kind)
end
local value = redis.pcall('get', KEYS[1])
if type(value) == 'table' then
	return wrongKind(value, 'releases an exclusive lock')
end
local QUEUED = '+queued'
local owned = value == ARGV[1] or value == ARGV[1] .. QUEUED
local queued = ARGV[3] == '1' or (owned and tonumber(ARGV[2]) == 0)
-- The first two places in the queue: the first waiter to hand over to, and whether another
-- waits behind it. A queue of another type fails here, before anything is written.
local places = {}
if queued then
	places = redis.pcall('lrange', KEYS[3], 0, 1)
	if places.err then
		return notA(KEYS[3], 'list')
	end
	if ARGV[3] == '1' then
		local left = redis.pcall('hdel', KEYS[4], ARGV[1])
		if type(left) == 'table' then
			return notA(KEYS[4], 'hash')
		end
		if left == 1 and #places > 0 then
			redis.call('lrem', KEYS[3], 1, ARGV[1])
			places = redis.call('lrange', KEYS[3], 0, 1)
		end
	end
	queued = #places > 0
end
if not owned then
	return 0
end
local keep = tonumber(ARGV[2])
if keep > 0 then
	-- Kept from everyone until the minimum hold ends, under a value that no renewal of the
	-- released token matches any more.
	redis.call('set', KEYS[1], 'released:' .. ARGV[1], 'PX', keep)
	return 2
end
-- The fencing counter, read once, when it is needed: nothing below changes it before the
-- hand-over (a restart quarantine that starts sets it, but then nothing is handed over).
local counter
local function readCounter()
	counter = redis.call('get', KEYS[2])
	if counter and not (string.match(counter, '^%d+$') and tonumber(counter) < 9007199254740992) then
		return redis.error_reply('WRONGTYPE the fencing counter ' .. KEYS[2] .. ' does not hold a number')
	end
end
if queued and ARGV[4] then
	local failed = readCounter()
	if failed then
		return failed
	end
	if quarantine(KEYS[2], counter, KEYS[5], ARGV[4]) > 0 then
		queued = false
	end
end
-- Find the first waiter whose place is still valid, reading only, so that the permission to tell
-- it can be checked before the queue, the lock or the counter change.
local skipped, waiter, publish, channel, claim, block = 0, nil, nil, nil, nil, nil
local time = queued and redis.call('time')
while queued do
	local candidate = places[skipped + 1]
	if skipped >= #places then
		candidate = redis.call('lindex', KEYS[3], skipped)
	end
	if not candidate then
		break
	end
	local entry = redis.pcall('hget', KEYS[4], candidate)
	if type(entry) == 'table' then
		return notA(KEYS[4], 'hash')
	end
	if entry then
		local validUntil, entryClaim, entryBlock, entryPublish, entryChannel = string.match(entry,
			'^(%d+) (%d+) (%d+) (s?publish) (.*)$')
		if not validUntil then
			-- Rolling upgrade: an entry written by an older acquire.lua reads
			-- '<validUntil> <claim> <block> <channel>' and always names a classic channel. The other way
			-- round, an older release.lua takes 'publish <channel>' of a new entry for the channel and
			-- publishes where nobody listens: the waiter then takes the lock with its next attempt, after
			-- its 1-second backstop, until every instance runs this version (safe, only slower). Where ACLs
			-- allow only channels under the prefix, the older script is refused NOPERM instead, and the
			-- lock is free again when its lease ends.
			validUntil, entryClaim, entryBlock, entryChannel = string.match(entry, '^(%d+) (%d+) (%d+) (.*)$')
			entryPublish = 'publish'
		end
		if validUntil and tonumber(validUntil) > tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000) then
			waiter, claim, block, publish, channel = candidate, entryClaim, tonumber(entryBlock), entryPublish, entryChannel
			break
		end
	end
	-- Gone, or its waiter stopped renewing its place: skipped.
	skipped = skipped + 1
end
if waiter and not ARGV[4] then
	local failed = readCounter()
	if failed then
		return failed
	end
end
-- redis.acl_check_cmd came with Redis 7.0; an older server (the sample's embedded 6.2) cannot
-- check ahead, and fails the PUBLISH itself (it never sees SPUBLISH: sharded channels need 7.0).
-- A sharded channel is in the slot of the script's keys, so SPUBLISH stays on the lock's shard.
if waiter and redis.acl_check_cmd and not redis.acl_check_cmd(publish, channel, '') then
	return redis.error_reply('NOPERM this user has no permissions to ' .. publish .. ' on the release channel ' .. channel)
end
if skipped > 0 then
	-- The skipped places and their entries go (an entry may be gone already).
	for _, gone in ipairs(redis.call('lpop', KEYS[3], skipped)) do
		redis.call('hdel', KEYS[4], gone)
	end
end
if waiter then
	redis.call('lpop', KEYS[3])
	redis.call('hdel', KEYS[4], waiter)
	local micros = tonumber(time[1]) * 1000000 + tonumber(time[2])
	local fence = math.max(tonumber(counter or '0') + 1, micros)
	-- Marked if others still wait, so that the waiter's own release hands the lock on. The place
	-- behind the waiter was read with the first two unless places were skipped.
	local behind = (skipped == 0 and #places > 1) or (skipped > 0 and redis.call('lindex', KEYS[3], 0))
	redis.call('set', KEYS[1], behind and (waiter .. QUEUED) or waiter, 'PX', claim)
	redis.call('set', KEYS[2], string.format('%d', fence + block - 1))
	redis.call(publish, channel, string.format('%s:%d:%d', waiter, fence, block))
	return 3
end
redis.call('del', KEYS[1])
return 1
