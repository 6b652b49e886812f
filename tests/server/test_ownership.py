"""A process that cannot renew its leases (Redis unreachable, the process paused) lets
every table go before the leases can run out -- so another process adopting them never
plays a table this one still plays.  And a Redis that forgot a lease (a restart, a
flush) gives it back to its holder instead of making every process drop its tables."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace
from typing import Any, cast

import pytest

from tute.server.cluster.ownership import FENCE, Ownership


class Unreachable:
    """A cluster whose Redis does not answer."""

    lease_seconds = 1.0
    pid = "here-1-abc"
    address = "http://127.0.0.1:1"

    async def beat(self) -> None:
        raise ConnectionError("Redis is not answering")

    async def renew(self, table_ids: list[str]) -> list[str]:
        raise ConnectionError("Redis is not answering")

    async def claim(self, table_id: str) -> bool:
        raise ConnectionError("Redis is not answering")

    async def release(self, table_id: str, holder: str | None = None) -> None:
        raise ConnectionError("Redis is not answering")


class Table:
    def __init__(self, table_id: str) -> None:
        self.id = table_id
        self.moved = False
        self.shut_down = False

    def shut(self) -> None:
        self.shut_down = True


def test_no_renewal_for_most_of_the_lease_and_every_table_goes() -> None:
    tables = {t: Table(t) for t in ("a1", "b2")}
    lobby = SimpleNamespace(tables=dict(tables), claim=None, release=None)
    own = Ownership(cast(Any, Unreachable()), cast(Any, lobby))

    async def go() -> None:
        own.renewed_at = time.monotonic()
        with pytest.raises(ConnectionError):
            await own.renew_or_fence()
        assert set(lobby.tables) == {"a1", "b2"}          # a moment: kept
        own.renewed_at = time.monotonic() - FENCE * own.cluster.lease_seconds - 0.01
        with pytest.raises(ConnectionError):
            await own.renew_or_fence()
    asyncio.run(go())
    assert lobby.tables == {}
    assert all(t.moved and t.shut_down for t in tables.values())


def test_a_lease_redis_forgot_is_taken_again_by_its_holder() -> None:
    redis = pytest.importorskip("redis")
    try:
        redis.Redis.from_url("redis://127.0.0.1:6379/0", socket_connect_timeout=3).ping()
    except Exception as e:
        pytest.skip(f"Redis is not reachable at 127.0.0.1:6379 ({e})")
    from tute.server.cluster.bus import Cluster

    async def go() -> None:
        a = Cluster("redis://127.0.0.1:6379/0", "test-forgotten-lease", "http://a", 5.0)
        b = Cluster("redis://127.0.0.1:6379/0", "test-forgotten-lease", "http://b", 5.0)
        try:
            await a.join()
            await b.join()
            assert a.peer_key == b.peer_key
            assert await a.claim("t1") and not await b.claim("t1")
            await a.redis.delete(a.ns + "lease:t1", a.ns + "peer")   # Redis forgot
            assert await a.renew(["t1"]) == []                # taken again, kept
            assert await a.owner("t1") == a.pid
            assert await b.renew(["t1"]) == ["t1"]            # not b's
            await b.beat()                                    # the key put back as it was
            assert await b.redis.get(b.ns + "peer") == a.peer_key
        finally:
            await a.redis.delete(a.ns + "lease:t1")
            await a.close()
            await b.close()
    asyncio.run(go())
