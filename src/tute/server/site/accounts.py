"""Accounts: a name and a password, sessions, the chips' grant and top-up, XP.

A browser that logs in holds a session's secret in an HttpOnly, SameSite cookie
(``tute_session``); the database keeps only its SHA-256.  A logged-in person's *player
key* (what a seat belongs to, :mod:`tute.server.site.sessions`) comes from the account, so
the same account sits at its tables from any browser.  Guests (a name, no password)
still play: their tables are practice.

Logins are rate-limited per address (:data:`LOGINS_PER_ADDRESS` attempts per
:data:`LOGIN_WINDOW` seconds), and wrong passwords for one account per address
(:data:`LOGINS_PER_ACCOUNT`): whoever guesses is slowed where they guess from, and the
owner still logs in from elsewhere.  A name that reads as another account's ("Ana.",
"A.na" beside "Ana") is taken.

Sessions: with one process a session is remembered in memory (a logout forgets it);
with several (``cache_sessions=False``) every request asks the database, so a logout
is seen by all of them at once.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import msgspec
from sqlalchemy import delete, func, select
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from tute.core.errors import TuteError
from tute.server.db.schema import accounts, sessions, xp
from tute.server.site import ledger
from tute.server.site.achievements import Achievements, Progress
from tute.server.site.names import name_key, name_skeleton, validate_name
from tute.server.site.passwords import PasswordError, check_new, hash_password, needs_rehash, verify
from tute.server.site.rankings import level_json
from tute.server.site.ratings import ratings_of
from tute.server.wire.limits import RateLimit

SESSION_COOKIE = "tute_session"
SESSION_DAYS = 30
LOGIN_WINDOW = 300.0
LOGINS_PER_ACCOUNT = 10
LOGINS_PER_ADDRESS = 30


class AccountError(TuteError):
    """A refused registration, login or account request; nothing changed."""


@dataclass(frozen=True, slots=True)
class Account:
    id: int
    name: str

    @property
    def player(self) -> str:
        """The player key of this account's seats."""
        return hashlib.sha256(f"account:{self.id}".encode()).hexdigest()

    @property
    def chips_account(self) -> str:
        return ledger.player(self.id)


def _token(secret: str) -> str:
    return hashlib.sha256(secret.encode("ascii", "replace")).hexdigest()


class Played(msgspec.Struct, frozen=True):
    """A person's matches of one game: played and won."""

    played: int
    won: int


class Me(msgspec.Struct, frozen=True, kw_only=True):
    """A person's own page: who (``author``: their id in chats), chips, XP and level,
    ratings by family of games, abandons, matches by game, achievements."""

    id: int
    author: str
    name: str
    avatar: str | None
    chips: int
    xp: int
    level: int
    band: str
    xp_next: int
    ratings: dict[str, dict[str, float | int]]
    abandons: int
    games: dict[str, Played]
    achievements: list[Progress]


