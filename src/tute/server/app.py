"""The web server: an HTTP lobby, a WebSocket per seat, the static web client.

HTTP (JSON):
  ``GET  /api/tables``                       the tables
  ``POST /api/tables`` {variant, robot_level} a new table -> {"id"}
  ``POST /api/tables/{id}/seats`` {seat, name} take a seat -> {"token"}
  ``POST /api/tables/{id}/robots``          fill the empty seats with robots
  ``POST /api/tables/{id}/start`` {token}   the host starts the match

WebSocket ``/ws/{id}?token=...&last=N``: the server sends what the seat missed after
event N, then every event with the seat's view; the client sends
``{"type": "act", "action": "Ao"}`` (the host also ``{"type": "start"}``: the next
match) and gets ``{"type": "error", "message": ...}`` when the rules (or the protocol)
refuse it -- nothing changes then.
"""

from __future__ import annotations

import gc
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import orjson
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from tute.errors import TuteError
from tute.server.robots import Thinkers
from tute.server.store import Store
from tute.server.table import TableError, TableRuntime
from tute.server.wire import encode
from tute.variants import make_variant

STATIC = Path(__file__).parent / "static"


class Lobby:
    def __init__(self, store: Store, robot_delay: float = 0.4,
                 thinkers: Thinkers | None = None) -> None:
        self.store = store
        self.robot_delay = robot_delay
        self.thinkers = thinkers or Thinkers()       # robots that search think there
        self.tables: dict[str, TableRuntime] = {}
        for row in store.table_rows():               # a restart resumes every table
            self.tables[row["id"]] = TableRuntime.restore(store, row, robot_delay,
                                                          self.thinkers)

    def resume_robots(self) -> None:
        for t in self.tables.values():
            t.wake_robots()


def _error(e: TuteError | str, lang: str = "es", status: int = 400) -> JSONResponse:
    message = e.localized(lang) if isinstance(e, TuteError) else e
    return JSONResponse({"error": message}, status_code=status)


async def _body(request: Request) -> dict[str, Any]:
    try:
        data = await request.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


def table_variant(data: dict[str, Any]) -> str:
    """The variant of a table from seed 001's table options, or a variant text."""
    if "preset" not in data:
        return str(data.get("variant", "habanero"))
    options: dict[str, object] = {}
    if "players" in data:
        options["players"] = data["players"]
    rounds = data.get("rounds", 1)
    if not isinstance(rounds, int) or not 1 <= rounds <= 5:
        raise TableError("bad_rounds")
    options["match_target"] = rounds
    if data.get("allow_tute") is False:
        options["tute_set"] = "off"
    if data.get("trump_on_trump"):
        options["stock_obligations"] = "trump_on_trump"
    return str(make_variant(str(data["preset"]), options))


def move_time(data: dict[str, Any]) -> float:
    value = data.get("move_seconds", 0)
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 <= value <= 600:
        raise TableError("bad_move_time")
    return float(value)


