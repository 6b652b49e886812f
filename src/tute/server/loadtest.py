"""``tute bench --load N``: N simultaneous 4-seat parejas tables over real WebSockets.

The server runs in a process of its own (the default SQLite store); this process plays
every seat of every table: one action per table every 200 ms (the first legal action of
the seat to act, as a robot would), and measures the time from sending an action to the
event that confirms it.  Prints actions/s and the latency's p50 and p99.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Seat:
    def __init__(self) -> None:
        self.view: dict[str, Any] | None = None
        self.sent_at: float | None = None
        self.sent: str | None = None


async def _table(base: str, ws_base: str, seconds: float, interval: float,
                 latencies: list[float], counts: list[int], errors: list[str],
                 gate: asyncio.Semaphore) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        async with gate:
            table = (await http.post("/api/tables", json={"variant": "parejas"})).json()["id"]
            tokens = []
            for s in range(4):
                seated = await http.post(f"/api/tables/{table}/seats",
                                         json={"seat": s, "name": f"P{s}"})
                tokens.append(seated.json()["token"])
            sockets: list[ClientConnection] = []
            for s in range(4):
                sockets.append(await connect(f"{ws_base}/ws/{table}?token={tokens[s]}",
                                             max_size=None))
        seats = [Seat() for _ in range(4)]

        async def reader(s: int) -> None:
            ws = sockets[s]
            try:
                await _read(ws, s)
            except Exception:                        # the socket closed at the end
                return

        async def _read(ws: ClientConnection, s: int) -> None:
            async for raw in ws:
                m = json.loads(raw)
                if m.get("type") == "error":
                    errors.append(m["message"])
                    seats[s].sent_at = None
                    continue
                ev = m.get("event", {})
                me = seats[s]
                if (me.sent_at is not None and ev.get("kind") == "action"
                        and ev.get("seat") == s and ev.get("action") == me.sent):
                    latencies.append(time.perf_counter() - me.sent_at)
                    counts[0] += 1
                    me.sent_at = None
                if "view" in m:
                    me.view = m["view"]

        readers = [asyncio.create_task(reader(s)) for s in range(4)]
        await http.post(f"/api/tables/{table}/start", json={"token": tokens[0]})
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            await asyncio.sleep(interval)
            for s in range(4):
                v = seats[s].view
                if v and v["to_act"] == s and v["legal"] and seats[s].sent_at is None:
                    action = v["legal"][0]
                    seats[s].sent, seats[s].sent_at = action, time.perf_counter()
                    await sockets[s].send(json.dumps({"type": "act", "action": action}))
                    break
            else:
                v0 = seats[0].view
                if v0 and v0.get("match", {}).get("over"):
                    await http.post(f"/api/tables/{table}/start", json={"token": tokens[0]})
        for ws in sockets:
            await ws.close()
        for task in readers:
            task.cancel()


async def _run(tables: int, seconds: float, interval: float, port: int) -> dict[str, Any]:
    base = f"http://127.0.0.1:{port}"
    latencies: list[float] = []
    counts = [0]
    errors: list[str] = []
    start = time.perf_counter()
    gate = asyncio.Semaphore(8)                  # tables are set up a few at a time

    async def one() -> None:
        try:
            await _table(base, f"ws://127.0.0.1:{port}", seconds, interval, latencies,
                         counts, errors, gate)
        except Exception as e:                   # a table that could not be set up
            errors.append(repr(e))

    await asyncio.gather(*(one() for _ in range(tables)))
    wall = time.perf_counter() - start
    latencies.sort()
    return {"tables": tables, "seconds": round(wall, 1), "actions": counts[0],
            "actions_per_second": round(counts[0] / seconds, 1),
            "p50_ms": round(1000 * statistics.median(latencies), 1) if latencies else None,
            "p99_ms": round(1000 * latencies[int(0.99 * (len(latencies) - 1))], 1)
            if latencies else None,
            "errors": len(errors), "tables_set_up": tables - sum(
                1 for e in errors if e.startswith(("ReadTimeout", "ConnectTimeout",
                                                   "ConnectError")))}


def run(tables: int, seconds: float, interval: float = 0.2) -> dict[str, Any]:
    port = _free_port()
    folder = tempfile.mkdtemp(prefix="tute-load-")
    server = subprocess.Popen(
        [sys.executable, "-m", "tute.cli", "serve", "--port", str(port), "--db",
         f"sqlite:///{os.path.join(folder, 'load.db')}", "--robot-delay", "0"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        for _ in range(200):
            try:
                httpx.get(f"http://127.0.0.1:{port}/api/tables", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.05)
        return asyncio.run(_run(tables, seconds, interval, port))
    finally:
        server.terminate()
        try:
            server.wait(timeout=5)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=5)
