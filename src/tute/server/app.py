"""The web server: an HTTP lobby, a WebSocket per seat, the static web client.

HTTP (JSON bodies, ``Content-Type: application/json``; docs/server.md has the details):
  ``GET  /api/tables``                         the open and running tables
  ``GET  /api/session``                        where this browser sits
  ``GET  /help/{variant}?lang=es``             the rules of a variant, as a page
  ``POST /api/tables`` {name, seat, options}   a new table, its creator seated as host
  ``POST /api/tables/{id}/seats`` {seat, name} take the seat of one's choice
  ``POST /api/tables/{id}/robots``             the host fills the empty seats
  ``POST /api/tables/{id}/start``              the host starts a match
  ``POST /api/tables/{id}/options`` {options}  the host, before or between matches

A person is a guest's secret in an HttpOnly cookie (:mod:`tute.server.site.sessions`): the
page never holds a seat's key.  WebSocket ``/lobby/ws``: the tables' listing, sent
again whenever it changes.  WebSocket ``/ws/{id}?last=N&lang=es``: the server sends
what the seat missed after event N, then every event with the seat's view; the client
sends ``{"type": "act", "action": "Ao"}``, ``{"type": "start"}`` (the host: the next
match) or ``{"type": "ping"}``; a refusal is ``{"type": "error", "message", "key"}``
and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from html import escape
from pathlib import Path
from typing import Any, TypeVar

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from tute.bots import BEST, LEVELS
from tute.core.errors import TuteError
from tute.core.variants import parse_variant
from tute.i18n import LANGS, load_catalog
from tute.server.cluster.bus import Cluster
from tute.server.cluster.forward import Forward, PeerTrust
from tute.server.cluster.ownership import Ownership
from tute.server.cluster.relay import Relay
from tute.server.db.migrate import check as check_schema
from tute.server.site import ledger
from tute.server.site.accounts import SESSION_COOKIE, SESSION_DAYS, Account, Accounts
from tute.server.site.economy import Purse
from tute.server.site.help import help_page
from tute.server.site.ratings import family, suggest
from tute.server.site.review import DEFAULT_BUDGET_MS, Reviews
from tute.server.site.sessions import ensure_player, player_of, set_cookie
from tute.server.social.chat import ChatError
from tute.server.social.doors import Door, Social, door_of
from tute.server.social.friends import Friends, Presence
from tute.server.social.invites import Invites, server_key
from tute.server.social.lobbychat import LobbyChat
from tute.server.social.moderation import Moderation, account_of_author
from tute.server.store import Store, StoreError
from tute.server.tables.audience import author_of
from tute.server.tables.kept import Kept, KeptError, parse_game_id, replay_hand
from tute.server.tables.lobby import Lobby, offered_variants
from tute.server.tables.robots import Thinkers
from tute.server.tables.runtime import TableError, TableRuntime
from tute.server.wire.edge import Edge, client_address, lang_of
from tute.server.wire.hub import SPECTATOR, Viewer
from tute.server.wire.limits import Limits, Window
from tute.server.wire.lobbyfeed import LobbyFeed
from tute.server.wire.metrics import metrics_route
from tute.server.wire.protocol import (
    Block,
    BlockBody,
    Chat,
    CreateTable,
    Credentials,
    Empty,
    Ping,
    Report,
    SitDown,
    TableOptions,
    decode_body,
    decode_message,
)
from tute.server.wire.seatsocket import drain, last_seen, serve_seat
from tute.server.wire.views import encode

log = logging.getLogger("tute.server")
T = TypeVar("T")
STATIC = Path(__file__).parent / "static"
SWEEP_SECONDS = 30.0

_STATUS = {"no_such_table": 404, "table_broken": 410, "only_host": 403,
           "only_host_starts": 403, "too_many_tables": 429, "too_many_open_tables": 429,
           "bad_login": 401, "not_logged_in": 401, "too_many_logins": 429,
           "name_taken": 409, "no_such_game": 404, "no_such_hand": 404,
           "private_table": 403, "no_such_person": 404, "analysis_busy": 503,
           "analysis_one_at_a_time": 429, "analysis_no_seat": 404, "analysis_sat_out": 404,
           "tables_unavailable": 503, "table_moved": 503}


def locked(row: dict[str, Any]) -> dict[str, Any]:
    """A table of the lobby as a stranger sees it: a private table without its id (no
    way in, nor to watch), marked locked; any other as it is."""
    if not row.get("private"):
        return row
    return {**row, "id": "", "may_sit": False, "spectators_allowed": False}


def _error(e: TuteError, lang: str) -> JSONResponse:
    status = 503 if isinstance(e, StoreError) else _STATUS.get(e.key, 400)
    return JSONResponse({"error": e.localized(lang), "key": e.key}, status_code=status)


def create_app(db_url: str = "sqlite:///tute.db", robot_delay: float = 0.4,
               limits: Limits | None = None, thinkers: Thinkers | None = None,
               migrate: bool = True, analysis_ms: float = DEFAULT_BUDGET_MS,
               local_only: bool = False, bus: str | None = None,
               advertise: str = "http://127.0.0.1:8000", lease_seconds: float = 6.0,
               allowed_hosts: frozenset[str] | None = None) -> Starlette:
    """The web app over the store at ``db_url``.  ``local_only``: the server listens on
    this machine's loopback only, so the page tells a host that friends elsewhere cannot
    join until it listens on another address (``tute serve --host 0.0.0.0``).

    ``bus`` (``redis://…``): one process of several over the same store
    (:mod:`tute.server.cluster.ownership`); the others reach this one at ``advertise``.
    ``allowed_hosts``: the names requests may be sent to besides addresses and
    ``localhost`` (None: any; :func:`~tute.server.wire.edge.host_allowed`)."""
    limits = limits or Limits()
    store = Store(db_url, migrate_schema=migrate and bus is None)
    if bus is not None:                  # several processes: migrated once per deploy
        check_schema(store.engine)
    moderation = Moderation(store.engine)
    lobby = Lobby(store, thinkers or Thinkers(), limits, robot_delay, Purse(store.engine),
                  moderation)
    ownership = None
    if bus is None:
        lobby.restore()                            # unfinished tables come back
    else:                                          # they are adopted as leases allow
        ownership = Ownership(Cluster(bus, db_url, advertise, lease_seconds), lobby)
    listing = lobby.listing if ownership is None else ownership.listing
    feed = LobbyFeed(lambda: [locked(row) for row in listing()], limits.lobby_pages,
                     limits.lobby_per_address, limits.lobby_per_person)
    people = Accounts(store.engine, cache_sessions=bus is None)
    presence = Presence()
    talk = LobbyChat(store.engine, moderation)
    try:
        talk.load()
    except Exception:
        log.exception("the lobby's chat could not be read; it starts empty")
    kept = Kept(store.engine)
    relay = None if ownership is None else Relay(ownership.cluster, talk, feed, presence)

    def account(conn: Any) -> Account | None:
        return people.account_of(conn.cookies.get(SESSION_COOKIE))

    def who(conn: Any) -> str | None:
        """The player key of a request: its account's when logged in, else the guest's."""
        logged = account(conn)
        return logged.player if logged is not None else player_of(conn)

    def ensure(conn: Any) -> tuple[str, str | None]:
        logged = account(conn)
        return (logged.player, None) if logged is not None else ensure_player(conn)

    async def index(request: Request) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    async def catalog(request: Request) -> JSONResponse:
        lang = request.path_params["lang"]
        if lang not in LANGS:
            return JSONResponse({"error": "no such language: es, pt, it, en",
                                 "key": "no_such_language"}, status_code=404)
        return JSONResponse(load_catalog(lang),
                            headers={"cache-control": "public, max-age=300"})

    async def rules(request: Request) -> HTMLResponse:
        """The help page of a variant (its text as the lobby offers it)."""
        lang = lang_of(request.scope)
        try:
            variant = parse_variant(request.path_params["variant"])
        except TuteError as e:
            return HTMLResponse(f"<!doctype html><p>{escape(e.localized(lang))}</p>",
                                status_code=404)
        return HTMLResponse(help_page(variant, lang))

    async def meta(request: Request) -> JSONResponse:
        """What the page offers, from the engine (no rule table in the page): the games,
        the robot levels (the strongest first chosen), and whether only this machine can
        reach the server."""
        return JSONResponse({
            "variants": [{"text": str(v), "preset": v.preset, "players": v.players,
                          "match": v.match, "target": v.match_target}
                         for v in offered_variants()],
            "levels": list(LEVELS), "best": BEST, "local_only": local_only})

    async def list_tables(request: Request) -> JSONResponse:
        """The open and running tables; for a logged-in person, the open table nearest
        in skill is ``suggested``."""
        rows = listing()
        person = account(request)
        if person is not None:
            found = await run(lambda: suggested_for(person.id))
            for row in rows:
                row["suggested"] = row["id"] == found
        private = [d for d in social.doors() if d.private]
        if private:                                # open to me, or locked
            token = request.query_params.get("invite")
            mine = await run(lambda: {d.id for d in private
                                      if social.may_sit(d, person, token)})
            rows = [{**row, "may_sit": True} if row["id"] in mine else locked(row)
                    for row in rows]
        return JSONResponse({"tables": rows})

    def suggested_for(who: int) -> str | None:
        candidates = []
        for t in lobby.tables.values():
            if t.status != "open" or len(t.seats) >= t.variant.players:
                continue
            people = [r.account for r in t.seats.values() if r.account is not None]
            candidates.append((t.id, family(t.variant), people))
        with store.engine.connect() as c:
            return suggest(c, who, candidates)

    async def session(request: Request) -> JSONResponse:
        return JSONResponse({"tables": lobby.seated(who(request))})

    # ------------------------------------------------------------------ accounts
    async def run(fn: Callable[[], T]) -> T:
        """Database and password work off the event loop (argon2 takes ~50 ms)."""
        return await asyncio.get_running_loop().run_in_executor(None, fn)

    def logged_in(request: Request, found: tuple[Account, str]) -> JSONResponse:
        person, secret = found
        response = JSONResponse(people.me(person))
        response.set_cookie(SESSION_COOKIE, secret, max_age=SESSION_DAYS * 86400, path="/",
                            httponly=True, samesite="lax",
                            secure=request.url.scheme == "https")
        return response

    async def with_credentials(request: Request,
                               step: Callable[[str, str, str], tuple[Account, str]]
                               ) -> JSONResponse:
        """Register or log in (``step``), then answer with the profile and the cookie."""
        lang = lang_of(request.scope)
        try:
            data = decode_body(Credentials, await body(request))
            address = client_address(request.scope)
            found = await run(lambda: step(data.name, data.password, address))
            return await run(lambda: logged_in(request, found))
        except TuteError as e:
            return _error(e, lang)

    async def register(request: Request) -> JSONResponse:
        return await with_credentials(request, people.register)

    async def login(request: Request) -> JSONResponse:
        return await with_credentials(request, people.login)

    async def logout(request: Request) -> JSONResponse:
        secret = request.cookies.get(SESSION_COOKIE)
        await run(lambda: people.logout(secret))
        response = JSONResponse({"ok": True})
        response.delete_cookie(SESSION_COOKIE, path="/")
        return response

    def can_bet(person: Account | None, bet: int) -> None:
        """A competitive table takes logged-in people who can cover its bet."""
        if person is None:
            raise TuteError("competitive_needs_account")
        have = people.chips(person)
        if have < bet:
            raise ledger.LedgerError("not_enough_chips", need=bet, have=have)

    def me_of(request: Request) -> Account:
        person = account(request)
        if person is None:
            raise TuteError("not_logged_in")
        return person

    async def me(request: Request) -> JSONResponse:
        try:
            person = await run(lambda: me_of(request))
            return JSONResponse(await run(lambda: people.me(person)))
        except TuteError as e:
            return _error(e, lang_of(request.scope))

    async def rankings(request: Request) -> JSONResponse:
        period = request.query_params.get("period", "all")
        try:
            rows = await run(lambda: people.rankings(period))
        except TuteError as e:
            return _error(e, lang_of(request.scope))
        return JSONResponse({"period": period, "rows": rows})

    async def chips_ledger(request: Request) -> JSONResponse:
        try:
            person = await run(lambda: me_of(request))
        except TuteError as e:
            return _error(e, lang_of(request.scope))
        moves = await run(lambda: ledger.movements(store.engine, person.chips_account))
        mine = person.chips_account
        return JSONResponse({"movements": [
            {"at": m.at, "amount": m.amount if m.dest == mine else -m.amount,
             "memo": m.memo, "key": m.key} for m in moves]})

    async def blocked(request: Request) -> JSONResponse:
        """The accounts this person blocks (``GET``), or block and unblock (``POST``)."""
        lang = lang_of(request.scope)
        try:
            person = await run(lambda: me_of(request))
            if request.method == "POST":
                data = decode_body(BlockBody, await body(request))
                other = account_of_author(data.author)
                if other is None or other == person.id:
                    raise ChatError("chat_bad_author")
                await run(lambda: moderation.block(person.id, other, data.on))
            return JSONResponse({"blocked": await run(
                lambda: moderation.blocked_names(person.id))})
        except TuteError as e:
            return _error(e, lang)

    async def my_games(request: Request) -> JSONResponse:
        """The logged-in person's finished matches (the profile's history)."""
        try:
            person = await run(lambda: me_of(request))
            return JSONResponse({"games": await run(lambda: kept.history(person.id))})
        except TuteError as e:
            return _error(e, lang_of(request.scope))

    def check_may_see(request: Request, table_id: str, number: int) -> None:
        """A kept match of a private table: only for who could sit or watch there
        (anyone else is told there is no such game)."""
        door = kept.door(table_id, number)
        if not door.private:
            return
        person = account(request)
        if person is not None and person.id in door.players:
            return
        if not social.may_sit(Door(table_id, True, door.invited, door.host, door.players,
                                   "", "over", False), person, None):
            raise KeptError("no_such_game")

    async def may_see(request: Request, table_id: str, number: int) -> None:
        await run(lambda: check_may_see(request, table_id, number))

    async def game(request: Request) -> JSONResponse:
        """A kept match and one of its hands step by step (``?hand=N``, 1 the first)."""
        lang = lang_of(request.scope)
        try:
            table_id, number = parse_game_id(request.path_params["game_id"])
            await may_see(request, table_id, number)
            text = request.query_params.get("hand", "1")
            hand = int(text) if text.isascii() and text.isdigit() and len(text) < 6 else 0
            summary = await run(lambda: kept.summary(table_id, number))
            record = await run(lambda: kept.record(table_id, number))
            steps = await run(lambda: replay_hand(record, hand))
        except TuteError as e:
            return _error(e, lang)
        for key in ("first_seq", "last_seq"):
            summary.pop(key)
        return JSONResponse({"game": summary, "replay": steps})

    async def game_record(request: Request) -> Response:
        """A kept match as a ``.tute`` record, to download (``tute replay`` reads it)."""
        lang = lang_of(request.scope)
        try:
            table_id, number = parse_game_id(request.path_params["game_id"])
            await may_see(request, table_id, number)
            text = await run(lambda: kept.record_text(table_id, number))
        except TuteError as e:
            return _error(e, lang)
        name = f"tute-{table_id}-{number}.tute"
        return Response(text, media_type="text/plain; charset=utf-8", headers={
            "content-disposition": f'attachment; filename="{name}"'})

    async def replay_page(request: Request) -> FileResponse:
        return FileResponse(STATIC / "replay.html")

    async def body(request: Request) -> bytes:
        return await request.body()                # read whole and capped by the edge

    def answer(request: Request, data: dict[str, Any], secret: str | None) -> JSONResponse:
        response = JSONResponse(data)
        if secret is not None:
            set_cookie(response, secret, request)
        return response

    async def new_table(request: Request) -> JSONResponse:
        lang = lang_of(request.scope)
        try:
            data = decode_body(CreateTable, await body(request))
            player, secret = ensure(request)
            logged = account(request)
            if data.competitive:
                await run(lambda: can_bet(logged, data.bet))
            table = await lobby.create(data, player, client_address(request.scope),
                                       logged.id if logged else None)
        except TuteError as e:
            return _error(e, lang)
        seat = table.seat_of(player)
        return answer(request, {"id": table.id, "seat": seat, "table": table.summary()},
                      secret if seat is not None else None)

    async def sit(request: Request) -> JSONResponse:
        lang = lang_of(request.scope)
        try:
            data = decode_body(SitDown, await body(request))
            table = lobby.get(request.path_params["table_id"])
            player, secret = ensure(request)
            logged = account(request)
            if table.options.competitive:
                await run(lambda: can_bet(logged, table.options.bet))
            await run(lambda: social.check_sit(table, logged, data.invite))
            await table.sit(player, data.seat, data.name, logged.id if logged else None,
                            client_address(request.scope))
        except TuteError as e:
            return _error(e, lang)
        return answer(request, {"id": table.id, "seat": data.seat,
                                "table": table.summary()}, secret)

    async def host_request(request: Request, kind: type[Any],
                           do: Callable[[TableRuntime, str, Any], Awaitable[None]]
                           ) -> JSONResponse:
        """A request only the host may make: the body as ``kind``, then ``do``."""
        lang = lang_of(request.scope)
        try:
            data = decode_body(kind, await body(request))
            table = lobby.get(request.path_params["table_id"])
            await do(table, who(request) or "", data)
        except TuteError as e:
            return _error(e, lang)
        return JSONResponse({"table": table.summary()})

    async def robots(request: Request) -> JSONResponse:
        return await host_request(request, Empty, lambda t, p, _: t.fill_robots(p))

    async def start(request: Request) -> JSONResponse:
        return await host_request(request, Empty, lambda t, p, _: t.start(p))

    async def options(request: Request) -> JSONResponse:
        return await host_request(request, TableOptions,
                                  lambda t, p, d: t.set_options(p, d.to_options(t.options)))

    async def play(ws: WebSocket) -> None:
        lang = lang_of(ws.scope)
        player = who(ws)
        table = lobby.tables.get(ws.path_params["table_id"])
        await ws.accept()
        try:
            last = last_seen(ws.query_params.get("last", "0"))
            if table is None:
                lobby.get(ws.path_params["table_id"])   # raises: which refusal
                return
            seat = table.seat_of(player)
            if seat is None and ws.query_params.get("watch") == "1":
                if not table.options.spectators:
                    raise TableError("no_spectators")
                if table.options.private and not await run(
                        lambda: social.may_sit(door_of(table), account(ws), None)):
                    raise TableError("private_table")   # its public: who may sit there
                seat = SPECTATOR                    # the public table only
            if seat is None:
                raise TableError("not_seated")
        except TuteError as e:
            await ws.send_text(encode({"type": "error", "message": e.localized(lang),
                                       "key": e.key}))
            await ws.close(code=4400)
            return
        logged = account(ws)
        row = table.seats.get(seat)
        holder = row.account if row is not None else (logged.id if logged else None)
        author = author_of(player, holder, table.id)
        viewer = Viewer(seat, author, logged.name if logged and seat == SPECTATOR else "",
                        set(table.muted.get(author, ())), client_address(ws.scope))
        if logged is not None:                      # whom the account blocks, hidden
            try:
                blocked = await run(lambda: moderation.blocked(logged.id))
                viewer.hidden.update(f"a{b}" for b in blocked)
            except Exception:
                log.exception("table %s: the blocks of account %d not read", table.id,
                              logged.id)
        if not table.attach(viewer):
            await ws.send_text(encode({"type": "error", "key": "too_many_sockets",
                                       "message": TuteError("too_many_sockets")
                                       .localized(lang)}))
            await ws.close(code=4429)
            return
        for message in table.missed(viewer, last):
            viewer.push(encode(message))
        if logged is not None:
            presence.came(logged.id, viewer)
        writer = asyncio.get_running_loop().create_task(drain(viewer, ws))
        try:
            await serve_seat(ws, table, player, viewer, Window(limits.messages,
                                                           limits.messages_window), lang,
                         lambda other, on: block(logged, viewer, other, on))
        finally:
            table.detach(viewer)
            if logged is not None:
                presence.went(logged.id, viewer)
            viewer.drop()
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer

    async def lobby_page(ws: WebSocket) -> None:
        """The lobby's tables, live, and its chat (a page sends pings, chat messages and
        reports)."""
        lang = lang_of(ws.scope)
        await ws.accept()
        logged = account(ws)
        viewer = Viewer(SPECTATOR, f"a{logged.id}" if logged else "",
                        logged.name if logged else "", None, client_address(ws.scope))
        if logged is not None:
            with contextlib.suppress(Exception):       # the blocks: best effort
                blocked = await run(lambda: moderation.blocked(logged.id))
                viewer.hidden.update(f"a{b}" for b in blocked)
        if not feed.attach(viewer):
            e = TuteError("too_many_sockets")
            await ws.send_text(encode({"type": "error", "key": e.key,
                                       "message": e.localized(lang)}))
            await ws.close(code=4429)
            return
        viewer.push(talk.history(viewer))
        if logged is not None:
            presence.came(logged.id, viewer)
        writer = asyncio.get_running_loop().create_task(drain(viewer, ws))
        window = Window(limits.messages, limits.messages_window)
        try:
            while True:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect" or not window.allow():
                    return
                try:
                    message = decode_message(frame.get("text") or frame.get("bytes") or b"")
                    if isinstance(message, Chat):
                        await talk.say(viewer, logged.id if logged else None, message.text,
                                       lang, feed.viewers)
                    elif isinstance(message, Report):
                        await talk.report(viewer, message.seq)
                    elif isinstance(message, Block):
                        await block(logged, viewer, message.author, message.on)
                    elif isinstance(message, Ping):
                        viewer.push('{"type":"pong"}')
                except TuteError as e:
                    viewer.push(encode({"type": "error", "message": e.localized(lang),
                                        "key": e.key}))
                except Exception:
                    log.exception("the lobby: a message could not be handled")
                    fault = TuteError("server_fault")
                    viewer.push(encode({"type": "error", "message": fault.localized(lang),
                                        "key": fault.key}))
        except WebSocketDisconnect:
            return
        finally:
            feed.detach(viewer)
            if logged is not None:
                presence.went(logged.id, viewer)
            viewer.drop()
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer

    async def block(person: Account | None, viewer: Viewer, author: str, on: bool) -> None:
        """A logged-in person blocks (or unblocks) the account behind ``author``."""
        other = account_of_author(author)
        if person is None:
            raise TuteError("not_logged_in")
        if other is None or other == person.id:
            raise ChatError("chat_bad_author")
        try:
            await run(lambda: moderation.block(person.id, other, on))
        except Exception as e:
            raise StoreError("table_not_saved") from e
        if on:
            viewer.hidden.add(author)
        else:
            viewer.hidden.discard(author)

    async def sweeper() -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                await lobby.sweep()
            except Exception:
                log.exception("the lobby's sweep failed; it runs again")

    reviews = Reviews(store.engine, kept, who, _error, analysis_ms, may_see)

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        if ownership is None:
            lobby.resume()                      # unfinished tables go on after a restart
        else:
            await ownership.start()             # and adopts the tables nobody holds
        if relay is not None:
            await relay.start()
        _app.state.loop = asyncio.get_running_loop()     # tools and tests reach it
        task = asyncio.get_running_loop().create_task(sweeper())
        feeding = asyncio.get_running_loop().create_task(feed.run())
        # what is alive at the start (the code, numba, restored tables) stays: out of
        # the collector's way; full collections walk every connection's objects, so
        # they run a tenth as often (docs/server.md: the pauses they caused)
        gc.collect()
        gc.freeze()
        gc.set_threshold(700, 10, 100)
        try:
            yield
        finally:
            task.cancel()
            feeding.cancel()
            feed.close()
            if relay is not None:
                await relay.stop()
            if ownership is not None:
                await ownership.stop()
            lobby.shut()
            lobby.thinkers.close()
            reviews.close()
            store.close()

    social = Social(Friends(store.engine), presence, Invites(server_key(store.engine)),
                    lobby, account, _error, who)
    if ownership is not None:
        social.elsewhere = ownership.doors

    app = Starlette(routes=[
        *social.routes(),
        *reviews.routes(),
        Route("/", index),
        Route("/i18n/{lang}.json", catalog, methods=["GET"]),
        Route("/api/meta", meta, methods=["GET"]),
        metrics_route(lobby),
        Route("/help/{variant:path}", rules, methods=["GET"]),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/session", session, methods=["GET"]),
        Route("/api/tables", new_table, methods=["POST"]),
        Route("/api/register", register, methods=["POST"]),
        Route("/api/login", login, methods=["POST"]),
        Route("/api/logout", logout, methods=["POST"]),
        Route("/api/me", me, methods=["GET"]),
        Route("/api/rankings", rankings, methods=["GET"]),
        Route("/api/ledger", chips_ledger, methods=["GET"]),
        Route("/api/blocks", blocked, methods=["GET", "POST"]),
        Route("/api/games", my_games, methods=["GET"]),
        Route("/api/games/{game_id}", game, methods=["GET"]),
        Route("/api/games/{game_id}/record.tute", game_record, methods=["GET"]),
        Route("/games/{game_id}", replay_page, methods=["GET"]),
        Route("/api/tables/{table_id}/seats", sit, methods=["POST"]),
        Route("/api/tables/{table_id}/robots", robots, methods=["POST"]),
        Route("/api/tables/{table_id}/start", start, methods=["POST"]),
        Route("/api/tables/{table_id}/options", options, methods=["POST"]),
        WebSocketRoute("/lobby/ws", lobby_page),
        WebSocketRoute("/ws/{table_id}", play),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ], lifespan=lifespan, middleware=[Middleware(PeerTrust, ownership=ownership),
                                      Middleware(Edge, limits=limits,
                                                 allowed_hosts=allowed_hosts),
                                      Middleware(Forward, ownership=ownership)])
    app.state.lobby = lobby
    app.state.ownership = ownership
    app.state.reviews = reviews
    app.state.store = store
    app.state.accounts = people
    return app
