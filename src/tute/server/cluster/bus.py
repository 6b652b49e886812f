"""What several server processes share in Redis: who is alive, who owns which table.

``tute serve --db postgresql+psycopg://… --bus redis://…`` runs any number of processes
over one PostgreSQL store.  Redis holds only what is short-lived and can be rebuilt:

- **the processes**: ``<ns>proc:<pid>`` -> the address other processes reach it at,
  with a time to live the process renews while it lives;
- **table leases**: ``<ns>lease:<table>`` -> the owner's pid, taken with ``SET NX PX``
  and renewed by the owner (a Lua script renews or frees a lease only for its holder).
  A process that dies stops renewing: within :attr:`Cluster.lease_seconds` the lease is
  free and another process takes the table and resumes it from the store;
- **the lobby's listing**: ``<ns>tables`` -> each table's summary and owner, written by
  the owner, read by every process (rows of processes no longer alive are left out);
- **a key the processes share** (``<ns>peer``), made by the first process: a request
  forwarded by a process carries it, so the owner believes the client address it names
  and nobody else can claim one.

The namespace ``<ns>`` is made from the store's URL: processes over the same database
form one site, and sites (or tests) sharing a Redis never see each other's keys.  The
store stays the truth: a stale owner's write of an event number already stored is
refused by the database's key (table, event number).
"""

from __future__ import annotations

import hashlib
import logging
import os
import secrets
import socket
from typing import TYPE_CHECKING

import msgspec

from tute.server.routes.doors import Door
from tute.server.wire.summary import TableSummary

if TYPE_CHECKING:                # redis (~0.1 s to import) only where a process has a bus
    from redis.asyncio import Redis

_RENEW = """
local holder = redis.call('get', KEYS[1])
if holder == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
if not holder then
  redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
"""


def namespace(db_url: str) -> str:
    """The keys' prefix of the site over ``db_url`` (its secrets never reach Redis)."""
    return "tute:" + hashlib.sha256(db_url.encode()).hexdigest()[:10] + ":"


log = logging.getLogger("tute.server")


class Listed(msgspec.Struct):
    """A table in the shared listing: the process that owns it, its summary, its door."""

    owner: str
    row: TableSummary
    door: Door


_ENCODE = msgspec.json.Encoder().encode
_LISTED = msgspec.json.Decoder(Listed).decode


class Cluster:
    """One process's handle on the site's shared state in Redis."""

    def __init__(self, bus_url: str, db_url: str, address: str,
                 lease_seconds: float = 6.0) -> None:
        from redis.asyncio import Redis
        from redis.exceptions import RedisError

        self.redis: Redis = Redis.from_url(bus_url, decode_responses=True,
                                           socket_timeout=5, socket_connect_timeout=5)
        # what a call to the bus raises when it cannot be reached (the forwarder's)
        self.failures: tuple[type[Exception], ...] = (OSError, RedisError)
        self.ns = namespace(db_url)
        self.address = address                  # how other processes reach this one
        self.pid = f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
        self.lease_seconds = lease_seconds
        self.peer_key = ""
        self._renew = self.redis.register_script(_RENEW)
        self._release = self.redis.register_script(_RELEASE)

    @property
    def ttl_ms(self) -> int:
        return int(self.lease_seconds * 1000)

    # ------------------------------------------------------------------ processes
    async def join(self) -> None:
        """Announce this process and learn the site's peer key (made once)."""
        for _ in range(3):
            await self.redis.set(self.ns + "peer", secrets.token_hex(16), nx=True)
            found = await self.redis.get(self.ns + "peer")
            if found:
                self.peer_key = str(found)
                break
        if not self.peer_key:
            raise ConnectionError("the site's peer key cannot be kept in Redis")
        await self.beat()

    async def beat(self) -> None:
        """This process is alive; and the site's peer key is where it was (a Redis that
        restarted empty gets it back from the processes that know it)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.set(self.ns + "proc:" + self.pid, self.address, px=self.ttl_ms)
            pipe.set(self.ns + "peer", self.peer_key, nx=True)
            await pipe.execute()

    async def leave(self) -> None:
        await self.redis.delete(self.ns + "proc:" + self.pid)

    async def address_of(self, pid: str) -> str | None:
        found = await self.redis.get(self.ns + "proc:" + pid)
        return None if found is None else str(found)

    async def alive(self, pids: set[str]) -> set[str]:
        if not pids:
            return set()
        order = sorted(pids)
        found = await self.redis.mget([self.ns + "proc:" + p for p in order])
        return {p for p, a in zip(order, found, strict=True) if a is not None}

    # ------------------------------------------------------------------ leases
    def _lease(self, table_id: str) -> str:
        return self.ns + "lease:" + table_id

    async def claim(self, table_id: str) -> bool:
        """Take a free table's lease; False when another process holds it."""
        return bool(await self.redis.set(self._lease(table_id), self.pid, nx=True,
                                         px=self.ttl_ms))

    async def owner(self, table_id: str) -> str | None:
        found = await self.redis.get(self._lease(table_id))
        return None if found is None else str(found)

    async def owners(self, table_ids: list[str]) -> dict[str, str | None]:
        if not table_ids:
            return {}
        found = await self.redis.mget([self._lease(t) for t in table_ids])
        return {t: (None if o is None else str(o))
                for t, o in zip(table_ids, found, strict=True)}

    async def renew(self, table_ids: list[str]) -> list[str]:
        """Renew this process's leases (one Redis forgot -- a restart, a flush -- is
        taken again); the tables whose lease another process holds now."""
        if not table_ids:
            return []
        async with self.redis.pipeline(transaction=False) as pipe:
            for t in table_ids:
                await self._renew(keys=[self._lease(t)], args=[self.pid, self.ttl_ms],
                                  client=pipe)
            held = await pipe.execute()
        return [t for t, ok in zip(table_ids, held, strict=True) if not ok]

    async def release(self, table_id: str, holder: str | None = None) -> None:
        """Free a lease this process holds (or ``holder``'s: a process known dead)."""
        await self._release(keys=[self._lease(table_id)], args=[holder or self.pid])

    # ------------------------------------------------------------------ the listing
    async def list_tables(self, entries: dict[str, tuple[TableSummary, Door]],
                          gone: list[str]) -> None:
        """This process's tables into the shared listing (each an entry: its summary
        and its door, what the others need of it); ``gone`` out."""
        async with self.redis.pipeline(transaction=False) as pipe:
            if entries:
                pipe.hset(self.ns + "tables", mapping={
                    t: _ENCODE(Listed(self.pid, row, door))
                    for t, (row, door) in entries.items()})
            if gone:
                pipe.hdel(self.ns + "tables", *gone)
            await pipe.execute()

    async def listing(self) -> dict[str, Listed]:
        """Every process's entries (those of processes no longer alive left out, and
        any that does not read as one: another version's)."""
        raw = await self.redis.hgetall(self.ns + "tables")
        entries: dict[str, Listed] = {}
        for t, v in raw.items():
            try:
                entries[str(t)] = _LISTED(v)
            except (msgspec.ValidationError, msgspec.DecodeError):
                log.warning("the listing's entry of table %s does not read; left out", t)
        live = await self.alive({e.owner for e in entries.values()})
        return {t: e for t, e in entries.items() if e.owner in live}

    async def close(self) -> None:
        await self.redis.aclose()


__all__ = ["Cluster", "namespace"]
