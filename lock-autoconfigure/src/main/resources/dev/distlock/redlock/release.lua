-- Releases a RedLock hold on one node, only if the caller holds the lock here, and announces the
-- release on the lock's channel, so that waiters (of any client) try again at once rather than
-- after their pause. The message is the released owner token: a client hears one release from
-- each node and wakes a waiter once per token. The PUBLISH is a pcall: a user who may not publish
-- there still releases, and waiters then fall back to their pause.
-- KEYS[1] lock key. ARGV[1] owner token; ARGV[2] the lock's release channel (LockKeyspace.unlockedChannel).
-- Returns 1 if released, else 0 (the lock was not the caller's here: never granted, expired, or
-- already released).
if redis.call('get', KEYS[1]) == ARGV[1] then
	redis.call('del', KEYS[1])
	if ARGV[2] then
		redis.pcall('publish', ARGV[2], ARGV[1])
	end
	return 1
end
return 0
