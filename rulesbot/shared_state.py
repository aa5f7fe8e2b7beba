"""State shared by every worker process and replica through Redis (issue 13): the rate limit and the answer cache.

    link = RedisLink.from_url("redis://cache:6379/0")
    limiter = SharedTokenBucketLimiter(link, "requests", per_minute=120)       # same take()/charge() as in-process
    cache = SharedAnswerCache(link, local=AnswerCache(4096), namespace=lambda game: "v1:abc")

Without RULESBOT_REDIS_URL nothing here is used (rulesbot.api keeps its in-process bucket and LRU). With it, N
workers or N replicas enforce one limit per client and share one cache:

- the limit is the same cost-weighted token bucket as rulesbot.api.limits.TokenBucketLimiter (`take(client, cost)`
  spends or says how long to wait, `charge(client, amount)` spends after the fact, a debt at most a bucket's worth),
  one Lua script per call so that a read-refill-write is atomic across processes, on Redis's own clock (replicas'
  clocks may differ);
- the cache keeps a process-local LRU in front of Redis (a hit costs no round trip) and writes through to Redis,
  whose entries expire and are keyed on the rulesbot version and the knowledge the index was built from, so an
  updated rulebook is never answered from an old entry.

Redis down: every call falls back at once to the in-process bucket and LRU (one warning in the log), and Redis is
tried again every RETRY_SECONDS; the first call that succeeds logs that it is back. Never a 5xx because of Redis.
Timeouts are short because the limiter runs on the event loop: a Redis that hangs costs one call SOCKET_TIMEOUT
seconds per retry period, not every request.
"""

import hashlib
import json
import logging
import math
import threading
import time
from collections.abc import Callable
from typing import Any

logger = logging.getLogger("rulesbot.shared_state")

SOCKET_TIMEOUT_SECONDS = 0.25
RETRY_SECONDS = 2.0
KEY_PREFIX = "rulesbot"
# Entries of the shared answer cache expire (a knowledge update is also a new key: see the namespace).
ANSWER_TTL_SECONDS = 24 * 3600
# A limit bucket idle for longer than it takes to refill is full again: Redis may forget it (plus a margin).
BUCKET_TTL_MARGIN_SECONDS = 60

# KEYS[1]: the bucket; ARGV: capacity, rate (tokens a second), amount, mode ("take" or "charge"), ttl seconds.
# Returns the seconds to wait (as a string: Redis turns Lua numbers into integers).
_BUCKET_SCRIPT = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) + tonumber(clock[2]) / 1000000
local capacity = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local amount = tonumber(ARGV[3])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1])
local at = tonumber(state[2])
if tokens == nil or at == nil then
  tokens = capacity
  at = now
end
tokens = math.min(capacity, tokens + math.max(0, now - at) * rate)
local wait = 0
if ARGV[4] == 'take' then
  if tokens >= amount then
    tokens = tokens - amount
  else
    wait = (amount - tokens) / rate
  end
