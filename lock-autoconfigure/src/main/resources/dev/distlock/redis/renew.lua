-- Renews the leases of many locks in one round trip, each only if it still holds its owner's token.
-- KEYS lock keys (one hash slot in a cluster); ARGV[1] lease in ms; ARGV[i + 1] owner token of KEYS[i].
-- Returns, per key, 1 if renewed and 0 if the lock was gone or someone else's.
-- Every key is read before any is extended, so that a key of another type fails the script
-- before it has written anything (Redis does not roll a script back).
local renewed = {}
for i = 1, #KEYS do
	renewed[i] = (redis.call('get', KEYS[i]) == ARGV[i + 1]) and 1 or 0
end
for i = 1, #KEYS do
	if renewed[i] == 1 then
		redis.call('pexpire', KEYS[i], ARGV[1])
	end
end
return renewed
