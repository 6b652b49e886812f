"""Friends, invitations and private tables over HTTP (``/api/friends...``,
``/api/tables/{id}/invite`` and ``/link``), and who may sit at a private table.

Notices (a friend's request, an invitation) reach a person's open pages through
:class:`~tute.server.social.friends.Presence` as ``{"type": "notice", "kind": ...}``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
from starlette.requests import Request
from starlette.routing import Route

from tute.core.errors import TuteError
from tute.server.routes.common import run
from tute.server.site.accounts import Account
from tute.server.social.friends import FriendError, Friends, Notice, Presence, Sitting
from tute.server.social.invites import Invites
from tute.server.tables.lobby import Lobby
from tute.server.tables.runtime import TableError, TableRuntime
from tute.server.wire.answers import Sent
from tute.server.wire.edge import lang_of
from tute.server.wire.limits import RateLimit
from tute.server.wire.protocol import Empty, FriendAnswer, FriendName, Invite, decode_body

NOTICE_SECONDS = 600.0          # the same notice from the same person: once in this time


class Door(msgspec.Struct, frozen=True):
    """What deciding who may sit at a table needs, and where a friend sits -- of a
    table in this process or, with several processes, of one another holds (its owner
    publishes it with the lobby's listing, :mod:`tute.server.cluster.ownership`)."""

    id: str
    private: bool
    invited: frozenset[int]
    host: int | None                     # the host's account
    accounts: frozenset[int]             # the accounts seated
    variant: str
    status: str
    spectators: bool
    unlisted: bool = False               # a series' (or a series' deal played again)


def door_of(table: TableRuntime) -> Door:
    return Door(table.id, table.options.private, frozenset(table.invited),
                table.host_account(),
                frozenset(r.account for r in table.seats.values() if r.account is not None),
                str(table.variant), table.status, table.options.spectators,
                table.unlisted)


class Social:
    def __init__(self, friends: Friends, presence: Presence, invites: Invites, lobby: Lobby,
                 account: Callable[[Any], Account | None],
                 error: Callable[[TuteError, str], Sent],
                 who: Callable[[Any], str | None]) -> None:
        self.friends, self.presence, self.invites, self.lobby = friends, presence, invites, lobby
        self.account, self.error, self.who = account, error, who
        self.notices = RateLimit(1, NOTICE_SECONDS)     # one of a kind per pair a while
        # with several processes: the doors of the tables the others hold
        self.elsewhere: Callable[[], list[Door]] = list

    def doors(self) -> list[Door]:
        """Every open or running table's door: this process's, then the others'."""
        here = [door_of(t) for t in self.lobby.tables.values()]
        return [*here, *(d for d in self.elsewhere() if d.id not in self.lobby.tables)]

    def notify(self, to: int, kind: str, sender: Account, table: str = "",
               variant: str = "") -> None:
        """A notice from ``sender`` to ``to`` (of ``table`` and its ``variant``: an
        invitation) -- not again for a while (asking or inviting again is no way to
        flood someone)."""
        if self.notices.allow(f"{kind}:{sender.id}:{to}:{table}"):
            self.presence.notify(to, Notice(
                kind=kind, sender=sender.name, id=sender.id,
                table=table or msgspec.UNSET, variant=variant or msgspec.UNSET))

    # ------------------------------------------------------------------ rules
    def may_sit(self, door: Door, person: Account | None, token: str | None) -> bool:
        """At a private table: the host, the invited, the host's friends, a link's
        holder.  (Any table that is not private: anyone.)"""
        if not door.private:
            return True
        if token is not None and self.invites.valid(token, door.id):
            return True
        if person is None:
            return False
        if person.id in door.invited:
            return True
        host = door.host
        return host is not None and (host == person.id or self.friends.are_friends(host,
                                                                                   person.id))

    def check_sit(self, table: TableRuntime, person: Account | None, token: str | None
                  ) -> None:
        if not self.may_sit(door_of(table), person, token):
            raise TableError("private_table")

    def where(self, account: int) -> Sitting | None:
        """The open or running table an account sits at (the first), if any -- never a
        duplicate series' (nor one of its deals played again): nobody watches those."""
        for d in self.doors():
            if d.status in ("open", "playing") and account in d.accounts and not d.unlisted:
                return Sitting(d.id, d.variant, d.status, d.spectators)
        return None

    # ------------------------------------------------------------------ handlers
    def _me(self, request: Request) -> Account:
        person = self.account(request)
        if person is None:
            raise TuteError("not_logged_in")
        return person

    async def list_friends(self, request: Request) -> Sent:
        try:
            me = await run(lambda: self._me(request))
            found = await run(lambda: self.friends.of(me.id))
        except TuteError as e:
            return self.error(e, lang_of(request.scope))
        for f in found.friends:
            f.online = self.presence.online(f.id)
            f.table = self.where(f.id)
        return Sent(found)

    async def ask(self, request: Request) -> Sent:
        try:
            me = await run(lambda: self._me(request))
            data = decode_body(FriendName, await request.body())
            state, other = await run(lambda: self.friends.request(me.id, data.name))
        except TuteError as e:
            return self.error(e, lang_of(request.scope))
        self.notify(other, "friend_request" if state == "pending" else "friend_accepted", me)
        return Sent({"state": state})

    async def answer(self, request: Request) -> Sent:
        try:
            me = await run(lambda: self._me(request))
            data = decode_body(FriendAnswer, await request.body())
            await run(lambda: self.friends.answer(me.id, data.id, data.accept))
        except TuteError as e:
            return self.error(e, lang_of(request.scope))
        if data.accept:
            self.notify(data.id, "friend_accepted", me)
        return Sent({"ok": True})

    async def remove(self, request: Request) -> Sent:
        try:
            me = await run(lambda: self._me(request))
            data = decode_body(FriendAnswer, await request.body())
            await run(lambda: self.friends.remove(me.id, data.id))
        except TuteError as e:
            return self.error(e, lang_of(request.scope))
        return Sent({"ok": True})

    async def invite(self, request: Request) -> Sent:
        """The host invites a friend: the table keeps it, the friend is told."""
        lang = lang_of(request.scope)
        try:
            me = await run(lambda: self._me(request))
            data = decode_body(Invite, await request.body())
            table = self.lobby.get(request.path_params["table_id"])
            if not await run(lambda: self.friends.are_friends(me.id, data.friend)):
                raise FriendError("not_friends")
            found = await run(lambda: self.friends.of(me.id))
            name = next(f.name for f in found.friends if f.id == data.friend)
            await table.invite(await run(lambda: self.who(request)) or "", data.friend, name)
        except TuteError as e:
            return self.error(e, lang)
        self.notify(data.friend, "invite", me, table=table.id, variant=str(table.variant))
        return Sent({"table": table.summary()})

    async def link(self, request: Request) -> Sent:
        """The host's link that seats its holder (signed, for a day, this table only)."""
        lang = lang_of(request.scope)
        try:
            decode_body(Empty, await request.body())
            table = self.lobby.get(request.path_params["table_id"])
            table.check_host(await run(lambda: self.who(request)))
        except TuteError as e:
            return self.error(e, lang)
        token = self.invites.token(table.id)
        return Sent({"token": token, "path": f"/?invite={token}"})

    def routes(self) -> list[Route]:
        return [
            Route("/api/friends", self.list_friends, methods=["GET"]),
            Route("/api/friends", self.ask, methods=["POST"]),
            Route("/api/friends/answer", self.answer, methods=["POST"]),
            Route("/api/friends/remove", self.remove, methods=["POST"]),
            Route("/api/tables/{table_id}/invite", self.invite, methods=["POST"]),
            Route("/api/tables/{table_id}/link", self.link, methods=["POST"]),
        ]
