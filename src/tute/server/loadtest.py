"""``tute bench --load N``: N simultaneous 4-seat parejas tables over real WebSockets.

The server runs in a process of its own (the default SQLite store); this process plays
every seat of every table: one action per table every 200 ms (the first legal action of
the seat to act, as a robot would), and measures the time from sending an action to the
event that confirms it.  Prints actions/s and the latency's p50 and p99.
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
from typing import Any

import httpx
import orjson
import uvloop
from websockets.asyncio.client import ClientConnection, connect


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


RAMP = 8.0          # seconds: about one hand of parejas at one action per 200 ms


class Seat:
    """What the benchmark knows of one seat: its last view, the action in flight."""

    def __init__(self) -> None:
        self.view: dict[str, Any] | None = None
        self.sent_at: float | None = None
        self.sent: str | None = None


class Table:
    """One table of the benchmark: its id, the four seats' tokens and sockets."""

    def __init__(self, table: str, tokens: list[str], sockets: list[ClientConnection]
                 ) -> None:
        self.id, self.tokens, self.sockets = table, tokens, sockets
        self.seats = [Seat() for _ in range(4)]


def _cookie(secret: str) -> dict[str, str]:
    """Each seat is its own guest: its own secret in the cookie the server reads, and a
    CSRF token as a page sends it (cookie and header alike)."""
    csrf = secret[:32]
    return {"cookie": f"tute_player={secret}; tute_csrf={csrf}", "x-csrf-token": csrf}


async def _set_up(http: httpx.AsyncClient, ws_base: str) -> Table:
    secrets_ = [secrets.token_urlsafe(32) for _ in range(4)]
    made = await http.post("/api/tables", headers=_cookie(secrets_[0]),
                           json={"variant": "parejas", "name": "P0", "seat": 0})
    made.raise_for_status()
    table = made.json()["id"]
    for s in range(1, 4):
        seated = await http.post(f"/api/tables/{table}/seats", headers=_cookie(secrets_[s]),
                                 json={"seat": s, "name": f"P{s}"})
        seated.raise_for_status()
    sockets = [await connect(f"{ws_base}/ws/{table}", max_size=None,
                             additional_headers=_cookie(secrets_[s])) for s in range(4)]
    return Table(table, secrets_, sockets)


async def _read(t: Table, s: int, window: tuple[float, float], latencies: list[float],
                errors: list[str]) -> None:
    me = t.seats[s]
    try:
        async for raw in t.sockets[s]:
            m = orjson.loads(raw)
            if m.get("type") == "error":
                errors.append(m["message"])
                me.sent_at = None
                continue
            ev = m.get("event", {})
            if (me.sent_at is not None and ev.get("kind") == "action"
                    and ev.get("seat") == s and ev.get("action") == me.sent):
                if window[0] <= me.sent_at < window[1]:     # sent inside the window
                    latencies.append(time.perf_counter() - me.sent_at)
                me.sent_at = None
            if "view" in m:
                me.view = m["view"]
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
    beat = time.perf_counter()
    while time.perf_counter() < window[1]:
        await asyncio.sleep(max(0.0, beat - time.perf_counter()))
        beat += interval
        for s, seat in enumerate(t.seats):
            v = seat.view
            if v and v["to_act"] == s and v["legal"] and seat.sent_at is None:
                seat.sent, seat.sent_at = v["legal"][0], time.perf_counter()
                await t.sockets[s].send(
                    orjson.dumps({"type": "act", "action": seat.sent}).decode())
                break
        else:
            v0 = t.seats[0].view
            if v0 and v0.get("match", {}).get("over"):      # the host: the next match
                await t.sockets[0].send('{"type": "start"}')
    await asyncio.sleep(1.0)                 # the answers to the last actions
    for ws in t.sockets:
        await ws.close()
    for task in readers:
        task.cancel()


async def _run(tables: int, seconds: float, interval: float, port: int) -> dict[str, Any]:
    """Every table is set up first; then they start over a ramp of ``RAMP`` seconds,
    and the actions sent in the same window of ``seconds`` (one second after the ramp)
    are measured."""
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    latencies: list[float] = []
    errors: list[str] = []
    async with httpx.AsyncClient(base_url=base, timeout=60, cookies=None,
                                 limits=httpx.Limits(max_connections=16)) as http:
        began = time.perf_counter()
        gate = asyncio.Semaphore(8)              # tables are set up a few at a time

        async def set_up() -> Table | None:
            async with gate:
                try:
                    return await _set_up(http, ws_base)
                except Exception as e:           # a table that could not be set up
                    errors.append(repr(e))
                    return None

        ready = [t for t in await asyncio.gather(*(set_up() for _ in range(tables)))
                 if t is not None]
        gc.collect()                    # the harness's own pauses stay out of the figures:
        gc.freeze()                     # the same collector settings as the server's
        gc.set_threshold(700, 10, 100)
        start = time.perf_counter()
        window = (start + RAMP + 1.0, start + RAMP + 1.0 + seconds)
        await asyncio.gather(*(_play(http, t, window, interval, RAMP, latencies, errors)
                               for t in ready))
    latencies.sort()
    return {"tables": tables, "tables_set_up": len(ready),
            "setup_seconds": round(start - began, 1), "seconds": seconds,
            "actions": len(latencies),
            "actions_per_second": round(len(latencies) / seconds, 1),
            "p50_ms": round(1000 * statistics.median(latencies), 1) if latencies else None,
            "p99_ms": round(1000 * latencies[int(0.99 * (len(latencies) - 1))], 1)
            if latencies else None,
            "errors": len(errors)}


def run(tables: int, seconds: float, interval: float = 0.2) -> dict[str, Any]:
    port = _free_port()
    folder = tempfile.mkdtemp(prefix="tute-load-")
    # no pipes: output nobody reads could fill one and stall the server
    server = subprocess.Popen(
        [sys.executable, "-m", "tute.cli", "serve", "--port", str(port), "--db",
         f"sqlite:///{os.path.join(folder, 'load.db')}", "--robot-delay", "0",
         "--tables-per-minute", "0", "--requests-per-minute", "0",
         "--open-tables", str(tables + 1)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            try:
                httpx.get(f"http://127.0.0.1:{port}/api/tables", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.05)
        return uvloop.run(_run(tables, seconds, interval, port))
    finally:
        server.terminate()
        try:
            server.wait(timeout=5)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=5)
        shutil.rmtree(folder, ignore_errors=True)
