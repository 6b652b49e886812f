"""The real server on loopback for tests: uvicorn with ``tute serve``'s own settings, in a
thread; clients that are browsers of their own (each an HTTP client with its own cookie
jar, and WebSockets that send its cookie)."""

from __future__ import annotations

import asyncio
import atexit
import hashlib
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
import uvicorn
from websockets.sync.client import ClientConnection, connect

from tute.server.app import create_app
from tute.server.site.sessions import COOKIE
from tute.server.tables.runtime import TableRuntime
from tute.server.wire.hub import Viewer
from tute.server.wire.limits import Limits


def postgres_name() -> str:
    """This test process's PostgreSQL database: one of its own per pytest-xdist worker
    and checkout (``test_gw0_1a2b3c4d``...: two clones tested at once on one machine
    each have their own -- with the worker's name alone, one run's tests emptied the
    other's database under it), or per process where pytest runs without workers
    (``test_p1234``, dropped when it ends) -- the tests empty it, so two runs at once
    never share one."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    checkout = hashlib.sha1(str(Path(__file__).resolve().parent).encode()).hexdigest()[:8]
    return f"test_{worker}_{checkout}" if worker.isalnum() else f"test_p{os.getpid()}"


def _drop_own_database() -> None:
    """A run without workers drops its database at its end (the workers' are kept and
    reused by the next run)."""
    try:
        import psycopg
        with psycopg.connect("host=127.0.0.1 port=5432 dbname=test user=postgres",
                             connect_timeout=3, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {postgres_name()} WITH (FORCE)")
    except Exception:                           # not reachable, or never made: nothing
        pass


POSTGRES = f"postgresql+psycopg://postgres@127.0.0.1:5432/{postgres_name()}"
QUICK = "heuristic"           # the robots of Client.new_table unless a test names a level


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(args: list[str], port: int | None = None, cwd: Path | None = None,
          env: dict[str, str] | None = None, output: bool = False,
          log: Path | None = None) -> tuple[subprocess.Popen[str], str]:
    """``tute serve`` in a process of its own (``args`` besides the port), once it
    answers: the process and its base URL.  ``output``: its standard output piped (read
    by :func:`stop`); ``log``: its standard error appended to this file.  A server that
    exits or never answers fails the test."""
    port = port or free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "tute.cli", "serve", "--port", str(port), *args], cwd=cwd,
        env=env, stdout=subprocess.PIPE if output else subprocess.DEVNULL,
        stderr=subprocess.DEVNULL if log is None else log.open("a"), text=True)
    base = f"http://127.0.0.1:{port}"
    for _ in range(400):
        try:
            if httpx.get(f"{base}/api/meta", timeout=1).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            pass
        if proc.poll() is not None:
            raise AssertionError(f"the server exited at start ({proc.returncode})")
        time.sleep(0.05)
    stop(proc)
    raise AssertionError("the server did not start")


def stop(proc: subprocess.Popen[str]) -> str:
    """Stop a server :func:`serve` started (killed if it lingers); what it printed."""
    proc.terminate()
    try:
        out, _ = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate(timeout=10)
    return out or ""


class Server:
    def __init__(self, db: str, port: int | None = None, limits: Limits | None = None,
                 robot_delay: float = 0.0, **options: Any) -> None:
        from tute.server.wire.edge import server_config

        self.port = port or free_port()
        self.limits = limits or Limits()
        self.app = create_app(db, robot_delay=robot_delay, limits=self.limits, **options)
        self.server = uvicorn.Server(server_config(self.app, "127.0.0.1", self.port,
                                                   self.limits))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        for _ in range(500):
            if self.server.started:
                break
            time.sleep(0.02)
        self.base = f"http://127.0.0.1:{self.port}"

    @property
    def lobby(self) -> Any:
        return self.app.state.lobby

    def call(self, coroutine: Any) -> Any:
        """Run a coroutine on the server's event loop (as the server's own tasks do) and
        return its result."""
        return asyncio.run_coroutine_threadsafe(coroutine, self.app.state.loop).result(30)

    def table(self, table_id: str) -> TableRuntime:
        table: TableRuntime = self.lobby.tables[table_id]
        return table

    def account(self, name: str, address: str = "127.0.0.1",
                password: str = "naipes de la abuela") -> Client:
        """A browser logged in to a new account called ``name``."""
        c = self.client(address)
        r = c.post("/api/register", {"name": name, "password": password})
        assert r.status_code == 200, r.text
        return c

    def client(self, address: str = "127.0.0.1") -> Client:
        """A browser; ``address`` the loopback address it connects from (127.0.0.2...:
        people at different addresses, as the same-address rule tells apart)."""
        return Client(self, address)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)


class Client:
    """One browser: its own cookie (its guest identity)."""

    def __init__(self, server: Server, address: str = "127.0.0.1") -> None:
        self.server = server
        self.address = address
        self.http = httpx.Client(base_url=server.base, timeout=15,
                                 transport=httpx.HTTPTransport(local_address=address))
        self.http.get("/api/meta")                # the page's CSRF token, as a page gets it

    @property
    def csrf(self) -> str:
        return str(self.http.cookies.get("tute_csrf") or "")

    def post(self, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
        return self.http.post(path, json=body if body is not None else {},
                              headers={"x-csrf-token": self.csrf})

    def get(self, path: str) -> httpx.Response:
        return self.http.get(path)

    @property
    def cookie(self) -> str | None:
        value = self.http.cookies.get(COOKIE)
        return None if value is None else str(value)

    def ws(self, table: str, last: int = 0, origin: str | None = None,
           watch: bool = False) -> ClientConnection:
        headers: dict[str, str] = {}
        jar = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        if jar:
            headers["cookie"] = jar                # the guest's and the account's
        if origin is not None:
            headers["origin"] = origin
        query = f"last={last}" + ("&watch=1" if watch else "")
        return connect(f"ws://127.0.0.1:{self.server.port}/ws/{table}?{query}",
                       open_timeout=10, additional_headers=headers,
                       source_address=(self.address, 0))

    def lobby_ws(self) -> ClientConnection:
        """The lobby page's socket: the tables, live, and the lobby's chat."""
        jar = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        return connect(f"ws://127.0.0.1:{self.server.port}/lobby/ws", open_timeout=10,
                       additional_headers={"cookie": jar} if jar else {},
                       source_address=(self.address, 0))

    def new_table(self, variant: str = "habanero", name: str = "Ana", robots: bool = True,
                  **more: Any) -> str:
        """A table of ``c`` (``more``: its options), its free seats given to robots.
        The robots are of a quick level unless the test names one: a table of a searching
        level starts the server's pool of worker processes, ~1.5 s of CPU each (the
        tests of the searching robots at the tables name theirs)."""
        more.setdefault("robot_level", QUICK)
        r = self.post("/api/tables", {"variant": variant, "name": name, **more})
        assert r.status_code == 200, r.text
        table = str(r.json()["id"])
        if robots:
            assert self.post(f"/api/tables/{table}/robots").status_code == 200
        return table


def clock(table: TableRuntime, seconds: float) -> None:
    """A running table's move clock set to ``seconds`` (0: none) -- its options are a
    frozen value, so the table's state gets new ones."""
    table.state.options = msgspec.structs.replace(table.state.options, move_seconds=seconds)


