"""A process among several: the tables it owns, and taking over those of a dead one.

Every :attr:`Ownership.tick` seconds the process (see :mod:`tute.server.cluster`):

1. says it is alive and renews the lease of each table it holds; a table whose lease
   it lost (it was paused past the lease, or Redis forgot) leaves it at once: its
   sockets close, and their pages reconnect to whichever process owns it now;
2. adopts the orphans: every unfinished table in the store whose lease is free is
   claimed and resumed from the store, its escrows reconciled -- so a process killed
   mid-hand loses nothing, and its tables play on elsewhere within a lease or two;
3. writes its tables' summaries into the shared listing and reads everyone else's.

A request for a table this process does not own asks :meth:`Ownership.locate`: the
owner's address (forward there, :mod:`tute.server.forward`), or, when nobody holds
it, this process adopts it on the spot.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from tute.server.cluster import Cluster
from tute.server.lobby import Lobby
from tute.server.social import Door, door_of

log = logging.getLogger("tute.server")

ESCROW_TICKS = 6          # every few steps: the escrows of finished tables nobody holds


class Ownership:
    def __init__(self, cluster: Cluster, lobby: Lobby) -> None:
        self.cluster = cluster
        self.lobby = lobby
        self.tick = cluster.lease_seconds / 3
        self.remote: dict[str, dict[str, Any]] = {}     # other processes' entries
        self._listed: set[str] = set()
        self._adopting: dict[str, asyncio.Future[bool]] = {}
        self._task: asyncio.Task[None] | None = None
        self._ticks = 0
        lobby.claim = cluster.claim

    async def start(self) -> None:
        await self.cluster.join()
        await self.step()
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """A clean stop: the leases are given back at once (no wait for them to run
        out) so other processes adopt the tables now."""
        if self._task is not None:
            self._task.cancel()
        ids = list(self.lobby.tables)
        for table_id in ids:
            table = self.lobby.tables.get(table_id)
            if table is not None:
                table.moved = True
        try:
            await self.cluster.list_tables({}, ids)
            for table_id in ids:
                await self.cluster.release(table_id)
            await self.cluster.leave()
        except Exception:
            log.warning("the cluster: leases not given back; they run out")
        await self.cluster.close()

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.tick)
            try:
                await self.step()
            except Exception:
                log.exception("the cluster: a step failed; it runs again")

    async def step(self) -> None:
        await self.cluster.beat()
        for table_id in await self.cluster.renew(list(self.lobby.tables)):
            self.drop(table_id)
        await self.adopt_orphans()
        await self.publish()
        self._ticks += 1
        if self._ticks % ESCROW_TICKS == 1:
            await self.settle_orphans()

    def drop(self, table_id: str) -> None:
        """A table this process no longer owns leaves it (its sockets reconnect)."""
        table = self.lobby.tables.pop(table_id, None)
        if table is None:
            return
        log.warning("table %s: its lease was lost; another process has it now", table_id)
        table.moved = True
        table.shut()

    async def adopt_orphans(self) -> None:
        loop = asyncio.get_running_loop()
        active = await loop.run_in_executor(None, self.lobby.store.active_ids)
        others = [t for t in active if t not in self.lobby.tables]
        owners = await self.cluster.owners(others)
        for table_id, owner in owners.items():
            if owner is None:
                await self.adopt(table_id)

    async def settle_orphans(self) -> None:
        """The open escrows of tables no process holds (a process died between a
        match's end and its settlement): settled or returned under the table's lease,
        as a single process does at its start (:meth:`Lobby.reconcile`)."""
        purse = self.lobby.purse
        if purse is None:
            return
        loop = asyncio.get_running_loop()
        escrows = await loop.run_in_executor(None, purse.open_escrows)
        tables = sorted({t for t, _ in escrows if t not in self.lobby.tables})
        for table_id, owner in (await self.cluster.owners(tables)).items():
            if owner is not None or not await self.cluster.claim(table_id):
                continue
            try:
                if table_id not in await loop.run_in_executor(
                        None, self.lobby.store.active_ids):   # unfinished: adopted instead
                    await loop.run_in_executor(None, self.lobby.reconcile, {table_id})
            finally:
                await self.cluster.release(table_id)

    async def adopt(self, table_id: str) -> bool:
        """Claim a free table and resume it here; False when another process holds it
        or it is not an unfinished table.  Concurrent calls for one table wait for
        the first."""
        if table_id in self.lobby.tables:
            return True
        pending = self._adopting.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._adopting[table_id] = future
        try:
            ok = await self._adopt(table_id)
            future.set_result(ok)
            return ok
        except BaseException as e:
            future.set_exception(e)
            raise
        finally:
            del self._adopting[table_id]
            if not future.done():                      # pragma: no cover
                future.cancel()
            elif future.exception() is not None:
                future.exception()                     # retrieved: no warning

    async def _adopt(self, table_id: str) -> bool:
        if not await self.cluster.claim(table_id):
            return False
        loop = asyncio.get_running_loop()
        record = await loop.run_in_executor(None, self.lobby.store.load, table_id)
        table = None
        if await self.cluster.renew([table_id]):   # the lease ran out while loading
            return False
        if record is not None and record.status in ("open", "playing"):
            table = self.lobby.adopt(record)      # on the loop: the lobby's dict is its
        if table is None:
            await self.cluster.release(table_id)
            return False
        await loop.run_in_executor(None, lambda: self.lobby.reconcile({table_id}))
        table.auto.moved()                         # its clock and robots go on here
        self.lobby.metrics.adopted += 1
        log.info("table %s: taken over from the store", table_id)
        return True

    async def locate(self, table_id: str) -> str | None:
        """Where a table lives: None when here (or adopted now), else the owner's
        address.  :class:`LookupError` when no process can have it (finished, or no
        such table), and :class:`TimeoutError` when its owner stopped answering and
        its lease has not yet run out."""
        for _ in range(int(self.cluster.lease_seconds * 4) + 4):
            if table_id in self.lobby.tables:
                return None
            owner = await self.cluster.owner(table_id)
            if owner is None:
                if await self.adopt(table_id):
                    return None
                if await self.cluster.owner(table_id) is None:
                    raise LookupError(table_id)
                continue
            if owner == self.cluster.pid:         # adopting it right now
                await asyncio.sleep(0.05)
                continue
            address = await self.cluster.address_of(owner)
            if address == self.cluster.address:   # this process before a restart: dead
                await self.cluster.release(table_id, owner)
                continue
            if address is not None:
                return address
            await asyncio.sleep(0.25)              # a dead owner: its lease runs out
        raise TimeoutError(table_id)

    async def publish(self) -> None:
        rows = {t.id: {"row": t.summary(), "door": door_of(t).json()}
                for t in self.lobby.tables.values() if t.status in ("open", "playing")}
        gone = sorted(self._listed - set(rows))
        for table_id in gone:
            if table_id not in self.lobby.tables:
                await self.cluster.release(table_id)
        await self.cluster.list_tables(rows, gone)
        self._listed = set(rows)
        listing = await self.cluster.listing()
        self.remote = {t: r for t, r in listing.items() if t not in self.lobby.tables}

    def listing(self) -> list[dict[str, Any]]:
        """The site's open and playing tables: this process's, then the others'."""
        return [*self.lobby.listing(),
                *(dict(e["row"]) for t, e in self.remote.items()
                  if t not in self.lobby.tables)]

    def doors(self) -> list[Door]:
        """The doors of the tables other processes hold (:mod:`tute.server.social`)."""
        return [Door.of_json(e["door"]) for t, e in self.remote.items()
                if t not in self.lobby.tables]


__all__ = ["Ownership"]
