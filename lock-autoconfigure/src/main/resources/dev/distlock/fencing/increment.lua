-- Fenced INCRBY: adds ARGV[2] to the integer KEYS[1] only if the fencing token stored in
-- KEYS[2] (a string beside the data) is not above the writer's token ARGV[1], and stores
-- the token. Returns {1, new value} when written, {0, stored token} when refused.
local stored = redis.call('GET', KEYS[2])
if stored and tonumber(stored) > tonumber(ARGV[1]) then
	return {0, stored}
end
local value = redis.call('INCRBY', KEYS[1], ARGV[2])
redis.call('SET', KEYS[2], ARGV[1])
return {1, value}
