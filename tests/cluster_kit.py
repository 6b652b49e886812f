"""Several ``tute serve`` processes for tests: over one PostgreSQL and one Redis (the
real ones of this machine; skipped with the reason where they are not reachable), on
loopback ports, each of which can be killed with -9 and started again; and a plain TCP
load balancer in front of them, as a site has."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from server_harness import free_port, serve, stop

REDIS = "redis://127.0.0.1:6379/0"
LEASE = 1.5


def redis_or_skip() -> Any:
    try:
        import redis
        client = redis.Redis.from_url(REDIS, socket_connect_timeout=3)
        client.ping()
    except Exception as e:                       # not reachable here: say why
        pytest.skip(f"Redis is not reachable at 127.0.0.1:6379 ({e})")
    return client


class Site:
    """Three processes on fixed ports; one can be killed and started again."""

    def __init__(self, db: str, log: Path, count: int = 3, extra: tuple[str, ...] = ()
                 ) -> None:
        self.db = db
        self.log = log
        self.extra = extra
        self.ports = [free_port() for _ in range(count)]
        self.procs: list[subprocess.Popen[str] | None] = [None] * count
        subprocess.run([sys.executable, "-m", "tute.cli", "admin", "migrate", "--db", db],
                       check=True, capture_output=True)     # once per deploy
        for k in range(count):
            self.start(k)

    def args(self, k: int) -> list[str]:
        return ["--db", self.db, "--bus", REDIS, "--lease-seconds", str(LEASE),
                "--robot-delay", "0.05", *self.extra]

    def start(self, k: int) -> None:
        self.procs[k], _ = serve(self.args(k), port=self.ports[k], log=self.log)

    def base(self, k: int) -> str:
        return f"http://127.0.0.1:{self.ports[k]}"

    def slot_of(self, os_pid: int) -> int | None:
        for k, p in enumerate(self.procs):
            if p is not None and p.pid == os_pid:
                return k
        return None

    def kill(self, k: int) -> None:
        proc = self.procs[k]
        assert proc is not None
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        self.procs[k] = None

    def close(self) -> None:
        for p in self.procs:
            if p is not None:
                stop(p)


class Balancer:
    """A plain round-robin TCP balancer on loopback: each connection goes to the next
    process that accepts it (a dead one is skipped), bytes passed both ways -- no
    stickiness, no knowledge of tute."""

    def __init__(self, ports: list[int]) -> None:
        self.ports = ports
        self.port = free_port()
        self._next = 0
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.server = asyncio.run_coroutine_threadsafe(asyncio.start_server(
            self._handle, "127.0.0.1", self.port), self.loop).result(10)

    async def _handle(self, reader: asyncio.StreamReader,
                      writer: asyncio.StreamWriter) -> None:
        for _ in range(len(self.ports)):
            port = self.ports[self._next % len(self.ports)]
            self._next += 1
            try:
                up_reader, up_writer = await asyncio.open_connection("127.0.0.1", port)
                break
            except OSError:
                continue
        else:
            writer.close()
            return
        await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer))

    def close(self) -> None:
        async def shut() -> None:
            self.server.close()
        asyncio.run_coroutine_threadsafe(shut(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)


async def _pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
    try:
        while data := await source.read(65536):
            sink.write(data)
            await sink.drain()
    except (OSError, ConnectionError):
        pass
    finally:
        sink.close()