def recv(ws: ClientConnection, timeout: float = 20) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
    return message


def until(ws: ClientConnection, test: Callable[[dict[str, Any]], bool],
          timeout: float = 30) -> dict[str, Any]:
    """Read messages until one passes ``test``."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        message = recv(ws, max(0.1, deadline - time.time()))
        if test(message):
            return message
    raise AssertionError("no such message in time")


def postgres_or_skip() -> str:
    """The PostgreSQL of this machine (CI always has it), emptied; skipped with the
    reason where it is not reachable."""
    try:
        import psycopg
        with psycopg.connect("host=127.0.0.1 port=5432 dbname=test user=postgres",
                             connect_timeout=3, autocommit=True) as admin:
            name = postgres_name()
            if admin.execute("SELECT 1 FROM pg_database WHERE datname = %s",
                             (name,)).fetchone() is None:
                admin.execute(f"CREATE DATABASE {name}")     # this process's own, once
                if name.startswith("test_p"):
                    atexit.register(_drop_own_database)
    except Exception as e:                      # not reachable here: say why
        pytest.skip(f"PostgreSQL is not reachable at 127.0.0.1:5432 ({e})")
    from sqlalchemy import create_engine, text

    from tute.server.db.schema import metadata

    engine = create_engine(POSTGRES)
    with engine.begin() as c:                  # a clean store for this test: every table
        for name in [*metadata.tables, "alembic_version"]:
            c.execute(text(f"DROP TABLE IF EXISTS {name}"))
    engine.dispose()
    return POSTGRES


def watch(table: TableRuntime, seat: int, on_text: Callable[[str], None]) -> asyncio.Task[None]:
    """An in-process viewer of ``seat``: every text the table sends it goes to
    ``on_text`` (a running loop is needed)."""
    viewer = Viewer(seat)
    assert table.attach(viewer)

    async def drain() -> None:
        while (text := await viewer.next()) is not None:
            on_text(text)
    return asyncio.get_running_loop().create_task(drain())


def play_out(c: Client, variant: str = "habanero(match_target=2)", **options: Any) -> str:
    """A table with robots where the robot plays ``c``'s seat too, to the match's end:
    its id (``options``: the table's, e.g. ``robot_level``)."""
    table = c.new_table(variant, **options)

    def event(kind: str) -> Callable[[dict[str, Any]], bool]:
        return lambda m: m.get("type") == "event" and m["event"]["kind"] == kind

    with c.ws(table) as w:
        until(w, event("state"))
        assert c.post(f"/api/tables/{table}/start").status_code == 200
        until(w, event("start"))
        w.send(json.dumps({"type": "automatic", "on": True}))
        until(w, event("match_over"), timeout=120)
    return table


class Playing:
    """A person who plays their own seat: in a thread, over the table's socket, the
    first legal action each time it is their turn, until the match ends (as a person
    does, not the clock nor automatic play: the moves are theirs for XP)."""

    def __init__(self, c: Client, table: str) -> None:
        self.c, self.table = c, table
        self.over = threading.Event()
        self.acted = 0
        self.settled: dict[str, Any] | None = None     # the match's pay-out, as sent
        self.paid = threading.Event()
        self.earned: list[dict[str, Any]] = []         # achievements told to the table
        self.error: BaseException | None = None
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Playing:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self.thread.join(timeout=30)

    def wait(self, timeout: float = 120) -> None:
        """Until the match ends (AssertionError if it does not in time)."""
        assert self.over.wait(timeout), "the match never ended"
        assert self.error is None, self.error

    def _run(self) -> None:
        try:
            with self.c.ws(self.table) as w:
                done = 0
                while not self._stop.is_set():
                    try:
                        m = recv(w, 0.5)
                    except TimeoutError:
                        continue
                    if m.get("type") != "event":
                        continue
                    seq, legal = int(m["event"]["seq"]), (m.get("view") or {}).get("legal")
                    if m["event"]["kind"] in ("match_over", "annulled"):
                        self.over.set()
                    if m["event"]["kind"] == "settled":
                        self.settled = m
                        self.paid.set()
                    if m["event"]["kind"] == "earned":
                        self.earned.append(m["event"])
                    if legal and seq > done and not self.over.is_set():
                        done = seq
                        w.send(json.dumps({"type": "act", "action": legal[0]}))
                        self.acted += 1
        except BaseException as e:                  # the test reads it in wait()
            self.error = e
            self.over.set()


def two_at_a_table(s: Server, variant: str = "habanero", bea_address: str = "127.0.0.2",
                   **options: Any) -> tuple[Client, Client, str]:
    """Ana (the host, seat 0) and Bea (seat 1, at ``bea_address``) with accounts at a
    new table of ``variant`` with ``options``."""
    ana, bea = s.account("Ana"), s.account("Bea", bea_address)
    r = ana.post("/api/tables", {"variant": variant, "name": "Ana", **options})
    assert r.status_code == 200, r.text
    table = str(r.json()["id"])
    assert bea.post(f"/api/tables/{table}/seats", {"seat": 1, "name": "Bea"}
                    ).status_code == 200
    return ana, bea, table


def escrows(conn: Any, table: str) -> dict[str, int]:
    """Every escrow of a table's matches (each start's own) with its balance."""
    from sqlalchemy import text

    rows = conn.execute(text("SELECT account, balance FROM tute_balances "
                             "WHERE account LIKE :a"), {"a": f"escrow:{table}:%"})
    return {str(r[0]): int(r[1]) for r in rows}


def public(table: Any) -> list[dict[str, Any]]:
    """A table's history as a page reads it: each event's public form, plain JSON."""
    return [e.data for e in table.history]
