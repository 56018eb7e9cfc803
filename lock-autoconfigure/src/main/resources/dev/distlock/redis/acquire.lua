-- Acquires a lock and grants it the next fencing token, in one atomic step.
-- KEYS[1] lock key, KEYS[2] the fencing counter shared by the locks of its hash slot; ARGV[1] owner token,
-- ARGV[2] lease in ms.
-- Returns the fencing token (1 or more) if acquired, else -1 minus the holder's remaining lease in ms.
if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
	return redis.call('incr', KEYS[2])
end
local remaining = redis.call('pttl', KEYS[1])
if remaining == -1 then
	-- Set by something else without an expiry: report it as held for long.
	remaining = 2147483647
elseif remaining < 0 then
	remaining = 0
end
return -1 - remaining
