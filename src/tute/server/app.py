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
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from starlette.applications import Starlette
from starlette.middleware import Middleware

from tute.analysis import Settings
from tute.core.errors import TuteError
from tute.server.cluster.bus import Cluster
from tute.server.cluster.forward import Forward, PeerTrust
from tute.server.cluster.ownership import Ownership
from tute.server.cluster.relay import Relay
from tute.server.db.migrate import check as check_schema
from tute.server.routes import (
    again,
    bots,
    friends,
    pages,
    people,
    records,
    series,
    sockets,
    tables,
    tourneys,
    work,
)
from tute.server.routes import (
    analysis as analyses,
)
from tute.server.routes.common import Site, locked, refused
from tute.server.routes.doors import Social
from tute.server.site.accounts import Accounts
from tute.server.site.bots import Bots
from tute.server.site.economy import Purse
from tute.server.site.sessions import Guests
from tute.server.site.tourneys import TourneyBook
from tute.server.site.workerkeys import WorkerKeys
from tute.server.social.friends import Friends, Presence
from tute.server.social.invites import Invites, server_key
from tute.server.social.lobbychat import LobbyChat
from tute.server.social.moderation import Moderation
from tute.server.store import Store
from tute.server.tables.director import Director
from tute.server.tables.kept import Kept
from tute.server.tables.lobby import Lobby
from tute.server.tables.openhands import OpenHands
from tute.server.tables.review import SETTINGS, Reviews
from tute.server.tables.robots import Thinkers
from tute.server.wire.collector import Collector
from tute.server.wire.edge import Edge
from tute.server.wire.limits import Limits
from tute.server.wire.lobbyfeed import LobbyFeed

log = logging.getLogger("tute.server")
SWEEP_SECONDS = 30.0


def create_app(db_url: str = "sqlite:///tute.db", robot_delay: float = 0.4,
               limits: Limits | None = None, thinkers: Thinkers | None = None,
               migrate: bool = True, analysis: Settings = SETTINGS,
               local_only: bool = False, bus: str | None = None,
               advertise: str = "http://127.0.0.1:8000", lease_seconds: float = 6.0,
               allowed_hosts: frozenset[str] | None = None, analysts: int = 1,
               analysis_lease: float | None = None) -> Starlette:
    """The web app over the store at ``db_url``.  ``local_only``: the server listens on
    this machine's loopback only, so the page tells a host that friends elsewhere cannot
    join until it listens on another address (``tute serve --host 0.0.0.0``).

    ``bus`` (``redis://…``): one process of several over the same store
    (:mod:`tute.server.cluster.ownership`); the others reach this one at ``advertise``.
    ``allowed_hosts``: the names requests may be sent to besides addresses and
    ``localhost`` (None: any; :func:`~tute.server.wire.edge.host_allowed`).

    ``analysts``: the analysis workers this process runs beside itself (0: only ``tute
    work`` elsewhere judges); ``analysis_lease``: seconds a worker holds a decision
    without renewing it (:mod:`tute.server.tables.jobs`)."""
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
    presence = Presence()
    talk = LobbyChat(store.engine, moderation)
    try:
        talk.load()
    except Exception:
        log.exception("the lobby's chat could not be read; it starts empty")
    key = server_key(store.engine)                   # one for every process of the site
    site = Site(store, lobby, Accounts(store.engine, cache_sessions=bus is None), presence,
                talk, Kept(store.engine), moderation, limits, feed, listing, local_only,
                Bots(store.engine), Guests(key))
    lobby.on_sent = bots.news(presence)              # a bot's stream: its games' news
    relay = None if ownership is None else Relay(ownership.cluster, talk, feed, presence)
    social = Social(Friends(store.engine), presence, Invites(key), lobby)
    if ownership is not None:
        social.elsewhere = ownership.doors
    reviews = Reviews(store.engine, site.kept, analysis, lease_seconds=analysis_lease)
    open_hands = OpenHands(reviews)

    collector = Collector()
    director = Director(TourneyBook(store.engine), lobby)

    async def sweeper() -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                await lobby.sweep()
            except Exception:
                log.exception("the lobby's sweep failed; it runs again")

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
        directing = asyncio.get_running_loop().create_task(director.run())
        # what lives is frozen out of the collector's walk, at the start and as it
        # goes (tute.server.wire.collector: the pauses full collections caused)
        lobby.metrics.collector = collector
        collector.start()
        collecting = asyncio.get_running_loop().create_task(collector.run())
        reviews.start_workers(analysts)
        try:
            yield
        finally:
            task.cancel()
            feeding.cancel()
            directing.cancel()
            collecting.cancel()
            collector.stop()
            feed.close()
            if relay is not None:
                await relay.stop()
            if ownership is not None:
                await ownership.stop()
            lobby.shut()
            lobby.thinkers.close()
            reviews.close()
            store.close()

    app = Starlette(routes=[
        *friends.routes(site, social), *analyses.routes(site, social, reviews, open_hands),
        *pages.routes(site),
        *tables.routes(site, social), *people.routes(site, social), *again.routes(site, social),
        *records.routes(site, social), *bots.routes(site),
        *series.routes(site), *tourneys.routes(site, director),
        *sockets.routes(site, social), *work.routes(reviews, WorkerKeys(store.engine)),
    ], lifespan=lifespan, exception_handlers={TuteError: refused},
        middleware=[Middleware(PeerTrust, ownership=ownership),
                    Middleware(Edge, limits=limits, allowed_hosts=allowed_hosts),
                    Middleware(Forward, ownership=ownership)])
    app.state.lobby = lobby
    app.state.director = director
    app.state.ownership = ownership
    app.state.reviews = reviews
    app.state.open_hands = open_hands
    app.state.store = store
    app.state.accounts = site.people
    return app
