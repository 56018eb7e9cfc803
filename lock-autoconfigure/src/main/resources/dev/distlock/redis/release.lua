-- Compare-and-delete: removes the lock only if it still holds this acquisition's token.
-- KEYS[1] lock key, ARGV[1] owner token. Returns 1 if deleted, 0 if the lock was gone or someone else's.
if redis.call('get', KEYS[1]) == ARGV[1] then
	return redis.call('del', KEYS[1])
end
return 0
