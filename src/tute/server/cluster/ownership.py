"""A process among several: the tables it owns, and taking over those of a dead one.

Two loops run in each process (see :mod:`tute.server.cluster.bus`), each every
:attr:`Ownership.tick` seconds (a third of the lease):

- **renewing**: the process says it is alive and renews the lease of each table it
  holds.  A table whose lease another process holds now leaves it at once: its sockets
  close, and their pages reconnect to whichever process owns it now.  A process that
  cannot renew (Redis unreachable, the process paused) lets *every* table go once its
  last renewal is older than :data:`FENCE` of the lease -- before the leases can run
  out and another process adopt them -- so two processes never play one table;
- **adopting**: every unfinished table in the store whose lease is free is claimed,
  rebuilt from the store (off the event loop), its escrows reconciled, and only then
  served here -- so a process killed mid-hand loses nothing, and its tables play on
  elsewhere within a lease or two.  Then the listing: this process's tables' summaries
  written, everyone else's read.

A request for a table this process does not own asks :meth:`Ownership.locate`: the
owner's address (forward there, :mod:`tute.server.cluster.forward`), or, when nobody holds
it, this process adopts it on the spot.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import time
from typing import Any

from tute.server.cluster.bus import Cluster, Listed
from tute.server.routes.doors import Door, door_of
from tute.server.tables.lobby import Lobby
from tute.server.tables.runtime import TableRuntime
from tute.server.wire.summary import TableSummary

log = logging.getLogger("tute.server")

ESCROW_TICKS = 6          # every few steps: the escrows of finished tables nobody holds
FENCE = 0.8               # of the lease: no renewal for this long, and every table goes
ADOPT_PER_TICK = 25       # tables adopted a tick at most (a dead process's share spreads)
GONE_SECONDS = 5.0        # "no such unfinished table": remembered this long


class Ownership:
    def __init__(self, cluster: Cluster, lobby: Lobby) -> None:
        self.cluster = cluster
        self.lobby = lobby
        self.tick = cluster.lease_seconds / 3
        self.remote: dict[str, Listed] = {}     # other processes' entries
        self._listed: set[str] = set()
        self._adopting: dict[str, asyncio.Future[bool]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._ticks = 0
        self._gone: dict[str, float] = {}                # not unfinished: until when
        self.renewed_at = time.monotonic()
        lobby.claim = cluster.claim
        lobby.release = cluster.release

    async def start(self) -> None:
        await self.cluster.join()
        await self.renew()
        await self.step()
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._every(self.renew_or_fence)),
                       loop.create_task(self._every(self.step))]

    async def stop(self) -> None:
        """A clean stop: the leases are given back at once (no wait for them to run
        out) so other processes adopt the tables now."""
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        ids = list(self.lobby.tables)
        for table_id in ids:
            self.lobby.tables[table_id].moved = True
        try:
            await self.cluster.list_tables({}, ids)
            for table_id in ids:
                await self.cluster.release(table_id)
            await self.cluster.leave()
        except Exception:
            log.warning("the cluster: leases not given back; they run out")
        await self.cluster.close()

    async def _every(self, job: Any) -> None:
        """``job`` every tick, for as long as the process lives: a failure is logged
        and the next tick comes (a cancelled adoption it waited on included)."""
        while True:
            await asyncio.sleep(self.tick)
            try:
                await job()
            except asyncio.CancelledError:
                if asyncio.current_task() is not None and \
                        asyncio.current_task().cancelling():   # type: ignore[union-attr]
                    raise                                        # the process stops
                log.warning("the cluster: a step was cancelled; it runs again")
            except Exception:
                log.exception("the cluster: a step failed; it runs again")

    # ------------------------------------------------------------------ renewing
    async def renew(self) -> None:
        await self.cluster.beat()
        for table_id in await self.cluster.renew(list(self.lobby.tables)):
            self.drop(table_id)
        self.renewed_at = time.monotonic()

    async def renew_or_fence(self) -> None:
        try:
            await asyncio.wait_for(self.renew(), timeout=self.tick)
        except Exception:
            self.fence()
            raise

    def fence(self) -> None:
        """No renewal for :data:`FENCE` of the lease: every table goes before its
        lease can run out (another process may adopt it then)."""
        if time.monotonic() - self.renewed_at < FENCE * self.cluster.lease_seconds:
            return
        if self.lobby.tables:
            log.error("the cluster: leases not renewed for %.1f s; this process lets its "
                      "%d tables go", time.monotonic() - self.renewed_at,
                      len(self.lobby.tables))
        for table_id in list(self.lobby.tables):
            self.drop(table_id)

    def drop(self, table_id: str) -> None:
        """A table this process no longer owns leaves it (its sockets reconnect)."""
        table = self.lobby.tables.pop(table_id, None)
        if table is None:
            return
        log.warning("table %s: its lease was lost; another process has it now", table_id)
        table.moved = True
        table.shut()

    # ------------------------------------------------------------------ adopting
    async def step(self) -> None:
        await self.adopt_orphans()
        await self.publish()
        self._ticks += 1
        if self._ticks % ESCROW_TICKS == 1:
            await self.settle_orphans()

    async def adopt_orphans(self) -> None:
        loop = asyncio.get_running_loop()
        active = await loop.run_in_executor(None, self.lobby.store.active_ids)
        others = [t for t in active if t not in self.lobby.tables]
        owners = await self.cluster.owners(others)
        free = [t for t, owner in owners.items() if owner is None]
        for table_id in free[:ADOPT_PER_TICK]:
            try:
                await self.adopt(table_id)
            except Exception:                     # this table only: the rest go on
                log.exception("table %s: could not be adopted; later", table_id)

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
        if not tables:
            return
        active = set(await loop.run_in_executor(None, self.lobby.store.active_ids))
        for table_id, owner in (await self.cluster.owners(tables)).items():
            if owner is not None or table_id in active:     # unfinished: adopted instead
                continue
            if not await self.cluster.claim(table_id):
                continue
            try:
                await loop.run_in_executor(None, self.lobby.reconcile, {table_id})
            finally:
                await self.cluster.release(table_id)

    async def adopt(self, table_id: str) -> bool:
        """Claim a free table and resume it here; False when another process holds it
        or it is not an unfinished table.  Concurrent calls for one table wait for
        the first (a cancelled first one answers them False)."""
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
            if isinstance(e, asyncio.CancelledError):
                future.set_result(False)
            else:
                future.set_exception(e)
                future.exception()                     # retrieved: no warning
            raise
        finally:
            del self._adopting[table_id]

    async def _adopt(self, table_id: str) -> bool:
        loop = asyncio.get_running_loop()
        if self._gone.get(table_id, 0.0) > time.monotonic():
            return False
        status = await loop.run_in_executor(None, self.lobby.store.status, table_id)
        if status not in ("open", "playing"):        # none, or finished: nothing to adopt
            self._gone[table_id] = time.monotonic() + GONE_SECONDS
            if len(self._gone) > 10_000:
                self._gone = {t: u for t, u in self._gone.items() if u > time.monotonic()}
            return False
        if not await self.cluster.claim(table_id):
            return False
        table: TableRuntime | None = None
        try:
            record = await loop.run_in_executor(None, self.lobby.store.load, table_id)
            if record is not None and record.status in ("open", "playing"):
                table = await loop.run_in_executor(None, self.lobby.rebuild, record)
            if table is None or await self.cluster.renew([table_id]):
                await self.cluster.release(table_id)  # (ran out while loading: not ours)
                return False
            # its escrows before it serves: a match it is starting is never refunded
            await loop.run_in_executor(None, lambda: self.lobby.reconcile(
                {table_id}, {table_id: table}))
        except BaseException:
            with contextlib.suppress(Exception):
                await self.cluster.release(table_id)
            raise
        self.lobby.install(table)
        table.resume()                             # its clock, robots and votes go on here
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
            if address == self.cluster.address and _same_host(owner):
                # this very address on this very machine is this process: the lease is
                # a dead earlier process's (it held the port we listen on)
                await self.cluster.release(table_id, owner)
                continue
            if address is not None:
                return address
            await asyncio.sleep(0.25)              # a dead owner: its lease runs out
        raise TimeoutError(table_id)

    # ------------------------------------------------------------------ the listing
    async def publish(self) -> None:
        rows = {t.id: (t.summary(), door_of(t))
                for t in self.lobby.tables.values() if t.status in ("open", "playing")}
        gone = sorted(self._listed - set(rows))
        for table_id in gone:
            if table_id not in self.lobby.tables:
                await self.cluster.release(table_id)
        await self.cluster.list_tables(rows, gone)
        self._listed = set(rows)
        listing = await self.cluster.listing()
        self.remote = {t: r for t, r in listing.items() if t not in self.lobby.tables}

    def listing(self) -> list[TableSummary]:
        """The site's open and playing tables: this process's, then the others'."""
        return [*self.lobby.listing(),
                *(e.row for t, e in self.remote.items() if t not in self.lobby.tables
                  and not e.door.unlisted and e.row.series is None)]

    def doors(self) -> list[Door]:
        """The doors of the tables other processes hold (:mod:`tute.server.routes.doors`)."""
        return [e.door for t, e in self.remote.items()
                if t not in self.lobby.tables]


def _same_host(pid: str) -> bool:
    """Whether a process id (``host-ospid-random``) was made on this machine."""
    return pid.rsplit("-", 2)[0] == socket.gethostname()


__all__ = ["Ownership"]
