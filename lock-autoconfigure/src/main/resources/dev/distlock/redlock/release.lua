-- Releases a RedLock hold on one node, only if the caller holds the lock here.
-- KEYS[1] lock key. ARGV[1] owner token.
-- Returns 1 if released, else 0 (the lock was not the caller's here: never granted, expired, or
-- already released).
if redis.call('get', KEYS[1]) == ARGV[1] then
	redis.call('del', KEYS[1])
	return 1
end
return 0
