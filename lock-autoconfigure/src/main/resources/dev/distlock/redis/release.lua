-- Releases a lock only if it still holds this acquisition's token.
-- KEYS[1] lock key; ARGV[1] owner token; ARGV[2] ms the lock must still be kept (minimum hold), 0 for none;
-- ARGV[3] channel told about releases, so that waiters retry at once.
-- Returns 1 if deleted, 2 if left to expire when the minimum hold ends, 0 if the lock was gone or someone else's.
if redis.call('get', KEYS[1]) ~= ARGV[1] then
	return 0
end
local keep = tonumber(ARGV[2])
if keep > 0 then
	redis.call('pexpire', KEYS[1], keep)
	return 2
end
redis.call('del', KEYS[1])
redis.call('publish', ARGV[3], KEYS[1])
return 1
