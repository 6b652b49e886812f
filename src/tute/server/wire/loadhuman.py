"""``tute bench --load N --human``: a site where people play, at their pace.

N four-seat parejas tables, every seat a person of its own -- a guest with its own
cookie, coming from its own loopback address (``127.1.x.y``: Linux answers on all of
``127/8``), so the server's limits stay on as they are for a site (requests and new
tables per address and per minute, open tables per guest; nothing is switched off).
Each person keeps a WebSocket open and acts 1 to 4 seconds after its turn comes
(uniformly: as people think), the first legal action of its view; the host starts the
next match a few seconds after one ends.  Tables are set up first, then start over a
ramp; the window measured opens once every table plays.

Reported: actions a second; the time from an action's arrival at its table to its
events sent (the servers' own histogram, ``tute_action_duration_seconds`` of
``/metrics``, read before and after the window: p50, p99, p99.9); the time a person
waits from sending an action to seeing it confirmed (the round trip, the client's
clock, on the same machine); errors (refusals, tables not set up, sockets lost); the
seats connected at the end; the servers' CPU per action and memory per table (their
resident memory after the set-up less before it, by table).
"""

from __future__ import annotations

import asyncio
import ipaddress
import random
import resource
import statistics
import time
from collections.abc import Sequence
from typing import Any

import httpx
import msgspec
import orjson
import uvloop
from websockets.asyncio.client import ClientConnection, connect

from tute.server.wire.collector import Collector
from tute.server.wire.loadtest import Costs, SeenView, Servers, _cookie, seen
from tute.server.wire.metrics import histogram_quantile

PACE = (1.0, 4.0)            # seconds a person takes to act once its turn comes
RAMP = 20.0                  # tables start at random moments of this many seconds
SETTLE = 10.0                # then this long before the window opens
GATE = 24                    # tables set up at once


def address(i: int) -> str:
    """The loopback address of the ``i``-th simulated person."""
    return str(ipaddress.IPv4Address(0x7F010001 + i))


class Person:
    """One seat's person: its address, cookie, socket, last view, pending move."""

    __slots__ = ("address", "due", "seat", "secret", "sent", "sent_at", "view", "ws")

    def __init__(self, seat: int, addr: str) -> None:
        self.seat, self.address = seat, addr
        self.secret = ""                  # the guest cookie the server issues it
        self.ws: ClientConnection | None = None
        self.view: SeenView | None = None
        self.due: asyncio.TimerHandle | None = None   # its move, thought about
        self.sent: str | None = None
        self.sent_at: float | None = None

    def headers(self) -> dict[str, str]:
        return _cookie(self.secret)


class Figures:
    """What the run counts."""

    def __init__(self) -> None:
        self.window = (float("inf"), float("inf"))
        self.round_trips: list[float] = []
        self.errors: list[str] = []
        self.lost = 0                      # sockets closed by the server before the end
        self.ending = False
        self.sending: set[asyncio.Future[None]] = set()

    def send(self, ws: ClientConnection, data: bytes) -> None:
        task = asyncio.ensure_future(_send(ws, data))
        self.sending.add(task)
        task.add_done_callback(self.sending.discard)


class Answer(msgspec.Struct):
    """What the benchmark reads of an answer: the table's id (a new table's)."""

    id: str = ""


