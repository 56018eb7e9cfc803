-- Deletes a lock only if its value is exactly the owner token, as the native conditional deletes
-- of newer servers do (DELEX key IFEQ token on Redis 8.4, DELIFEQ key token on Valkey 9): the
-- release of an exclusive lock that nobody waits for, on a server that has neither. It reads and
-- writes the lock's key only, as a blog lock's release does. While anyone waits, the lock's value
-- carries the queued mark (see acquire.lua): nothing is deleted, and the caller runs release.lua,
-- which hands the lock over. A key of another type is not deleted either: release.lua names it.
-- KEYS[1] lock key; ARGV[1] owner token.
-- Returns 1 if deleted, else 0.
if redis.pcall('get', KEYS[1]) == ARGV[1] then
	return redis.call('del', KEYS[1])
end
return 0
