"""What every route shares: the site's services, who is asking, and the one answer to
a refusal (a :class:`~tute.core.errors.TuteError` raised anywhere in a route becomes
``{"error": <in the page's language>, "key"}`` with its HTTP status)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from tute.core.errors import TuteError
from tute.server.site.accounts import SESSION_COOKIE, Account, Accounts
from tute.server.site.bots import BotError, Bots, bearer
from tute.server.site.sessions import Guests, set_cookie
from tute.server.social.friends import Presence
from tute.server.social.lobbychat import LobbyChat
from tute.server.social.moderation import Moderation
from tute.server.store import Store, StoreError
from tute.server.tables.kept import Kept
from tute.server.tables.lobby import Lobby
from tute.server.wire.answers import Sent
from tute.server.wire.edge import lang_of
from tute.server.wire.limits import Limits
from tute.server.wire.lobbyfeed import LobbyFeed
from tute.server.wire.summary import TableSummary

T = TypeVar("T")
STATIC = Path(__file__).parent.parent / "static"

STATUS = {"no_such_table": 404, "table_broken": 410, "only_host": 403,
          "only_host_starts": 403, "too_many_tables": 429, "too_many_open_tables": 429,
          "bad_login": 401, "not_logged_in": 401, "too_many_logins": 429,
          "name_taken": 409, "no_such_game": 404, "no_such_hand": 404,
          "private_table": 403, "no_such_person": 404, "analysis_busy": 503,
          "analysis_one_at_a_time": 429, "analysis_not_this_file": 400, "analysis_no_seat": 404, "analysis_sat_out": 404,
          "tables_unavailable": 503, "table_moved": 503, "again_no_decision": 404,
          "no_such_series": 404, "series_not_open": 409, "series_deal_played": 409,
          "series_all_played": 409, "series_not_closed": 409, "no_such_tourney": 404,
          "tourney_not_open": 409, "tourney_entered": 409, "tourney_not_entered": 409,
          "tourney_over": 409, "tourney_no_partner": 404, "tourney_not_over": 409,
          "bot_bad_token": 401, "bot_no_such_token": 404, "bot_not_a_bot": 403,
          "bot_token_cannot": 403, "bot_no_such_bot": 404, "table_no_bots": 403,
          "table_bots_only": 403, "bot_already": 409, "bot_has_played": 409,
          "bot_already_challenged": 409,
          "bot_too_many_tokens": 429, "bot_people_only": 403, "too_many_requests": 429,
          "analysis_lease_lost": 409, "worker_key_unknown": 401,
          "work_not_this_decision": 422}


def error(e: TuteError, lang: str) -> Sent:
    """A refusal as the page reads it, with its HTTP status."""
    status = 503 if isinstance(e, StoreError) else STATUS.get(e.key, 400)
    return Sent({"error": e.localized(lang), "key": e.key}, status_code=status)


async def refused(request: Request, exc: Exception) -> Response:
    """The one exception handler of the site's routes."""
    assert isinstance(exc, TuteError)
    return error(exc, lang_of(request.scope))


async def run(fn: Callable[[], T]) -> T:
    """Database and password work off the event loop (argon2 takes ~50 ms)."""
    return await asyncio.get_running_loop().run_in_executor(None, fn)


def answer(request: Request, data: dict[str, Any], secret: str | None) -> Sent:
    """``data``, and the guest's new cookie when one was made."""
    response = Sent(data)
    if secret is not None:
        set_cookie(response, secret, request)
    return response


def locked(row: TableSummary) -> TableSummary:
    """A table of the lobby as a stranger sees it: a private table without its id (no
    way in, nor to watch), marked locked; any other as it is."""
    if not row.private:
        return row
    return msgspec.structs.replace(row, id="", may_sit=False, spectators_allowed=False)


ROW_HOLDS = 4                 # accounts' rows held at once by sits (of a pool of 15)


class AccountLocks:
    """One lock per account for what must not interleave: becoming a bot, and sitting
    (which reads whether the account is a bot, then seats it as one or as a person) --
    else an account read as a person sits at a people-only table while it becomes a
    bot.  The process's own; across processes the account's row is held as well
    (:meth:`Site.seating`)."""

    def __init__(self, rows: int = ROW_HOLDS) -> None:
        self._locks: dict[int, tuple[asyncio.Lock, int]] = {}
        # each account's row held keeps a pooled connection across the sit's awaits:
        # a few at once, the others wait their turn (a review found fifteen at once took
        # every connection, and each then waited on a second one until a 500)
        self.rows = asyncio.Semaphore(rows)

    @contextlib.asynccontextmanager
    async def hold(self, account: int | None) -> AsyncIterator[None]:
        if account is None:                      # a guest: nothing to exclude
            yield
            return
        lock, users = self._locks.get(account, (asyncio.Lock(), 0))
        self._locks[account] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[account]
            if users > 1:
                self._locks[account] = (lock, users - 1)
            else:
                del self._locks[account]


@dataclass(slots=True)
class Site:
    """The services the routes work with (made once by :func:`~tute.server.app.create_app`)."""

    store: Store
    lobby: Lobby
    people: Accounts
    presence: Presence
    talk: LobbyChat
    kept: Kept
    moderation: Moderation
    limits: Limits
    feed: LobbyFeed
    listing: Callable[[], list[TableSummary]]
    local_only: bool
    bots: Bots
    guests: Guests                 # the guest cookies this site issued
    becoming: AccountLocks = field(default_factory=AccountLocks)   # bot or seat: one

    def account(self, conn: Any) -> Account | None:
        """The account logged in on a request or socket (None: a guest); a bot's, by its
        token (``Authorization: Bearer``, no cookie read then; a token that is not a
        live one is refused)."""
        token = bearer(conn.headers)
        if token is not None:
            bot = self.bots.account_of(token)
            if bot is None:
                raise BotError("bot_bad_token")
            return bot
        return self.people.account_of(conn.cookies.get(SESSION_COOKIE))

    def who(self, conn: Any) -> str | None:
        """The player key of a request: its account's when logged in, else the guest's."""
        logged = self.account(conn)
        return logged.player if logged is not None else self.guests.player_of(conn)

    def ensure(self, conn: Any) -> tuple[str, str | None]:
        """The player key, made for a new guest (with the cookie's secret to set)."""
        logged = self.account(conn)
        return (logged.player, None) if logged is not None else self.guests.ensure(conn)

    def person(self, request: Request) -> Account:
        """The logged-in account of a person: duplicate series and tournaments are
        people's (a bot's account is refused)."""
        who = self.me(request)
        if self.bots.is_bot(who.id):
            raise BotError("bot_people_only")
        return who

    @contextlib.asynccontextmanager
    async def seating(self, account: Account | None) -> AsyncIterator[bool]:
        """Whether the account sitting is a bot, for as long as its sit is decided:
        becoming a bot waits for it (this process's lock, and the account's row held
        in the database for a become served by another process)."""
        if account is None:
            yield False
            return
        async with self.becoming.hold(account.id), self.becoming.rows:
            held = await run(lambda: self.bots.hold(account.id))
            try:
                yield held.bot
            finally:
                await run(held.release)

    def is_bot(self, account: Account | None) -> bool:
        """Whether an account is a bot's (its seats are marked so)."""
        return account is not None and self.bots.is_bot(account.id)

    def me(self, request: Request) -> Account:
        """The logged-in account, or a refusal."""
        person = self.account(request)
        if person is None:
            raise TuteError("not_logged_in")
        return person