async def post(port: int, path: str, person: Person, body: dict[str, str | int]
               ) -> Answer:
    """A JSON POST from the person's own address (one connection each: people do not
    share them), answered 200 or raised."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port,
                                                   local_addr=(person.address, 0))
    data = orjson.dumps(body)
    head = (f"POST {path} HTTP/1.1\r\nhost: 127.0.0.1:{port}\r\n"
            f"origin: http://127.0.0.1:{port}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(data)}\r\nconnection: close\r\n"
            + "".join(f"{k}: {v}\r\n" for k, v in person.headers().items()) + "\r\n")
    try:
        writer.write(head.encode("latin-1") + data)
        answer = await reader.read()
    finally:
        writer.close()
    status_line, _, rest = answer.partition(b"\r\n")
    head_bytes, _, payload = rest.partition(b"\r\n\r\n")
    if b"transfer-encoding: chunked" in head_bytes.lower():   # a forwarded answer
        payload = _dechunk(payload)
    if b" 200 " not in status_line + b" ":
        raise RuntimeError(f"{path}: {status_line.decode(errors='replace')} "
                           f"{payload[:200].decode(errors='replace')}")
    for line in head_bytes.split(b"\r\n"):           # a new guest: the cookie it is given
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"set-cookie" and value.strip().startswith(b"tute_player="):
            person.secret = value.strip()[12:].split(b";")[0].decode("ascii")
    return msgspec.json.decode(payload, type=Answer)


def _dechunk(body: bytes) -> bytes:
    """A body sent in chunks (HTTP/1.1), joined."""
    out: list[bytes] = []
    at = 0
    while True:
        end = body.index(b"\r\n", at)
        size = int(body[at:end].split(b";")[0], 16)
        if size == 0:
            return b"".join(out)
        out.append(body[end + 2:end + 2 + size])
        at = end + 2 + size + 2


async def set_up(ports: Sequence[int], k: int) -> tuple[str, list[Person]]:
    """Table ``k``: its host creates it, three others sit, all four connect (seat *s*
    to process *(k + s) mod P*: most reach a process that does not own the table)."""
    people = [Person(s, address(4 * k + s)) for s in range(4)]

    def port(s: int) -> int:
        return ports[(k + s) % len(ports)]
    made = await post(port(0), "/api/tables", people[0],
                      {"variant": "parejas", "name": f"H{k}", "seat": 0})
    table = made.id
    for p in people[1:]:
        await post(port(p.seat), f"/api/tables/{table}/seats", p,
                   {"seat": p.seat, "name": f"P{k}-{p.seat}"})
    for p in people:
        p.ws = await connect(f"ws://127.0.0.1:{port(p.seat)}/ws/{table}",
                             additional_headers={**p.headers(),
                                                 "origin": f"http://127.0.0.1:{port(p.seat)}"},
                             local_addr=(p.address, 0), max_size=None, ping_interval=None,
                             open_timeout=120, close_timeout=2)
    return table, people


def _think(p: Person, figures: Figures) -> None:
    """The person's turn came (or a match ended, for the host): act in 1-4 s."""
    v = p.view
    if v is None or p.due is not None or p.sent_at is not None:
        return
    loop = asyncio.get_running_loop()
    if v.to_act == p.seat and v.legal:
        p.due = loop.call_later(random.uniform(*PACE), _act, p, figures)
    elif p.seat == 0 and v.match is not None and v.match.over and not figures.ending:
        p.due = loop.call_later(random.uniform(*PACE), _start, p, figures)


def _act(p: Person, figures: Figures) -> None:
    p.due = None
    v, ws = p.view, p.ws
    if v is None or ws is None or figures.ending or v.to_act != p.seat or not v.legal:
        return
    p.sent, p.sent_at = v.legal[0], time.perf_counter()
    figures.send(ws, orjson.dumps({"type": "act", "action": p.sent}))


def _start(p: Person, figures: Figures) -> None:
    p.due = None
    if p.ws is not None:
        figures.send(p.ws, b'{"type":"start"}')


async def _send(ws: ClientConnection, data: bytes) -> None:
    try:
        await ws.send(data.decode())
    except Exception:                     # the socket is gone: its reader counts it
        return


async def read(p: Person, figures: Figures) -> None:
    """Every message of the person's socket, until it closes."""
    assert p.ws is not None
    try:
        async for raw in p.ws:
            m = seen(raw)
            if m.type == "error":
                figures.errors.append(str(m.key))
                p.sent_at = None
            elif m.type != "event":
                continue
            ev = m.event
            if p.sent_at is not None and ev is not None and ev.kind == "action" \
                    and ev.seat == p.seat and ev.action == p.sent:
                if figures.window[0] <= p.sent_at < figures.window[1]:
                    figures.round_trips.append(time.perf_counter() - p.sent_at)
                p.sent_at = None
            if m.view is not None:
                p.view = m.view
            _think(p, figures)
    except Exception:
        pass
    if not figures.ending:
        figures.lost += 1