else
  tokens = math.max(-capacity, tokens - amount)
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[5]))
return tostring(wait)
"""


class RedisLink:
    """One Redis client with a circuit breaker: calls go to Redis while it answers, to a fallback while it doesn't."""

    def __init__(self, client: Any, *, label: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.client = client
        self.label = label
        self.clock = clock
        self._retry_at = 0.0
        self._down = False
        self._lock = threading.Lock()

    @classmethod
    def from_url(cls, url: str) -> "RedisLink":
        """A link to the Redis at `url` (redis://, rediss:// or unix://); connects lazily, so Redis may be down."""
        import redis

        client = redis.Redis.from_url(
            url,
            socket_timeout=SOCKET_TIMEOUT_SECONDS,
            socket_connect_timeout=SOCKET_TIMEOUT_SECONDS,
            health_check_interval=30,
        )
        return cls(client, label=safe_url(url))

    @property
    def up(self) -> bool:
        """False while the last call failed and the retry period has not passed."""
        return not self._down

    def run(self, operation: Callable[[Any], Any], fallback: Callable[[], Any]) -> Any:
        """`operation(client)`, or `fallback()` when Redis is (or was just found) unreachable."""
        from redis.exceptions import RedisError

        if self._down and self.clock() < self._retry_at:
            return fallback()
        try:
            result = operation(self.client)
        except (RedisError, OSError) as error:
            self._mark_down(error)
            return fallback()
        if self._down:
            with self._lock:
                if self._down:
                    self._down = False
                    logger.warning("Redis at %s is back: the rate limit and answer cache are shared again", self.label)
        return result

    def close(self) -> None:
        """Release the connections."""
        try:
            self.client.close()
        except Exception:  # noqa: BLE001 - closing a dead connection must not fail a shutdown
            pass

    def _mark_down(self, error: Exception) -> None:
        with self._lock:
            self._retry_at = self.clock() + RETRY_SECONDS
            if not self._down:
                self._down = True
                logger.warning(
                    "Redis at %s is unreachable (%s): the rate limit and answer cache are per process until it is "
                    "back (answers are not affected)",
                    self.label,
                    _first_line(error),
                )


class SharedTokenBucketLimiter:
    """Per-client token buckets in Redis, `per_minute` tokens a minute (a minute's worth of burst), same interface
    as the in-process TokenBucketLimiter, which it falls back to while Redis is unreachable."""

    def __init__(self, link: RedisLink, name: str, per_minute: float, *, local: Any = None) -> None:
        from rulesbot.api.limits import TokenBucketLimiter

        self.link = link
        self.name = name
        self.capacity = float(per_minute)
        self.rate = per_minute / 60.0
        self.local = local if local is not None else TokenBucketLimiter(per_minute)
        self._ttl = math.ceil(self.capacity / self.rate) + BUCKET_TTL_MARGIN_SECONDS
        self._script = link.client.register_script(_BUCKET_SCRIPT)

    def take(self, client: str, cost: float = 1.0) -> float:
        """Spend `cost` tokens: 0 if allowed, else the seconds until there are enough."""
        return self._call(client, cost, "take", lambda: self.local.take(client, cost))

    def charge(self, client: str, amount: float) -> None:
        """Spend `amount` tokens whatever is left (a debt of at most a bucket's worth)."""
        self._call(client, amount, "charge", lambda: self.local.charge(client, amount))

    def _call(self, client: str, amount: float, mode: str, fallback: Callable[[], Any]) -> float:
        key = f"{KEY_PREFIX}:limit:{self.name}:{client}"
        arguments = [repr(self.capacity), repr(self.rate), repr(float(amount)), mode, self._ttl]
        result = self.link.run(lambda redis: self._script(keys=[key], args=arguments, client=redis), fallback)
        return float(result or 0.0)


class SharedAnswerCache:
    """The answer cache of every process: a local LRU in front, Redis behind (write-through, entries expire)."""

    def __init__(
        self, link: RedisLink, *, local: Any, namespace: Callable[[str], str | None], ttl: int = ANSWER_TTL_SECONDS
    ):
        # `namespace(game)`: what a cached answer for that game depends on (rulesbot version, the game's knowledge);
        # None while that game's knowledge is not loaded here, and then Redis is skipped for it (a miss).
        self.link = link
        self.local = local
        self.namespace = namespace
        self.ttl = ttl

    def get(self, key: tuple) -> dict | None:
        """The cached contract (local first, then Redis), or None."""
        value = self.local.get(key)
        if value is not None:
            return value
        shared_key = self._redis_key(key)
        if shared_key is None:
            return None
        raw = self.link.run(lambda redis: redis.get(shared_key), lambda: None)
        if raw is None:
            return None
        try:
            value = json.loads(raw)
        except (TypeError, ValueError):  # a foreign or truncated entry is a miss, not an error
            return None
        self.local.put(key, value)
        return value

    def put(self, key: tuple, value: dict) -> None:
        """Remember a contract here and in Redis."""
        self.local.put(key, value)
        shared_key = self._redis_key(key)
        if shared_key is None:
            return
        payload = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        self.link.run(lambda redis: redis.set(shared_key, payload, ex=self.ttl), lambda: None)

    def close(self) -> None:
        """Release the Redis connections."""
        self.link.close()

    def __len__(self) -> int:
        return len(self.local)

    def _redis_key(self, key: tuple) -> str | None:
        # The answer cache's keys are (question, lang, game, context...): the game picks the knowledge namespace.
        namespace = self.namespace(key[2] if len(key) > 2 else "")
        if namespace is None:
            return None
        digest = hashlib.sha256(json.dumps([namespace, *key], ensure_ascii=False).encode("utf-8")).hexdigest()
        return f"{KEY_PREFIX}:answer:{digest[:40]}"


def knowledge_namespace(bot: Any, game: str | None = None) -> str | None:
    """What a cached answer depends on besides the question: the rulesbot version and the knowledge it answers from
    (that game's index knowledge hash; without a dense index, the packs' records). None when packs load lazily and
    `game`'s index is not open in this process yet: its answers are then not shared until it is."""
    from rulesbot import __version__

    manifests = getattr(bot, "index_manifests", None)
    if game and isinstance(manifests, dict) and manifests:
        if game not in manifests:
            return None
        manifest = manifests[game]
    else:
        manifest = getattr(bot, "index_manifest", None)
    knowledge = getattr(manifest, "knowledge_hash", None)
    if not knowledge:
        packs = getattr(bot, "packs", None) or {}
        digest = hashlib.sha256()
        for game in sorted(packs):
            for entry in getattr(packs[game], "entries", ()):
                digest.update(f"{entry.id}\x1f{entry.text}\x1e".encode())
        knowledge = digest.hexdigest()[:16]
    return f"{__version__}:{knowledge}"


def safe_url(url: str) -> str:
    """The URL without its password (for logs)."""
    try:
        from redis.connection import parse_url

        parts = parse_url(url)
    except Exception:  # noqa: BLE001 - an unparsable URL is shown by its host part only
        return url.rsplit("@", 1)[-1]
    host = parts.get("host") or parts.get("path") or "?"
    port = f":{parts['port']}" if parts.get("port") else ""
    return f"{host}{port}/{parts.get('db', 0)}"


def _first_line(error: Exception) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
