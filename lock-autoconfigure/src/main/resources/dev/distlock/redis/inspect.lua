-- Reports the state of a lock without revealing any owner token.
-- KEYS[1] lock key; KEYS[2] the entries of the lock's waiters (a hash: owner token -> "<valid until,
-- ms by this server's clock> ..."); KEYS[3] the lock's queue (a list of the waiters' owner tokens);
-- ARGV owner tokens this client holds the key with.
-- An exclusive lock (a string) or no key: returns {remaining time to live in ms (-2 if there is no
-- such key, -1 if it never expires), the index in ARGV of the token that holds the key (1 or more),
-- or 0 if none of them does}.
-- A read-write lock or a semaphore (a sorted set: member = a holder's owner token, score = its
-- lease expiry in ms by this server's clock): returns {remaining time to live in ms, -1, the
-- permits of a semaphore (0 for a read-write lock), the number of waiters whose place is valid,
-- then per holder whose lease has not ended, earliest expiry first: its kind (1 reader 'r.', 2
-- writer 'w.', 3 permit 's<N>.', also when released and kept until its minimum hold ends as
-- 'released:<token>'; 0 a token of another form), its remaining lease in ms, and the index in ARGV
-- of its token (0 if it is not one of them, or released)}. Nothing is written.
local ttl = redis.call('pttl', KEYS[1])
if ttl == -2 or redis.call('type', KEYS[1])['ok'] ~= 'zset' then
	if ttl ~= -2 and #ARGV > 0 then
		local value = redis.pcall('get', KEYS[1])
		for i = 1, #ARGV do
			-- Alone, or followed by the queued mark (see acquire.lua).
			if value == ARGV[i] or value == ARGV[i] .. '+queued' then
				return {ttl, i}
			end
		end
	end
	return {ttl, 0}
end
local time = redis.call('time')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local mine = {}
for i = 1, #ARGV do
	mine[ARGV[i]] = i
end
-- Only commands the lock's own scripts use, so that the ACL rule of docs/configuration.md suffices.
local waiters = 0
if redis.call('type', KEYS[2])['ok'] == 'hash' and redis.call('type', KEYS[3])['ok'] == 'list' then
	for _, waiter in ipairs(redis.call('lrange', KEYS[3], 0, -1)) do
		local entry = redis.call('hget', KEYS[2], waiter)
		local validUntil = entry and tonumber(string.match(entry, '^(%d+)'))
		if validUntil and validUntil > now then
			waiters = waiters + 1
		end
	end
end
local reply = {ttl, -1, 0, waiters}
local holders = redis.call('zrange', KEYS[1], '(' .. now, '+inf', 'BYSCORE', 'WITHSCORES')
for i = 1, #holders, 2 do
	local token = holders[i]
	-- A hold released before its minimum hold ended stays, renamed, until the hold ends.
	local held = string.gsub(token, '^released:', '')
	local kind = 0
	local permits = string.match(held, '^s(%d+)%.')
	if permits then
		kind = 3
		reply[3] = tonumber(permits)
	elseif string.match(held, '^r%.') then
		kind = 1
	elseif string.match(held, '^w%.') then
		kind = 2
	end
	table.insert(reply, kind)
	table.insert(reply, tonumber(holders[i + 1]) - now)
	table.insert(reply, mine[token] or 0)
end
return reply
