"""Friends between accounts: a request, accepted or refused; removed by either.

A request to someone who blocks you, or whom you block, is refused the same way as one
to a name nobody has (nobody learns they are blocked).  A request to someone who asked
you already makes you friends.  Who is online, and at which table, the server knows
from its open sockets (:class:`Presence`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import msgspec
from sqlalchemy import and_, delete, or_, select, update
from sqlalchemy.engine import Connection, Engine

from tute.core.errors import TuteError
from tute.server.db.schema import accounts, blocks, friends
from tute.server.site.names import name_key
from tute.server.wire.hub import Viewer
from tute.server.wire.views import encode

MAX_FRIENDS = 200


class FriendError(TuteError):
    """A friends' request that cannot be done; nothing changed."""


def _pair(a: int, b: int) -> Any:
    return or_(and_(friends.c.requester == a, friends.c.target == b),
               and_(friends.c.requester == b, friends.c.target == a))


def _blocked(c: Connection, a: int, b: int) -> bool:
    return c.execute(select(blocks.c.at).where(or_(
        and_(blocks.c.account_id == a, blocks.c.blocked_id == b),
        and_(blocks.c.account_id == b, blocks.c.blocked_id == a)))).first() is not None


class Friends:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def request(self, me: int, name: str) -> tuple[str, int]:
        """Ask the account called ``name`` to be friends: ``pending``, or ``friends``
        when it had asked me already; and the account asked."""
        with self.engine.begin() as c:
            other = c.execute(select(accounts.c.id).where(
                accounts.c.name_key == name_key(name.strip()))).scalar()
            if other is None or other == me or _blocked(c, me, int(other)):
                raise FriendError("no_such_person" if other != me else "friend_self",
                                  name=name)
            other = int(other)
            row = c.execute(select(friends).where(_pair(me, other))).first()
            if row is not None:
                if row.state == "accepted":
                    raise FriendError("already_friends", name=name)
                if row.requester == me:
                    return "pending", other
                c.execute(update(friends).where(_pair(me, other))
                          .values(state="accepted", since=int(time.time())))
                return "friends", other
            mine = c.execute(select(friends.c.target).where(or_(     # mine, and my asks
                friends.c.requester == me,
                and_(friends.c.target == me, friends.c.state == "accepted")))).all()
            if len(mine) >= MAX_FRIENDS:
                raise FriendError("too_many_friends", max=MAX_FRIENDS)
            asking = c.execute(select(friends.c.requester).where(        # theirs to answer
                friends.c.target == other, friends.c.state == "pending")).all()
            if len(asking) >= MAX_FRIENDS:
                raise FriendError("friend_requests_full", name=name)
            c.execute(friends.insert().values(requester=me, target=other, state="pending",
                                              since=int(time.time())))
            return "pending", other

    def answer(self, me: int, requester: int, accept: bool) -> None:
        """Accept (or refuse) the request ``requester`` sent me."""
        with self.engine.begin() as c:
            found = and_(friends.c.requester == requester, friends.c.target == me,
                         friends.c.state == "pending")
            if c.execute(select(friends.c.since).where(found)).first() is None:
                raise FriendError("no_such_request")
            if accept:
                c.execute(update(friends).where(found)
                          .values(state="accepted", since=int(time.time())))
            else:
                c.execute(delete(friends).where(found))

    def remove(self, me: int, other: int) -> None:
        """No longer friends (or a request of mine withdrawn)."""
        with self.engine.begin() as c:
            c.execute(delete(friends).where(_pair(me, other)))

    def are_friends(self, a: int, b: int) -> bool:
        with self.engine.connect() as c:
            return c.execute(select(friends.c.since).where(
                _pair(a, b), friends.c.state == "accepted")).first() is not None

    def of(self, me: int) -> FriendLists:
        """My friends, the requests I got, and those I sent (each: id, name)."""
        with self.engine.connect() as c:
            rows = c.execute(select(friends, accounts.c.id.label("other"),
                                    accounts.c.name)
                             .join(accounts, or_(
                                 and_(friends.c.requester == me,
                                      accounts.c.id == friends.c.target),
                                 and_(friends.c.target == me,
                                      accounts.c.id == friends.c.requester)))
                             .order_by(accounts.c.name)).all()
        out = FriendLists([], [], [])
        for r in rows:
            kind = out.friends if r.state == "accepted" else \
                out.outgoing if r.requester == me else out.incoming
            kind.append(Friend(int(r.other), r.name))
        return out


class Sitting(msgspec.Struct):
    """The open or running table a friend sits at, as their friends may know it."""

    id: str
    variant: str
    status: str
    spectators_allowed: bool


class Friend(msgspec.Struct):
    """A friend (or a request's other end): id and name; for a friend, whether they
    have a page open now (``online``) and where they sit (``table``)."""

    id: int
    name: str
    online: bool | msgspec.UnsetType = msgspec.UNSET
    table: Sitting | msgspec.UnsetType | None = msgspec.UNSET


class FriendLists(msgspec.Struct):
    """My friends, the requests I got (``incoming``) and those I sent (``outgoing``)."""

    friends: list[Friend]
    incoming: list[Friend]
    outgoing: list[Friend]


_UNSET = msgspec.UNSET


class Notice(msgspec.Struct, kw_only=True):
    """A notice to a person's open pages (not an event: no number): a friend's request
    or acceptance, an invitation, a bot's challenge, a bot's game starting or over --
    who it is from (``from``: a name; ``id``: an account), the table, its game, the seat,
    the seats free, the winner, where the kind has them."""

    type: str = "notice"
    kind: str
    sender: str | msgspec.UnsetType = msgspec.field(default=_UNSET, name="from")
    id: int | msgspec.UnsetType = _UNSET
    table: str | msgspec.UnsetType = _UNSET
    variant: str | msgspec.UnsetType = _UNSET
    seat: int | msgspec.UnsetType = _UNSET
    seats: list[int] | msgspec.UnsetType = _UNSET
    winner: int | msgspec.UnsetType | None = _UNSET


class Presence:
    """Who has a page open now, and how to reach them: the open sockets (lobby and
    tables) of each logged-in account in this process; with several processes, the
    accounts online in the others (``elsewhere``) and a ``relay`` of notices to them
    (:mod:`tute.server.cluster.relay`)."""

    def __init__(self) -> None:
        self._open: dict[int, set[Viewer]] = {}
        self.elsewhere: set[int] = set()
        self.relay: Callable[[int, Notice], None] | None = None

    def came(self, account: int, viewer: Viewer) -> None:
        self._open.setdefault(account, set()).add(viewer)

    def went(self, account: int, viewer: Viewer) -> None:
        there = self._open.get(account)
        if there is not None:
            there.discard(viewer)
            if not there:
                del self._open[account]

    def online(self, account: int) -> bool:
        return any(not v.dropped for v in self._open.get(account, ())) \
            or account in self.elsewhere

    def accounts(self) -> set[int]:
        """The accounts with a page open in this process."""
        return {a for a, vs in self._open.items() if any(not v.dropped for v in vs)}

    def notify(self, account: int, message: Notice, relay: bool = True) -> None:
        """A notice to every open page of ``account`` (not an event: no number), in
        every process unless ``relay`` is false."""
        text = encode(message)
        for viewer in list(self._open.get(account, ())):
            viewer.push(text)
        if relay and self.relay is not None:
            self.relay(account, message)
