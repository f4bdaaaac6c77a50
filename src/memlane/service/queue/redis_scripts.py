"""The Lua scripts of :class:`~memlane.service.queue.redis.RedisJobQueue`: each change to a job runs
as one script, so that the job's hash, its stream entry and the sets that index it change together.

Every script gets ``KEYS`` = stream, job, pending, parked (and its own, after them) and ``ARGV`` =
consumer group, key namespace, now (and its own); :data:`COMMON` is prepended to each.
"""

from __future__ import annotations

# a job's entry is acknowledged *and* deleted once it no longer carries work
COMMON = """
local function drop_entry(entry)
    if entry and entry ~= '' then
        redis.call('XACK', KEYS[1], ARGV[1], entry)
        redis.call('XDEL', KEYS[1], entry)
    end
end
local function park(id, tenant, entry, err)
    redis.call('HSET', KEYS[2], 'status', 'failed', 'error', err, 'updated_at', ARGV[3], 'entry', '')
    drop_entry(entry)
    redis.call('ZREM', KEYS[3], id)
    redis.call('ZADD', KEYS[4], ARGV[3], id)
    redis.call('ZADD', ARGV[2] .. 'parked:' .. tenant, ARGV[3], id)
end
"""

# KEYS[5]: the idempotency key, if any. ARGV: id, tenant, payload, keep (ms), user token ('' for none).
SUBMIT = """
if KEYS[5] then
    local existing = redis.call('GET', KEYS[5])
    if existing then
        local found = redis.call('HGETALL', ARGV[2] .. 'job:' .. existing)
        if #found > 0 then return {0, found} end
    end
end
local entry = redis.call('XADD', KEYS[1], '*', 'job', ARGV[4])
redis.call('HSET', KEYS[2], 'id', ARGV[4], 'tenant', ARGV[5], 'payload', ARGV[6], 'status', 'queued',
    'attempts', 0, 'created_at', ARGV[3], 'updated_at', ARGV[3], 'entry', entry, 'user', ARGV[8],
    'idem', KEYS[5] or '')
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[4])
if ARGV[8] ~= '' then redis.call('SADD', ARGV[2] .. 'user:' .. ARGV[8], ARGV[4]) end
if KEYS[5] then redis.call('SET', KEYS[5], ARGV[4], 'PX', ARGV[7]) end
return {1, redis.call('HGETALL', KEYS[2])}
"""

# ARGV: entry, consumer, max attempts. Nil when the entry no longer carries work (it is dropped).
START = """
local h = redis.call('HMGET', KEYS[2], 'status', 'entry', 'attempts', 'tenant', 'error', 'id')
if not h[1] or h[2] ~= ARGV[4] or (h[1] ~= 'queued' and h[1] ~= 'running') then
    drop_entry(ARGV[4])
    return false
end
local attempts = tonumber(h[3])
if h[1] == 'running' and attempts >= tonumber(ARGV[6]) then
    -- its worker died on every delivery (a job that kills its worker is poison too)
    local err = 'lease expired ' .. attempts .. ' times: the worker stopped mid-job'
    if h[5] then err = err .. '; last error: ' .. h[5] end
    park(h[6], h[4], ARGV[4], err)
    return false
end
redis.call('HSET', KEYS[2], 'status', 'running', 'attempts', attempts + 1, 'updated_at', ARGV[3],
    'consumer', ARGV[5])
return redis.call('HGETALL', KEYS[2])
"""

# ARGV: result, keep (ms). -1 when the job is gone (forgotten), 0 when it was done already.
COMPLETE = """
local h = redis.call('HMGET', KEYS[2], 'status', 'entry', 'tenant', 'id', 'user')
if not h[1] then return -1 end
if h[1] == 'done' then return 0 end
if h[1] == 'failed' then
    redis.call('ZREM', KEYS[4], h[4])
    redis.call('ZREM', ARGV[2] .. 'parked:' .. h[3], h[4])
end
drop_entry(h[2])
redis.call('HSET', KEYS[2], 'status', 'done', 'result', ARGV[4], 'updated_at', ARGV[3], 'entry', '')
redis.call('HDEL', KEYS[2], 'error', 'payload')
redis.call('ZREM', KEYS[3], h[4])
redis.call('PEXPIRE', KEYS[2], ARGV[5])
if h[5] and h[5] ~= '' then
    local done = ARGV[2] .. 'done:' .. h[5]
    redis.call('SREM', ARGV[2] .. 'user:' .. h[5], h[4])
    redis.call('ZADD', done, ARGV[3], h[4])
    redis.call('ZREMRANGEBYSCORE', done, '-inf', '(' .. (tonumber(ARGV[3]) - tonumber(ARGV[5]) / 1000))
    redis.call('PEXPIRE', done, ARGV[5])
end
return 1
"""

