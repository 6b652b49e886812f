"""``tute bench --load N``: N simultaneous 4-seat parejas tables over real WebSockets.

The server runs in a process of its own (the default SQLite store); this process plays
every seat of every table: one action per table every 200 ms (the first legal action of
the seat to act, as a robot would), and measures the time from sending an action to the
event that confirms it.  Prints actions/s and the latency's p50 and p99.

``--processes P --db postgresql+psycopg://… --bus redis://…``: P server processes over
PostgreSQL and Redis (the schema migrated once first); table *i* is made at process
*i mod P* and its seat *s* connects to process *(i + s) mod P*, so most sockets reach a
process that does not own their table and are forwarded.  It also reports what an action
costs: the servers' CPU time, PostgreSQL's commits and rows written and Redis's commands
per action applied (the figures docs/deploy.md's capacity estimate uses).  The tables it
made are closed at the end (use a database of its own: a site's would get them).
"""

from __future__ import annotations

import asyncio
import gc
import os
import random
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from typing import Any

import httpx
import msgspec
import orjson
import uvloop
from websockets.asyncio.client import ClientConnection, connect

from tute.server.wire import loadanalyses


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


RAMP = 8.0          # seconds: about one hand of parejas at one action per 200 ms


class SeenMatch(msgspec.Struct):
    over: bool


class SeenView(msgspec.Struct):
    """What a benchmark's person reads of its view: whose turn, what it may do, whether
    the match is over."""

    to_act: int | None
    legal: list[str]
    match: SeenMatch | None = None


class SeenEvent(msgspec.Struct):
    kind: str = ""
    seat: int | None = None
    action: str | None = None


class Seen(msgspec.Struct):
    """What a benchmark's person reads of a message from its table's socket (the rest
    of it skipped, not decoded): a refusal's key and words, the event, the view."""

    type: str = ""
    key: str | None = None
    message: str | None = None
    event: SeenEvent | None = None
    view: SeenView | None = None


seen = msgspec.json.Decoder(Seen).decode


class Seat:
    """What the benchmark knows of one seat: its last view, the action in flight."""

    def __init__(self) -> None:
        self.view: SeenView | None = None
        self.sent_at: float | None = None
        self.sent: str | None = None


class Table:
    """One table of the benchmark: its id, the four seats' tokens and sockets."""

    def __init__(self, table: str, tokens: list[str], sockets: list[ClientConnection]
                 ) -> None:
        self.id, self.tokens, self.sockets = table, tokens, sockets
        self.seats = [Seat() for _ in range(4)]


def _cookie(secret: str) -> dict[str, str]:
    """Each seat is its own guest: the cookie the server issued it (none before its
    first request: the server issues one), and a CSRF token as a page sends it (cookie
    and header alike)."""
    csrf = secrets.token_urlsafe(24)
    guest = f"tute_player={secret}; " if secret else ""
    return {"cookie": f"{guest}tute_csrf={csrf}", "x-csrf-token": csrf}


def issued(response: httpx.Response) -> str:
    """The guest cookie the server set with ``response`` (the seat's from now on)."""
    response.raise_for_status()
    return str(response.cookies.get("tute_player") or "")


async def _set_up(http: httpx.AsyncClient, ports: list[int], k: int) -> Table:
    secrets_ = [""] * 4

    def base(s: int) -> str:
        return f"127.0.0.1:{ports[(k + s) % len(ports)]}"
    made = await http.post(f"http://{base(0)}/api/tables", headers=_cookie(""),
                           json={"variant": "parejas", "name": "P0", "seat": 0})
    secrets_[0] = issued(made)
    table = made.json()["id"]
    for s in range(1, 4):
        seated = await http.post(f"http://{base(s)}/api/tables/{table}/seats",
                                 headers=_cookie(""), json={"seat": s, "name": f"P{s}"})
        secrets_[s] = issued(seated)
    sockets = [await connect(f"ws://{base(s)}/ws/{table}", max_size=None,
                             additional_headers=_cookie(secrets_[s])) for s in range(4)]
    return Table(table, secrets_, sockets)


async def _read(t: Table, s: int, window: tuple[float, float], latencies: list[float],
                errors: list[str]) -> None:
    me = t.seats[s]
    try:
        async for raw in t.sockets[s]:
            m = seen(raw)
            if m.type == "error":
                errors.append(str(m.message))
                me.sent_at = None
                continue
            ev = m.event
            if (me.sent_at is not None and ev is not None and ev.kind == "action"
                    and ev.seat == s and ev.action == me.sent):
                if window[0] <= me.sent_at < window[1]:     # sent inside the window
                    latencies.append(time.perf_counter() - me.sent_at)
                me.sent_at = None
            if m.view is not None:
                me.view = m.view
    except Exception:                                # the socket closed at the end
        return


