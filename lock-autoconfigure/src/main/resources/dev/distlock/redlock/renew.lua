-- Renews a RedLock hold on one node, only while the caller holds the lock here.
-- KEYS[1] lock key. ARGV[1] owner token; ARGV[2] lease in ms.
-- Returns 1 if renewed, else 0 (the lock is not the caller's here).
if redis.call('get', KEYS[1]) == ARGV[1] then
	redis.call('pexpire', KEYS[1], ARGV[2])
	return 1
end
return 0
