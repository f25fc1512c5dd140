"""The shared cache's Redis backend: Django's, keeping one Redis client per connection pool.

Responsible for: ``RedisCache`` (settings.CACHES when CACHE_URL is set). Django's own
RedisCacheClient builds a new ``redis.Redis`` object around its connection pool for every
``get``, ``add`` or ``incr``; that object is most of the call's CPU (≈ 0.2 ms a read against
≈ 0.04 ms for the read itself, benchmarks/results_path.py). The table-link throttle
(config.security) reads its counter on every table request, so this backend builds the client
once per pool and reuses it (a ``redis.Redis`` is safe to share: it takes a connection from
the pool for each command). Everything else is Django's.

Must not: change what the cache stores or how keys, timeouts and serialization work.
"""

from __future__ import annotations

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient


class ReusingRedisCacheClient(RedisCacheClient):
    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        clients = self.__dict__.setdefault("_clients_by_pool", {})
        client = clients.get(id(pool))
        if client is None:
            client = clients[id(pool)] = self._client(connection_pool=pool)
        return client


class RedisCache(DjangoRedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = ReusingRedisCacheClient
