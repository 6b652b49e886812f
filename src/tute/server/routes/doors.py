"""Who may sit at a private table, where a friend sits, and the notices friends and
invitations send (their HTTP: :mod:`tute.server.routes.friends`).

Notices (a friend's request, an invitation) reach a person's open pages through
:class:`~tute.server.social.friends.Presence` as ``{"type": "notice", "kind": ...}``.
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from tute.server.site.accounts import Account
from tute.server.social.friends import Friends, Notice, Presence, Sitting
from tute.server.social.invites import Invites
from tute.server.tables.lobby import Lobby
from tute.server.tables.runtime import TableError, TableRuntime
from tute.server.wire.limits import RateLimit

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
    """Who may sit at a table and where a friend sits, and a person's notices (over
    HTTP: :mod:`tute.server.routes.friends`)."""

    def __init__(self, friends: Friends, presence: Presence, invites: Invites, lobby: Lobby
                 ) -> None:
        self.friends, self.presence, self.invites, self.lobby = friends, presence, invites, lobby
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