# ARGV: the delivery's attempts, error. Back to queued, this delivery uncounted (the store is down).
RELEASE = """
local h = redis.call('HMGET', KEYS[2], 'status', 'attempts', 'entry', 'id')
if not h[1] then return {} end
if h[1] == 'running' and tonumber(h[2]) == tonumber(ARGV[4]) then
    drop_entry(h[3])
    local entry = redis.call('XADD', KEYS[1], '*', 'job', h[4])
    redis.call('HSET', KEYS[2], 'status', 'queued', 'attempts', tonumber(h[2]) - 1, 'error', ARGV[5],
        'updated_at', ARGV[3], 'entry', entry)
end
return redis.call('HGETALL', KEYS[2])
"""

# ARGV: the delivery's attempts. Claims the entry again for its consumer, which resets its idle time.
RENEW = """
local h = redis.call('HMGET', KEYS[2], 'status', 'attempts', 'entry', 'consumer')
if h[1] ~= 'running' or tonumber(h[2]) ~= tonumber(ARGV[4]) or not h[3] or h[3] == '' then return 0 end
local claimed = redis.call('XCLAIM', KEYS[1], ARGV[1], h[4], 0, h[3], 'JUSTID')
return #claimed
"""

# KEYS[5], KEYS[6]: the user's unfinished and finished job sets. ARGV: tenant. Returns how many went.
FORGET = """
local gone = 0
local ids = redis.call('SMEMBERS', KEYS[5])
for _, id in ipairs(redis.call('ZRANGE', KEYS[6], 0, -1)) do table.insert(ids, id) end
for _, id in ipairs(ids) do
    local key = ARGV[2] .. 'job:' .. id
    local h = redis.call('HMGET', key, 'tenant', 'entry', 'idem')
    if h[1] == ARGV[4] then
        drop_entry(h[2])
        redis.call('ZREM', KEYS[3], id)
        redis.call('ZREM', KEYS[4], id)
        redis.call('ZREM', ARGV[2] .. 'parked:' .. h[1], id)
        if h[3] and h[3] ~= '' then redis.call('DEL', h[3]) end
        redis.call('DEL', key)
        gone = gone + 1
    end
end
redis.call('DEL', KEYS[5], KEYS[6])
return gone
"""

# ARGV: the delivery's attempts, error, "1" to park. Only the current delivery may decide.
FAIL = """
local h = redis.call('HMGET', KEYS[2], 'status', 'attempts', 'entry', 'tenant', 'id')
if not h[1] then return {} end
if h[1] == 'running' and tonumber(h[2]) == tonumber(ARGV[4]) then
    if ARGV[6] == '1' then
        park(h[5], h[4], h[3], ARGV[5])
    else
        drop_entry(h[3])
        local entry = redis.call('XADD', KEYS[1], '*', 'job', h[5])
        redis.call('HSET', KEYS[2], 'status', 'queued', 'error', ARGV[5], 'updated_at', ARGV[3],
            'entry', entry)
    end
end
return redis.call('HGETALL', KEYS[2])
"""

# KEYS[5]: the tenant's parked set. ARGV: tenant.
RETRY = """
local h = redis.call('HMGET', KEYS[2], 'status', 'tenant', 'id')
if h[1] ~= 'failed' or h[2] ~= ARGV[4] then return {} end
local entry = redis.call('XADD', KEYS[1], '*', 'job', h[3])
redis.call('HSET', KEYS[2], 'status', 'queued', 'attempts', 0, 'updated_at', ARGV[3], 'entry', entry)
redis.call('ZREM', KEYS[4], h[3])
redis.call('ZREM', KEYS[5], h[3])
redis.call('ZADD', KEYS[3], ARGV[3], h[3])
return redis.call('HGETALL', KEYS[2])
"""