def create_app(db_url: str = "sqlite:///tute.db", robot_delay: float = 0.4) -> Starlette:
    lobby = Lobby(Store(db_url), robot_delay)

    def lang_of(request: Request) -> str:
        lang = request.query_params.get("lang", "es")
        return lang if lang in ("es", "pt", "it", "en") else "es"

    async def index(request: Request) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    async def list_tables(request: Request) -> JSONResponse:
        return JSONResponse({"tables": [t.summary() for t in lobby.tables.values()]})

    async def new_table(request: Request) -> JSONResponse:
        data = await _body(request)
        try:
            variant = table_variant(data)
            table = TableRuntime.create(lobby.store, variant,
                                        str(data.get("robot_level", "heuristic")),
                                        lobby.robot_delay, move_time(data),
                                        lobby.thinkers)
        except TuteError as e:
            return _error(e, lang_of(request))
        lobby.tables[table.id] = table
        if data.get("robots_only") is True:          # a table of robots: it plays itself
            await table.fill_robots()
            await table.start(None)
        return JSONResponse({"id": table.id, "table": table.summary()})

    def table_of(request: Request) -> TableRuntime | None:
        return lobby.tables.get(request.path_params["table_id"])

    async def sit(request: Request) -> JSONResponse:
        table = table_of(request)
        if table is None:
            return _error("no such table", status=404)
        data = await _body(request)
        seat = data.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool):
            return _error("seat must be a number")
        try:
            token = await table.sit(seat, str(data.get("name", "")))
        except TuteError as e:
            return _error(e, lang_of(request))
        return JSONResponse({"token": token, "seat": seat, "table": table.summary()})

    async def on_table(request: Request,
                       do: Callable[[TableRuntime, dict[str, Any]], Awaitable[None]]
                       ) -> JSONResponse:
        """Find the table, run ``do`` with the request's JSON; errors in words."""
        table = table_of(request)
        if table is None:
            return _error("no such table", status=404)
        data = await _body(request)
        try:
            await do(table, data)
        except TuteError as e:
            return _error(e, lang_of(request))
        return JSONResponse({"table": table.summary()})

    async def robots(request: Request) -> JSONResponse:
        async def do(table: TableRuntime, _data: dict[str, Any]) -> None:
            await table.fill_robots()
        return await on_table(request, do)

    async def start(request: Request) -> JSONResponse:
        async def do(table: TableRuntime, data: dict[str, Any]) -> None:
            await table.start(str(data.get("token", "")))
        return await on_table(request, do)

    async def options(request: Request) -> JSONResponse:
        async def do(table: TableRuntime, data: dict[str, Any]) -> None:
            await table.set_options(str(data.get("token", "")), table_variant(data),
                                    str(data.get("robot_level", table.robot_level)),
                                    move_time(data))
        return await on_table(request, do)

    async def play(ws: WebSocket) -> None:
        table = lobby.tables.get(ws.path_params["table_id"])
        token = ws.query_params.get("token", "")
        lang = ws.query_params.get("lang", "es")
        await ws.accept()
        seat = table.seat_of(token) if table is not None else None
        if table is None or seat is None:
            await ws.send_json({"type": "error", "message": "no seat at this table"})
            await ws.close()
            return
        try:
            last = int(ws.query_params.get("last", "0"))
        except ValueError:
            last = 0

        for message in table.missed(seat, last):
            await ws.send_text(encode(message))
        table.attach(seat, ws.send_text)
        try:
            while True:
                raw = await ws.receive_text()
                try:
                    message = orjson.loads(raw)
                except orjson.JSONDecodeError:
                    await ws.send_json({"type": "error", "message": "not JSON"})
                    continue
                kind = message.get("type") if isinstance(message, dict) else None
                if kind not in ("act", "start"):
                    await ws.send_json({"type": "error", "message": "unknown message"})
                    continue
                try:
                    if kind == "start":              # the host starts the next match
                        await table.start(token)
                    else:
                        await table.act(token, message.get("action"))
                except TuteError as e:
                    await ws.send_json({"type": "error", "message": e.localized(lang)})
        except WebSocketDisconnect:
            pass
        finally:
            table.detach(seat, ws.send_text)

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        lobby.resume_robots()                    # unfinished tables go on after a restart
        # what is alive at the start (the code, numba, restored tables) stays: out of
        # the collector's way; full collections walk every connection's objects, so
        # they run a tenth as often (docs/server.md: the pauses they caused)
        gc.collect()
        gc.freeze()
        gc.set_threshold(700, 10, 100)
        try:
            yield
        finally:
            lobby.thinkers.close()

    app = Starlette(routes=[
        Route("/", index),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables", new_table, methods=["POST"]),
        Route("/api/tables/{table_id}/seats", sit, methods=["POST"]),
        Route("/api/tables/{table_id}/robots", robots, methods=["POST"]),
        Route("/api/tables/{table_id}/start", start, methods=["POST"]),
        Route("/api/tables/{table_id}/options", options, methods=["POST"]),
        WebSocketRoute("/ws/{table_id}", play),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ], lifespan=lifespan)
    app.state.lobby = lobby
    return app
