-- Reports the state of a lock without revealing its owner token.
-- KEYS[1] lock key; ARGV owner tokens this client holds the key with (usually none or one).
-- Returns {remaining time to live in ms (-2 if there is no such key, -1 if it never expires),
-- the index in ARGV of the token that holds the key (1 or more), or 0 if none of them does}.
local ttl = redis.call('pttl', KEYS[1])
if ttl ~= -2 and #ARGV > 0 then
	local value = redis.pcall('get', KEYS[1])
	for i = 1, #ARGV do
		if value == ARGV[i] then
			return {ttl, i}
		end
	end
end
return {ttl, 0}
