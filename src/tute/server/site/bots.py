"""Bot accounts (docs/bots.md): an account its owner makes a bot -- for good, and only
before it has played -- and the tokens its program signs requests with.

A token is shown once, when made; the server keeps only its SHA-256.  A request or a
socket with ``Authorization: Bearer <token>`` is the bot's, with no cookie read (so no
cross-site page can borrow it: a browser sends no such header to another site without
asking, and the server answers no such asking).  A revoked token is refused from the
next request or socket message on (checked again every few seconds at most)."""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.engine import Connection, Engine

from tute.core.errors import TuteError
from tute.server.db.schema import (
    accounts,
    bot_tokens,
    match_people,
    seats,
    series_plays,
    tables,
    tourney_entries,
)
from tute.server.site.accounts import Account

PREFIX = "tute_bot_"
MAX_TOKENS = 5                 # live tokens of one bot
FRESH = 3.0                    # seconds a token's check is trusted before asking again


class BotError(TuteError):
    """A refused bot request; nothing changed."""


@dataclass(frozen=True, slots=True)
class BotToken:
    id: int
    label: str
    created: int
    last_used: int | None
    revoked: int | None


def token_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "replace")).hexdigest()


def bearer(headers: Any) -> str | None:
    """The token of an ``Authorization: Bearer`` header (None: none given)."""
    value = headers.get("authorization")
    if not value:
        return None
    scheme, _, token = value.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else None   # Basic...: not ours


@dataclass(slots=True)
class Held:
    """An account's row held (PostgreSQL: ``FOR SHARE``) while one of its sits is
    decided, with what it was read to be; :meth:`release` ends it."""

    connection: Connection | None          # None: nothing held (SQLite)
    bot: bool

    def release(self) -> None:
        if self.connection is None:
            return
        try:
            self.connection.commit()
        finally:
            self.connection.close()