def _histogram(text: str) -> list[tuple[float, float]]:
    out = []
    for line in text.splitlines():
        if line.startswith("tute_action_duration_seconds_bucket"):
            le = line.split('"')[1]
            out.append((float("inf") if le == "+Inf" else float(le),
                        float(line.rsplit(" ", 1)[1])))
    return out


def _pauses(text: str) -> dict[str, float]:
    """The collector's pauses and the loop's lag of one exposition: ``"<generation> <le>"``
    (``"lag <le>"``) -> the cumulative count, ``"<generation> sum"`` -> seconds."""
    out: dict[str, float] = {}
    for line in text.splitlines():
        value = float(line.rsplit(" ", 1)[-1]) if line[:1] != "#" else 0.0
        quoted = line.split('"')
        if line.startswith("tute_gc_pause_seconds_bucket"):
            out[quoted[1] + " " + quoted[3]] = value
        elif line.startswith("tute_gc_pause_seconds_sum"):
            out[quoted[1] + " sum"] = value
        elif line.startswith("tute_loop_lag_seconds_bucket"):
            out["lag " + quoted[1]] = value
        elif line.startswith("tute_loop_lag_seconds_sum"):
            out["lag sum"] = value
    return out


async def _server_histogram(http: httpx.AsyncClient, ports: Sequence[int]
                            ) -> tuple[list[tuple[float, float]], dict[str, float]]:
    """Every process's action histogram and collector pauses, added up."""
    total: list[tuple[float, float]] = []
    pauses: dict[str, float] = {}
    for port in ports:
        r = await http.get(f"http://127.0.0.1:{port}/metrics")
        one = _histogram(r.text)
        total = one if not total else [(b, c + d) for (b, c), (_, d)
                                       in zip(total, one, strict=True)]
        for key, value in _pauses(r.text).items():
            pauses[key] = pauses.get(key, 0.0) + value
    return total, pauses


def _pause_figures(before: dict[str, float], after: dict[str, float]) -> dict[str, Any]:
    """The window's collections by generation: how many, their time, the longest's bound."""
    out: dict[str, Any] = {}
    for generation in ("0", "1", "2", "lag"):
        keys = [k for k in after if k.startswith(f"{generation} ") and k != f"{generation} sum"]
        bounds = sorted(((float("inf") if k.split()[1] == "+Inf" else float(k.split()[1])),
                         after[k] - before.get(k, 0.0)) for k in keys)
        count = bounds[-1][1] if bounds else 0.0
        longest = next((b for b, c in bounds if c >= count), None) if count else None
        seconds = after.get(f"{generation} sum", 0.0) - before.get(f"{generation} sum", 0.0)
        one: dict[str, Any] = {"count": int(count), "ms": round(1000 * seconds, 1),
                               "longest_under_ms": None if longest is None else _ms(longest)}
        if generation == "lag":
            one["p99_ms"] = _ms(histogram_quantile(0.99, bounds))
        out["loop_lag" if generation == "lag" else f"gc{generation}"] = one
    return out


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(1000 * seconds, 1)


