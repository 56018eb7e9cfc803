-- Renews the leases of many locks in one round trip, each only if it still holds its owner's token.
-- KEYS lock keys (one hash slot in a cluster); ARGV[1] lease in ms; ARGV[i + 1] owner token of KEYS[i].
-- A lease written with a leading '>' only raises a lock's expiry (and a shared hold's member score)
-- to it, never lowers it: a hand-over's confirmation, which must not undo an extension its holder
-- sent meanwhile.
-- Returns, per key, 1 if renewed and 0 if the lock was gone or someone else's.
-- A token with a '.' holds a shared lock (see shared-acquire.lua): its member's score is set to the
-- lease's new end, only if the member is there and its lease has not ended, and the key's expiry
-- is raised to at least the lease. Any other token holds an exclusive lock: the key's value, alone
-- or followed by the queued mark '+queued' (see acquire.lua).
-- Every key is read before any is extended, so that a key of another type fails the script
-- before it has written anything (Redis does not roll a script back).
local renewed = {}
local now
for i = 1, #KEYS do
	local token = ARGV[i + 1]
	if string.find(token, '.', 1, true) then
		if not now then
			local time = redis.call('time')
			now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
		end
		local score = redis.call('zscore', KEYS[i], token)
		renewed[i] = (score and tonumber(score) > now) and 2 or 0
	else
		local value = redis.call('get', KEYS[i])
		renewed[i] = (value == token or value == token .. '+queued') and 1 or 0
	end
end
local raiseOnly = string.sub(ARGV[1], 1, 1) == '>'
local lease = tonumber(raiseOnly and string.sub(ARGV[1], 2) or ARGV[1])
for i = 1, #KEYS do
	if renewed[i] == 1 then
		if not raiseOnly or redis.call('pttl', KEYS[i]) < lease then
			redis.call('pexpire', KEYS[i], lease)
		end
	elseif renewed[i] == 2 then
		if raiseOnly then
			redis.call('zadd', KEYS[i], 'XX', 'GT', now + lease, ARGV[i + 1])
		else
			redis.call('zadd', KEYS[i], 'XX', now + lease, ARGV[i + 1])
		end
		if redis.call('pttl', KEYS[i]) < lease then
			redis.call('pexpire', KEYS[i], lease)
		end
		renewed[i] = 1
	end
end
return renewed