class Bots:
    def __init__(self, engine: Engine, clock: Callable[[], float] = time.time) -> None:
        self.engine = engine
        self.clock = clock
        self._checked: dict[str, tuple[Account | None, float]] = {}

    def is_bot(self, account_id: int) -> bool:
        with self.engine.connect() as c:
            return bool(c.execute(select(accounts.c.bot)
                                  .where(accounts.c.id == account_id)).scalar())

    def bot_ids(self, ids: set[int]) -> set[int]:
        """Which of ``ids`` are bots."""
        if not ids:
            return set()
        with self.engine.connect() as c:
            return {int(r[0]) for r in c.execute(select(accounts.c.id).where(
                accounts.c.id.in_(ids), accounts.c.bot.is_(True)))}

    def hold(self, account_id: int) -> Held:
        """Whether the account is a bot, its row held until :meth:`Held.release`: a
        become under way (which locks the row first) is waited for, and a become that
        comes after waits for the seat taken meanwhile -- it then finds it.  SQLite has
        no row locks (and one process: the routes' own lock excludes the two there),
        so nothing is held there."""
        if self.engine.dialect.name == "sqlite":
            return Held(None, self.is_bot(account_id))
        connection = self.engine.connect()
        try:
            connection.begin()
            bot = bool(connection.execute(select(accounts.c.bot).where(
                accounts.c.id == account_id).with_for_update(read=True)).scalar())
        except BaseException:
            connection.close()
            raise
        return Held(connection, bot)

    def become(self, account: Account, confirm: object) -> None:
        """Make ``account`` a bot, for good: asked with its own name as ``confirm``,
        before it has played a match."""
        if not isinstance(confirm, str) or confirm != account.name:
            raise BotError("bot_confirm_name")
        with self.engine.begin() as c:
            # the account's row locked first (a write: SQLite's write lock, PostgreSQL's
            # row), so that what is counted below is still so when it becomes a bot
            c.execute(update(accounts).where(accounts.c.id == account.id)
                      .values(bot=accounts.c.bot))
            if c.execute(select(accounts.c.bot).where(accounts.c.id == account.id)).scalar():
                raise BotError("bot_already")
            played = c.execute(select(func.count()).select_from(match_people)
                               .where(match_people.c.account_id == account.id)).scalar()
            seated = c.execute(select(func.count()).select_from(seats).join(
                tables, tables.c.id == seats.c.table_id).where(
                seats.c.account == account.id,
                tables.c.status.in_(("open", "playing")))).scalar()
            entered = c.execute(select(func.count()).select_from(tourney_entries).where(
                tourney_entries.c.account_id == account.id)).scalar()
            dealt = c.execute(select(func.count()).select_from(series_plays).where(
                series_plays.c.account_id == account.id)).scalar()
            if played or seated or entered or dealt:     # a seat now, or any game at all
                raise BotError("bot_has_played")
            c.execute(update(accounts).where(accounts.c.id == account.id).values(bot=True))

    def new_token(self, account: Account, label: object) -> tuple[BotToken, str]:
        """A new token of a bot (the secret, shown once)."""
        if not isinstance(label, str) or not 1 <= len(label.strip()) <= 40 \
                or not label.isprintable():
            raise BotError("bot_bad_label")
        secret = PREFIX + secrets.token_urlsafe(32)
        now = int(self.clock())
        with self.engine.begin() as c:
            # the account's row locked (PostgreSQL) while its tokens are counted: two asks
            # at once cannot both find room for one more (SQLite has one writer: the
            # second ask's write fails instead of going over the cap)
            if not c.execute(select(accounts.c.bot).where(accounts.c.id == account.id)
                             .with_for_update()).scalar():
                raise BotError("bot_not_a_bot")
            live = c.execute(select(func.count()).select_from(bot_tokens).where(
                bot_tokens.c.account_id == account.id,
                bot_tokens.c.revoked.is_(None))).scalar()
            if (live or 0) >= MAX_TOKENS:
                raise BotError("bot_too_many_tokens", most=MAX_TOKENS)
            made = c.execute(insert(bot_tokens).values(
                account_id=account.id, hash=token_hash(secret), label=label.strip(),
                created=now)).inserted_primary_key
        assert made is not None
        return BotToken(int(made[0]), label.strip(), now, None, None), secret

    def tokens(self, account: Account) -> list[BotToken]:
        with self.engine.connect() as c:
            rows = c.execute(select(bot_tokens).where(bot_tokens.c.account_id == account.id)
                             .order_by(bot_tokens.c.id)).all()
        return [BotToken(r.id, r.label, r.created, r.last_used, r.revoked) for r in rows]

    def revoke(self, account: Account, token_id: object) -> None:
        if not isinstance(token_id, int):
            raise BotError("bot_no_such_token")
        with self.engine.begin() as c:
            done = c.execute(update(bot_tokens).where(
                bot_tokens.c.id == token_id, bot_tokens.c.account_id == account.id,
                bot_tokens.c.revoked.is_(None)).values(revoked=int(self.clock()))).rowcount
        if not done:
            raise BotError("bot_no_such_token")
        self._checked.clear()

    def account_of(self, secret: str | None) -> Account | None:
        """The bot a token signs for (None: no such live token)."""
        if not secret or len(secret) > 200 or not secret.startswith(PREFIX):
            return None
        key = token_hash(secret)
        now = self.clock()
        known = self._checked.get(key)
        if known is not None and now - known[1] < FRESH:
            return known[0]
        with self.engine.begin() as c:
            row = c.execute(select(bot_tokens.c.id, bot_tokens.c.last_used, accounts.c.id,
                                   accounts.c.name)
                            .join(accounts, accounts.c.id == bot_tokens.c.account_id)
                            .where(bot_tokens.c.hash == key, bot_tokens.c.revoked.is_(None),
                                   accounts.c.bot.is_(True))).first()
            if row is not None and (row[1] is None or now - row[1] > 60):
                c.execute(update(bot_tokens).where(bot_tokens.c.id == row[0])
                          .values(last_used=int(now)))
        who = None if row is None else Account(int(row[2]), str(row[3]))
        if len(self._checked) > 10_000:
            self._checked.clear()
        self._checked[key] = (who, now)
        return who