class Accounts:
    def __init__(self, engine: Engine, cache_sessions: bool = True) -> None:
        self.engine = engine
        self.cache_sessions = cache_sessions
        self._per_account = RateLimit(LOGINS_PER_ACCOUNT, LOGIN_WINDOW)
        self._per_address = RateLimit(LOGINS_PER_ADDRESS, LOGIN_WINDOW)
        self._sessions: dict[str, tuple[Account, int]] = {}   # token -> (who, expires)

    # ------------------------------------------------------------------ register, log in
    def register(self, name: object, password: object, address: str) -> tuple[Account, str]:
        """A new account with its grant of chips, logged in: (account, session secret)."""
        shown = validate_name(name)
        check_new(password, shown)
        assert isinstance(password, str)
        if not self._per_address.allow(address):
            raise AccountError("too_many_logins")
        digest = hash_password(password)
        try:
            with self.engine.begin() as c:
                if self._lookalike(c, shown):
                    raise AccountError("name_taken", name=shown)
                new_id = c.execute(accounts.insert().values(
                    name=shown, name_key=name_key(shown), pw_hash=digest,
                    created=int(time.time()))).inserted_primary_key
                assert new_id is not None
                account = Account(int(new_id[0]), shown)
                ledger.move(c, f"grant:{account.id}", ledger.MINT, account.chips_account,
                            ledger.GRANT, "grant")
        except IntegrityError:
            raise AccountError("name_taken", name=shown) from None
        return account, self._open_session(account)

    @staticmethod
    def _lookalike(c: Connection, shown: str) -> bool:
        """Whether an account's name reads as ``shown`` (:func:`name_skeleton`)."""
        key: Any = accounts.c.name_key
        for sign in "-_.'":
            key = func.replace(key, sign, "")
        return c.execute(select(accounts.c.id).where(key == name_skeleton(shown))
                         .limit(1)).first() is not None

    def login(self, name: object, password: object, address: str) -> tuple[Account, str]:
        if not isinstance(name, str) or not isinstance(password, str) or len(name) > 80 \
                or len(password) > 1024:
            raise AccountError("bad_login")
        key = name_key(name.strip())
        guesser = f"{key}\x00{address}"            # wrong passwords: from this address
        if self._per_account.over(guesser) or not self._per_address.allow(address):
            raise AccountError("too_many_logins")
        with self.engine.connect() as c:
            row = c.execute(select(accounts).where(accounts.c.name_key == key)).first()
        if not verify(row.pw_hash if row else None, password) or row is None:
            self._per_account.allow(guesser)
            raise PasswordError("bad_login")
        account = Account(int(row.id), str(row.name))
        if needs_rehash(row.pw_hash):
            with self.engine.begin() as c:
                c.execute(accounts.update().where(accounts.c.id == account.id)
                          .values(pw_hash=hash_password(password)))
        return account, self._open_session(account)

    def _open_session(self, account: Account) -> str:
        secret = secrets.token_urlsafe(32)
        now = int(time.time())
        expires = now + SESSION_DAYS * 86400
        with self.engine.begin() as c:
            c.execute(sessions.insert().values(token=_token(secret), account_id=account.id,
                                               created=now, expires=expires))
        self._sessions[_token(secret)] = (account, expires)
        return secret

    def logout(self, secret: str | None) -> None:
        if not secret:
            return
        token = _token(secret)
        self._sessions.pop(token, None)
        with self.engine.begin() as c:
            c.execute(delete(sessions).where(sessions.c.token == token))

    def account_of(self, secret: str | None) -> Account | None:
        """The account a session's secret belongs to (None: none, or expired)."""
        if not secret or len(secret) > 64:
            return None
        token = _token(secret)
        now = int(time.time())
        cached = self._sessions.get(token) if self.cache_sessions else None
        if cached is None:
            with self.engine.connect() as c:
                row = c.execute(select(sessions.c.expires, accounts.c.id, accounts.c.name)
                                .join(accounts, accounts.c.id == sessions.c.account_id)
                                .where(sessions.c.token == token)).first()
            if row is None:
                return None
            cached = (Account(int(row.id), str(row.name)), int(row.expires))
            if len(self._sessions) > 100_000:
                self._sessions.clear()
            if self.cache_sessions:
                self._sessions[token] = cached
        account, expires = cached
        if expires < now:
            self._sessions.pop(token, None)
            return None
        return account

    # ------------------------------------------------------------------ chips, XP
    def top_up(self, account: Account, today: str | None = None) -> bool:
        """Once a day, an account below the floor is brought back up to it (its chips
        in the escrow of a match not yet settled count as held)."""
        day = today or datetime.now(UTC).strftime("%Y-%m-%d")
        with self.engine.connect() as c:
            have = ledger.balance(c, account.chips_account) \
                + ledger.in_escrow(c, account.chips_account)
        if have >= ledger.FLOOR:
            return False
        return ledger.transfer(self.engine, f"topup:{account.id}:{day}", ledger.MINT,
                               account.chips_account, ledger.FLOOR - have, "daily top-up")

    def chips(self, account: Account) -> int:
        with self.engine.connect() as c:
            return ledger.balance(c, account.chips_account)

    def xp(self, account: Account) -> int:
        with self.engine.connect() as c:
            total = c.execute(select(func.sum(xp.c.amount))
                              .where(xp.c.account_id == account.id)).scalar()
        return int(total or 0)

    def me(self, account: Account) -> Me:
        self.top_up(account)
        points = self.xp(account)
        with self.engine.connect() as c:
            abandons, avatar = c.execute(select(accounts.c.abandons, accounts.c.avatar)
                                         .where(accounts.c.id == account.id)).one()
            skill = ratings_of(c, account.id)
            games = {str(r.preset): Played(int(r.played), int(r.won or 0))
                     for r in c.execute(select(xp.c.preset, func.count().label("played"),
                                               func.sum(xp.c.won).label("won"))
                                        .where(xp.c.account_id == account.id)
                                        .group_by(xp.c.preset))}
        level = level_json(points)
        return Me(id=account.id, author=f"a{account.id}", name=account.name, avatar=avatar,
                  chips=self.chips(account), xp=points, level=level.level, band=level.band,
                  xp_next=level.xp_next, ratings=skill, abandons=int(abandons or 0),
                  games=games, achievements=Achievements(self.engine).of(account.id))