async def _play(http: httpx.AsyncClient, t: Table, window: tuple[float, float],
                interval: float, ramp: float, latencies: list[float], errors: list[str]
                ) -> None:
    """One action per ``interval`` (the seat to act plays its first legal action, as
    a robot would) until the window closes."""
    readers = [asyncio.create_task(_read(t, s, window, latencies, errors))
               for s in range(4)]
    # tables start at random moments of a ramp and keep their own beat: they are not
    # played in lockstep (every table ending its hand at once is not what players do);
    # the window opens once every table plays
    await asyncio.sleep(random.uniform(0, ramp))
    await http.post(f"/api/tables/{t.id}/start", headers=_cookie(t.tokens[0]), json={})
    # (the client's base is the first process: a start made elsewhere is forwarded)
    beat = time.perf_counter()
    asked = False                 # the next match asked for, its answer not come yet
    while time.perf_counter() < window[1]:
        await asyncio.sleep(max(0.0, beat - time.perf_counter()))
        beat += interval
        for s, seat in enumerate(t.seats):
            v = seat.view
            if v and v.to_act == s and v.legal and seat.sent_at is None:
                seat.sent, seat.sent_at = v.legal[0], time.perf_counter()
                await t.sockets[s].send(
                    orjson.dumps({"type": "act", "action": seat.sent}).decode())
                break
        else:
            v0 = t.seats[0].view
            over = bool(v0 and v0.match is not None and v0.match.over)
            if over and not asked:     # the host: the next match, asked once (not again
                asked = True           # while the answer is on its way: a refusal)
                await t.sockets[0].send('{"type": "start"}')
            asked = asked and over
    await asyncio.sleep(1.0)                 # the answers to the last actions
    for ws in t.sockets:
        await ws.close()
    for task in readers:
        task.cancel()


async def _run(tables: int, seconds: float, interval: float, ports: list[int],
               made: list[str], costs: Costs | None = None) -> dict[str, Any]:
    """Every table is set up first; then they start over a ramp of ``RAMP`` seconds,
    and the actions sent in the same window of ``seconds`` (one second after the ramp)
    are measured (with ``costs``, what they cost the servers too)."""
    base = f"http://127.0.0.1:{ports[0]}"
    latencies: list[float] = []
    errors: list[str] = []
    async with httpx.AsyncClient(base_url=base, timeout=60, cookies=None,
                                 limits=httpx.Limits(max_connections=16)) as http:
        began = time.perf_counter()
        gate = asyncio.Semaphore(8)              # tables are set up a few at a time

        async def set_up(k: int) -> Table | None:
            async with gate:
                try:
                    t = await _set_up(http, ports, k)
                    made.append(t.id)
                    return t
                except Exception as e:           # a table that could not be set up
                    errors.append(repr(e))
                    return None

        ready = [t for t in await asyncio.gather(*(set_up(k) for k in range(tables)))
                 if t is not None]
        gc.collect()                    # the harness's own pauses stay out of the figures:
        gc.freeze()                     # the same collector settings as the server's
        gc.set_threshold(700, 10, 100)
        start = time.perf_counter()
        window = (start + RAMP + 1.0, start + RAMP + 1.0 + seconds)
        spent: dict[str, float | None] = {}

        async def measure() -> None:
            if costs is None:
                return
            await asyncio.sleep(max(0.0, window[0] - time.perf_counter()))
            before = await asyncio.to_thread(costs.read)
            await asyncio.sleep(max(0.0, window[1] - time.perf_counter()))
            after = await asyncio.to_thread(costs.read)
            spent.update({k: None if after[k] is None or before[k] is None
                          else after[k] - before[k] for k in after})     # type: ignore[operator]
        await asyncio.gather(measure(), *(_play(http, t, window, interval, RAMP, latencies,
                                                errors) for t in ready))
    latencies.sort()
    per_action: dict[str, float | None] = {}
    if latencies and spent:
        per_action = {k: None if v is None else round(v / len(latencies), 3)
                      for k, v in spent.items()}
    return {"tables": tables, "processes": len(ports), "tables_set_up": len(ready),
            **({"per_action": per_action} if per_action else {}),
            "setup_seconds": round(start - began, 1), "seconds": seconds,
            "actions": len(latencies),
            "actions_per_second": round(len(latencies) / seconds, 1),
            "p50_ms": round(1000 * statistics.median(latencies), 1) if latencies else None,
            "p99_ms": round(1000 * latencies[int(0.99 * (len(latencies) - 1))], 1)
            if latencies else None,
            "errors": len(errors),
            **({"error_texts": sorted(set(errors))[:5]} if errors else {})}