async def _run(tables: int, seconds: float, ports: Sequence[int], made: list[str],
               costs: Costs, ramp: float, settle: float) -> dict[str, Any]:
    figures = Figures()
    rss_before = costs.rss_mb()
    gate = asyncio.Semaphore(GATE)
    began = time.perf_counter()

    async def one(k: int) -> list[Person] | None:
        async with gate:
            try:
                table, people = await set_up(ports, k)
                made.append(table)
                return people
            except Exception as e:                # a table that could not be set up
                figures.errors.append(f"set-up: {e!r}"[:200])
                return None

    ready = [p for p in await asyncio.gather(*(one(k) for k in range(tables)))
             if p is not None]
    setup_seconds = time.perf_counter() - began
    collector = Collector()                  # the harness's own pauses (its young
    collector.start()                        # collections' bursts) stay out of the
    collecting = asyncio.ensure_future(collector.run())   # figures: the server's policy
    readers = [asyncio.ensure_future(read(p, figures)) for people in ready for p in people]
    start = time.perf_counter()
    figures.window = (start + ramp + settle, start + ramp + settle + seconds)
    loop = asyncio.get_running_loop()
    for people in ready:                       # the host starts at a moment of the ramp
        loop.call_later(random.uniform(0, ramp), _start, people[0], figures)
    async with httpx.AsyncClient(timeout=60) as http:
        await asyncio.sleep(max(0.0, figures.window[0] - time.perf_counter()))
        (before, paused0), cost0 = await _server_histogram(http, ports), \
            await asyncio.to_thread(costs.read)
        rss_playing = costs.rss_mb()
        await asyncio.sleep(max(0.0, figures.window[1] - time.perf_counter()))
        (after, paused1), cost1 = await _server_histogram(http, ports), \
            await asyncio.to_thread(costs.read)
        connected = sum(1 for people in ready for p in people
                        if p.ws is not None and p.ws.state.name == "OPEN")
    figures.ending = True
    await asyncio.sleep(2.0)                   # the answers to the last actions
    for people in ready:
        for p in people:
            if p.due is not None:
                p.due.cancel()
    await asyncio.gather(*(p.ws.close() for people in ready for p in people
                           if p.ws is not None), return_exceptions=True)
    for task in readers:
        task.cancel()
    collecting.cancel()
    collector.stop()
    window = [(b, a - c) for (b, a), (_, c) in zip(after, before, strict=True)]
    actions = window[-1][1] if window else 0
    trips = sorted(figures.round_trips)
    cpu = None if cost1["cpu_ms"] is None or cost0["cpu_ms"] is None or not actions \
        else round((cost1["cpu_ms"] - cost0["cpu_ms"]) / actions, 3)
    memory = None if rss_before is None or rss_playing is None or not ready \
        else round(1024 * (rss_playing - rss_before) / len(ready), 1)
    return {
        "mode": "human", "tables": tables, "processes": len(ports),
        "tables_set_up": len(ready), "seats_connected": connected,
        "setup_seconds": round(setup_seconds, 1), "seconds": seconds,
        "actions": int(actions), "actions_per_second": round(actions / seconds, 1),
        "server_p50_ms": _ms(histogram_quantile(0.5, window)),
        "server_p99_ms": _ms(histogram_quantile(0.99, window)),
        "server_p999_ms": _ms(histogram_quantile(0.999, window)),
        "round_trip_p50_ms": _ms(statistics.median(trips)) if trips else None,
        "round_trip_p99_ms": _ms(trips[int(0.99 * (len(trips) - 1))]) if trips else None,
        "cpu_ms_per_action": cpu,
        "server_rss_mb": None if rss_playing is None else round(rss_playing, 1),
        "kib_per_table": memory,
        "errors": len(figures.errors) + figures.lost,
        "error_kinds": sorted(set(figures.errors))[:10],
        "sockets_lost": figures.lost,
        "collector": _pause_figures(paused0, paused1),
    }


def run(tables: int, seconds: float, processes: int = 1, db: str | None = None,
        bus: str | None = None, ramp: float = RAMP, settle: float = SETTLE
        ) -> dict[str, Any]:
    """The human-paced run against fresh servers with their default limits (tables
    start over ``ramp`` seconds; the window opens ``settle`` seconds later)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:                        # 10,000 sockets on each side
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    with Servers(processes, db, bus) as servers:
        return uvloop.run(_run(tables, seconds, servers.ports, servers.made,
                               servers.costs(), ramp, settle))
