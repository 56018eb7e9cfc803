-- RedLock phase 2 on one node: stores the fencing token the client chose (the greatest candidate
-- of the nodes that granted) in the lock's counter, only while the caller still holds the lock
-- here, so that the next grant on this node returns a greater one.
-- KEYS[1] lock key; KEYS[2] the lock's fencing counter. ARGV[1] owner token; ARGV[2] the token.
-- Returns 1 if the caller holds the lock here (the counter is then at least the token), else 0.
if redis.call('get', KEYS[1]) ~= ARGV[1] then
	return 0
end
local counter = tonumber(redis.call('get', KEYS[2]) or '0')
if tonumber(ARGV[2]) > counter then
	redis.call('set', KEYS[2], ARGV[2])
end
return 1