class Costs:
    """What the servers have spent so far: their CPU seconds (from /proc, Linux) in
    milliseconds, PostgreSQL's commits and rows written in the database, Redis's
    commands (None where it cannot be read)."""

    def __init__(self, pids: list[int], db: str | None, bus: str | None) -> None:
        self.pids, self.db, self.bus = pids, db, bus

    def read(self) -> dict[str, float | None]:
        out: dict[str, float | None] = {"cpu_ms": self._cpu()}
        out["pg_commits"] = out["pg_rows_written"] = out["redis_commands"] = None
        if self.db and self.db.startswith("postgresql"):
            from sqlalchemy import create_engine, text
            engine = create_engine(self.db)
            with engine.connect() as c:
                row = c.execute(text(
                    "SELECT xact_commit, tup_inserted + tup_updated + tup_deleted "
                    "FROM pg_stat_database WHERE datname = current_database()")).one()
            engine.dispose()
            out["pg_commits"], out["pg_rows_written"] = float(row[0]), float(row[1])
        if self.bus:
            import redis
            client = redis.Redis.from_url(self.bus)
            out["redis_commands"] = float(client.info("stats")["total_commands_processed"])
            client.close()
        return out

    def rss_mb(self) -> float | None:
        """The servers' resident memory now, in MiB (None where it cannot be read)."""
        total = 0
        try:
            for pid in self.pids:
                with open(f"/proc/{pid}/status", encoding="ascii") as f:
                    total += next(int(line.split()[1]) for line in f
                                  if line.startswith("VmRSS:"))
        except (OSError, ValueError, IndexError, StopIteration):
            return None
        return total / 1024

    def _cpu(self) -> float | None:
        total = 0.0
        try:
            for pid in self.pids:
                with open(f"/proc/{pid}/stat", encoding="ascii") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError):
            return None
        return total * 1000


class Servers:
    """``tute serve`` processes for a load run: one on a fresh SQLite store, or
    ``processes`` over ``db`` (PostgreSQL) and ``bus`` (Redis), with ``args`` added to
    their command; the tables the run made (``made``) are closed at the end."""

    def __init__(self, processes: int = 1, db: str | None = None, bus: str | None = None,
                 args: Sequence[str] = ()) -> None:
        self.folder = tempfile.mkdtemp(prefix="tute-load-")
        self.db, self.bus = db, bus
        self.url = db or f"sqlite:///{os.path.join(self.folder, 'load.db')}"
        self.ports = [_free_port() for _ in range(processes)]
        self.args = list(args)
        self.procs: list[subprocess.Popen[bytes]] = []
        self.made: list[str] = []

    def __enter__(self) -> Servers:
        if self.bus is not None:                  # migrated once, as a deploy does
            subprocess.run([sys.executable, "-m", "tute.cli", "admin", "migrate", "--db",
                            self.url], check=True, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
        # no pipes: output nobody reads could fill one and stall the server
        self.procs = [subprocess.Popen(
            [sys.executable, "-m", "tute.cli", "serve", "--port", str(port), "--db",
             self.url, *self.args, *(["--bus", self.bus] if self.bus else [])],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for port in self.ports]
        for port in self.ports:
            for _ in range(400):
                try:
                    httpx.get(f"http://127.0.0.1:{port}/api/tables", timeout=1)
                    break
                except httpx.HTTPError:
                    time.sleep(0.05)
        return self

    def costs(self) -> Costs:
        return Costs([p.pid for p in self.procs], self.db, self.bus)

    def __exit__(self, *exc: object) -> None:
        for server in self.procs:
            server.terminate()
        for server in self.procs:
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(timeout=5)
        if self.db is not None and self.made:      # the bench's tables leave the site's list
            _close(self.db, self.made)
        shutil.rmtree(self.folder, ignore_errors=True)


def run(tables: int, seconds: float, interval: float = 0.2, processes: int = 1,
        db: str | None = None, bus: str | None = None, analyses: int = 0
        ) -> dict[str, Any]:
    """The load run: one server process on a fresh SQLite store, or ``processes`` over
    ``db`` (PostgreSQL) and ``bus`` (Redis); ``analyses`` hands of the review page's
    analysis asked first (:mod:`tute.server.wire.loadanalyses`)."""
    texts = loadanalyses.records(analyses)
    with Servers(processes, db, bus, ["--robot-delay", "0", "--tables-per-minute", "0",
                                      "--requests-per-minute", "0",
                                      "--open-tables", str(tables + 1)]) as servers:
        base = f"http://127.0.0.1:{servers.ports[0]}"
        urls = loadanalyses.ask(base, texts)
        fig = uvloop.run(_run(tables, seconds, interval, servers.ports, servers.made,
                              servers.costs()))
        if analyses:
            fig["analyses"] = analyses
            fig["analyses_running_after"] = loadanalyses.running(base, urls)
        return fig


def _close(db: str, tables: list[str]) -> None:
    from sqlalchemy import create_engine, text
    engine = create_engine(db)
    with engine.begin() as c:
        c.execute(text("UPDATE tute_tables SET status = 'closed' WHERE id = :t "
                       "AND status IN ('open', 'playing')"), [{"t": t} for t in tables])
    engine.dispose()
