"""A viewer's texts reach its socket in order: at once when the socket takes them, queued
behind a send that must wait, and a viewer that stops reading or whose socket fails is
dropped (so no table waits on one client)."""

from __future__ import annotations

import asyncio

from tute.server.wire.hub import QUEUE_LIMIT, Viewer


class Socket:
    """A socket's send: takes texts at once, or waits while ``full`` is clear."""

    def __init__(self) -> None:
        self.got: list[str] = []
        self.room = asyncio.Event()
        self.room.set()
        self.fail = False

    async def send(self, text: str) -> None:
        await self.room.wait()
        if self.fail:
            raise ConnectionError("gone")
        self.got.append(text)


async def _writing(sock: Socket, seat: int = 0) -> tuple[Viewer, asyncio.Task[None]]:
    """A viewer whose writer runs on ``sock``, started."""
    v = Viewer(seat)
    writer = asyncio.ensure_future(v.write(sock.send))
    await asyncio.sleep(0)
    return v, writer


def test_a_text_is_written_within_the_push_when_the_socket_takes_it() -> None:
    async def main() -> None:
        sock, v = Socket(), Viewer(0)
        v.push("before")                       # queued: no writer yet
        writer = asyncio.ensure_future(v.write(sock.send))
        await asyncio.sleep(0)
        assert sock.got == ["before"]
        v.push("a")
        v.push("b")
        assert sock.got == ["before", "a", "b"]   # no turn of the loop in between
        v.drop()
        await writer
    asyncio.run(main())


def test_texts_queue_in_order_behind_a_send_that_waits() -> None:
    async def main() -> None:
        sock = Socket()
        v, writer = await _writing(sock)
        sock.room.clear()                       # the socket's buffer is full
        for i in range(5):
            v.push(str(i))
        assert sock.got == [] and not v.dropped
        sock.room.set()
        for _ in range(20):
            await asyncio.sleep(0)
        assert sock.got == ["0", "1", "2", "3", "4"]
        v.push("5")                             # and at once again
        assert sock.got[-1] == "5"
        v.drop()
        await writer
    asyncio.run(main())


def test_a_viewer_that_stops_reading_or_whose_socket_fails_is_dropped() -> None:
    async def main() -> None:
        sock = Socket()
        v, writer = await _writing(sock)
        sock.room.clear()
        for i in range(QUEUE_LIMIT + 2):
            v.push(str(i))
        assert v.dropped
        sock.room.set()
        await asyncio.wait_for(writer, 5)
        other = Socket()
        other.fail = True
        w, writing = await _writing(other, 1)
        w.push("x")                             # raises within the push: dropped
        assert w.dropped and other.got == []
        await asyncio.wait_for(writing, 5)
    asyncio.run(main())


def test_a_send_that_waited_then_failed_drops_the_viewer() -> None:
    async def main() -> None:
        sock = Socket()
        v, writer = await _writing(sock)
        sock.room.clear()
        v.push("a")
        sock.fail = True
        sock.room.set()
        for _ in range(10):
            await asyncio.sleep(0)
        assert v.dropped and sock.got == []
        await asyncio.wait_for(writer, 5)
    asyncio.run(main())
