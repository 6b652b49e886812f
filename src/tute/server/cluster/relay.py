"""What one process's people say and do that every process must hear: Redis pub/sub.

With several processes (:mod:`tute.server.cluster.bus`), a lobby page is connected to one of
them; the lobby's chat, the notices to a person (a friend's request, an invitation) and
who is online cross to the others:

- **the lobby's chat**: a message kept by one process is published on the site's
  channel; every other process adds it to its recent lines and sends it to its own
  lobby pages (those that do not hide its writer);
- **notices**: published too, and each process gives them to the person's pages it
  holds;
- **who is online**: each process keeps the set of accounts with a page open in it
  (``<ns>online:<pid>``, living as long as the process renews it); a friend list asks
  the union of the live processes' sets, refreshed every tick.

Pub/sub delivers to the processes alive at the time, at most once: a chat line or a
notice a process misses while it restarts is not replayed (the chat's lines are in
the store, read again at start; a friend's request is in the friends list).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

import msgspec

from tute.server.cluster.bus import Cluster
from tute.server.social.friends import Notice, Presence
from tute.server.social.lobbychat import LobbyChat, LobbyLine
from tute.server.wire.lobbyfeed import LobbyFeed
from tute.server.wire.views import encode

log = logging.getLogger("tute.server")


class Relay:
    def __init__(self, cluster: Cluster, talk: LobbyChat, feed: LobbyFeed,
                 presence: Presence) -> None:
        self.cluster = cluster
        self.talk = talk
        self.feed = feed
        self.presence = presence
        self.channel = cluster.ns + "bus"
        self._tasks: list[asyncio.Task[None]] = []
        self._pending: set[asyncio.Task[None]] = set()
        self._pubsub: Any = None
        talk.relay = self.said
        presence.relay = self.noticed

    async def start(self) -> None:
        pubsub = self.cluster.redis.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(self.channel)
        self._pubsub = pubsub
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen(pubsub)),
                       loop.create_task(self._online())]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()

    # ------------------------------------------------------------------ out
    def said(self, message: LobbyLine) -> None:
        """A lobby chat line kept here: to the other processes."""
        self._publish({"kind": "chat", "message": msgspec.to_builtins(message)})

    def noticed(self, account: int, message: Notice) -> None:
        """A notice for a person: to the other processes' pages of theirs."""
        self._publish({"kind": "notice", "account": account,
                       "message": msgspec.to_builtins(message)})

    def _publish(self, data: dict[str, Any]) -> None:
        text = json.dumps({"from": self.cluster.pid, **data})
        async def send() -> None:
            await self.cluster.redis.publish(self.channel, text)
        task = asyncio.get_running_loop().create_task(send())
        self._pending.add(task)                 # held until done (the loop holds weakly)
        task.add_done_callback(self._pending.discard)
        task.add_done_callback(_logged)

    # ------------------------------------------------------------------ in
    async def _listen(self, pubsub: Any) -> None:
        while True:
            try:
                async for raw in pubsub.listen():
                    self.heard(str(raw.get("data", "")))
            except asyncio.CancelledError:
                raise
            except Exception:                  # Redis went away: subscribe again
                log.warning("the cluster's channel was lost; listening again")
                await asyncio.sleep(1.0)
                with contextlib.suppress(Exception):
                    await pubsub.subscribe(self.channel)

    def heard(self, text: str) -> None:
        """One message from another process (its own are ignored)."""
        try:
            data = json.loads(text)
            if data.get("from") == self.cluster.pid:
                return
            if data["kind"] == "chat":
                message = msgspec.convert(data["message"], LobbyLine)
                self.talk.recent.append(message)
                out = encode({"type": "chat", "message": message})
                for v in list(self.feed.viewers):
                    if message.author not in v.hidden:
                        v.push(out)
            elif data["kind"] == "notice":
                self.presence.notify(int(data["account"]),
                                     msgspec.convert(data["message"], Notice), relay=False)
        except Exception:
            log.exception("the cluster's channel: a message could not be read")

    async def _online(self) -> None:
        key = self.cluster.ns + "online:" + self.cluster.pid
        procs = self.cluster.ns + "procs"
        while True:
            try:
                mine = self.presence.accounts()
                async with self.cluster.redis.pipeline(transaction=True) as pipe:
                    pipe.delete(key)
                    if mine:
                        pipe.sadd(key, *sorted(mine))
                        pipe.pexpire(key, self.cluster.ttl_ms)
                    pipe.sadd(procs, self.cluster.pid)
                    await pipe.execute()
                pids = {str(p) for p in await self.cluster.redis.smembers(procs)}
                live = await self.cluster.alive(pids)
                if pids - live:
                    await self.cluster.redis.srem(procs, *(pids - live))
                others = [self.cluster.ns + "online:" + p for p in live
                          if p != self.cluster.pid]
                found = await self.cluster.redis.sunion(others) if others else set()
                self.presence.elsewhere = {int(a) for a in found}
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("the cluster: who is online elsewhere not read; again soon")
            await asyncio.sleep(self.cluster.lease_seconds / 3)


def _logged(task: asyncio.Task[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.warning("the cluster's channel: not published: %r", task.exception())


__all__ = ["Relay"]
