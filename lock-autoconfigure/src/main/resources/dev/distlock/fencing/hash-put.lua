-- Fenced HSET of one field: writes ARGV[3] to field ARGV[2] of the hash KEYS[1] only if the
-- fencing token stored for that field in the hash KEYS[2] is not above the writer's token
-- ARGV[1], and stores the token there. Returns {1, token} when written, {0, stored token}
-- when refused.
local stored = redis.call('HGET', KEYS[2], ARGV[2])
if stored and tonumber(stored) > tonumber(ARGV[1]) then
	return {0, stored}
end
redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
redis.call('HSET', KEYS[2], ARGV[2], ARGV[1])
return {1, ARGV[1]}
