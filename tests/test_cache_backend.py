"""The shared cache's Redis backend (config/cache.py): Django's, with one Redis client per
connection pool instead of one per call; counters behave as before. Needs a Redis server
(CACHE_TEST_URL, default redis://127.0.0.1:6379/7); skipped without one, failed under CI."""

from __future__ import annotations

import os
import uuid

import pytest
import redis

from config.cache import RedisCache

URL = os.environ.get("CACHE_TEST_URL", "redis://127.0.0.1:6379/7")


@pytest.fixture
def cache():
    try:
        redis.Redis.from_url(URL, socket_connect_timeout=1).ping()
    except redis.RedisError:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"no Redis at {URL}")
    return RedisCache(URL, {"KEY_PREFIX": f"test-{uuid.uuid4().hex}"})


def test_counters_work_as_with_django_s_backend(cache):
    assert cache.get("misses") is None
    assert cache.add("misses", 1, timeout=60) is True
    assert cache.add("misses", 1, timeout=60) is False  # taken: the throttle then increments
    assert cache.incr("misses") == 2 and cache.get("misses") == 2
    cache.delete("misses")
    assert cache.get("misses", 0) == 0


def test_one_client_per_pool(cache):
    client = cache._cache.get_client("a")
    assert cache._cache.get_client("b") is client
    assert cache._cache.get_client("c", write=True) is client  # one server: one pool
