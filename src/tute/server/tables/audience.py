"""Who may see which event of a table, and who is watching it.

A table's events form one numbered sequence, and every viewer gets every number: an
event a viewer may not see reaches it as a placeholder with the same number
(``{"seq": n, "kind": "hidden"}``, as lichess does), so a viewer that reconnects with
the last number it saw misses nothing and is sent nothing it may not see.

:class:`Audience` sends a table's events: to each seat its view after the event (made
once for all, their shared part once), to spectators the public view.

What a viewer may not see: a chat message of someone it muted or blocked, and -- against
collusion -- a spectator's message written while a hand was being played, for the
players (spectators see it).  Cards are never in events: each seat's view (or a
spectator's public one, :func:`tute.server.wire.views.spectator_part`) goes with them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Protocol

import msgspec

from tute.core.game import Game
from tute.core.match import Match
from tute.server.db.ops import SeatRow
from tute.server.tables.events import Acted, Said, Shown
from tute.server.wire.hub import SPECTATOR, Hub, Viewer
from tute.server.wire.summary import ClockRunning, DealSummary, TableSummary
from tute.server.wire.views import (
    ENCODE,
    AudienceMessage,
    EventMessage,
    Part,
    StateMessage,
    Watching,
    encode,
    joined,
    raw,
    seat_part,
    spectator_part,
    table_json,
    tute_cards,
)


def author_of(player: str | None, account: int | None, table_id: str) -> str:
    """A person's public id at a table: ``a<account>`` when logged in, else a digest of
    the guest's secret and the table (it cannot be turned back into the secret)."""
    if account is not None:
        return f"a{account}"
    if player is None:
        return ""
    return "g" + hashlib.sha256(f"{table_id}:{player}".encode()).hexdigest()[:12]


class Hidden(msgspec.Struct, kw_only=True):
    """What a viewer gets of an event it may not see: only its number."""

    seq: int
    kind: str = "hidden"


def placeholder(seq: int) -> msgspec.Raw:
    return msgspec.Raw(ENCODE(Hidden(seq=seq)))


def sees(event: Shown, seat: int, hidden: set[str]) -> bool:
    """May a viewer of ``seat`` (:data:`SPECTATOR` for a spectator) that hides the
    authors ``hidden`` see this event?  (The event says: ``TableEvent.hidden_from``.)"""
    return event.seen_by(seat, hidden)


def viewer_sees(event: Shown) -> Callable[[Viewer], bool]:
    """:func:`sees` for one event, as a test of a viewer (the hub's ``sees``)."""
    def test(v: Viewer) -> bool:
        return event.seen_by(v.seat, v.hidden)
    return test


def spectator_names(viewers: list[Viewer]) -> list[str]:
    """The names of a table's spectators, each once, in order."""
    return sorted({v.name for v in viewers if v.name}, key=str.casefold)


class SentTable(Protocol):
    """What sending needs of a table (:class:`~tute.server.tables.runtime.TableRuntime`)."""

    hub: Hub

    @property
    def seq(self) -> int: ...
    @property
    def match(self) -> Match | None: ...
    @property
    def history(self) -> list[Shown]: ...
    @property
    def seats(self) -> dict[int, SeatRow]: ...

    def names(self, match: Match | None = None) -> list[str]: ...
    def game_seat(self, seat: int, match: Match | None = None) -> int | None: ...
    def summary(self) -> TableSummary: ...
    def deal_summary(self) -> DealSummary: ...
    def clock_state(self) -> ClockRunning | None: ...


class Audience:
    """A table's viewers as the table sends to them."""

    def __init__(self, table: SentTable) -> None:
        self.table = table
        self._told: tuple[int, list[str]] = (0, [])

    def parts(self, game: Game | None, match: Match | None
              ) -> Callable[[int], msgspec.Raw | None]:
        """The view of each seat after an event, encoded (a spectator's, or a seat out
        of the match: the public one); the part every seat shares is made and encoded
        once."""
        names = self.table.names(match)
        bots = self._bot_seats()                        # once an event, not once a seat
        shared: list[bytes] = []

        def of(seat: int) -> msgspec.Raw | None:
            if game is None:
                return None
            if not shared:
                shared.append(ENCODE(table_json(game.table_view(), names, match,
                                                tute_cards(game))))
            return msgspec.Raw(joined(shared[0], self._own(game, match, seat, bots)))
        return of

    def _bot_seats(self) -> set[int]:
        """The table seats a bot's account holds (their views carry the history)."""
        return {s for s, r in self.table.seats.items() if r.bot}

    def _own(self, game: Game, match: Match | None, seat: int, bots: set[int]) -> Part:
        """What only ``seat`` sees (a spectator, or a seat out of the match: what
        everyone was shown)."""
        in_hand = None if seat == SPECTATOR else self.table.game_seat(seat, match)
        if in_hand is None:
            return spectator_part(game)
        own = seat_part(game.view(in_hand), seat in bots)   # a bot's: with the history
        if match is not None and match.annulled:     # no move is left to make
            own.legal, own.legal_cards, own.calls = [], [], []
        return own

    def broadcast(self, p: Shown, game: Game | None, match: Match | None) -> None:
        """One public event to every viewer, with its view (chat: none; a viewer that
        may not see it gets its number only); what they share encoded once."""
        t = self.table
        event = p.text
        if isinstance(p.event, Said):                 # a chat line: some may not see it
            hidden = encode(EventMessage(event=placeholder(p.seq)))
            text = encode(EventMessage(event=event))
            for seat in t.hub.watched():
                t.hub.send(seat, text, hidden, viewer_sees(p))
            return
        changed = not isinstance(p.event, Acted)   # the summaries: after all but a move
        table = raw(t.summary()) if changed else msgspec.UNSET
        deal = raw(t.deal_summary()) if changed else msgspec.UNSET
        running = t.clock_state()
        clock = msgspec.UNSET if running is None else raw(running)
        views = self.parts(game, match)
        for seat in t.hub.watched():
            view = views(seat)
            t.hub.send(seat, encode(EventMessage(
                event=event, view=msgspec.UNSET if view is None else view, table=table,
                deal=deal, clock=clock)))

    def missed(self, viewer: Viewer, last_seq: int) -> list[str]:
        """The events after ``last_seq`` (those the viewer may not see as placeholders),
        then the viewer's current view: the messages' texts."""
        t = self.table
        out = [encode(EventMessage(event=e.text if e.seen_by(viewer.seat, viewer.hidden)
                                   else placeholder(e.seq)))
               for e in t.history if e.seq > last_seq]
        game = t.match.game if t.match is not None else None
        watching = t.hub.spectators()
        clock = t.clock_state()
        out.append(encode(StateMessage(
            event={"seq": t.seq, "kind": "state"},
            view=self.parts(game, t.match)(viewer.seat), table=t.summary(),
            deal=t.deal_summary(), you=None if viewer.seat == SPECTATOR else viewer.seat,
            author=viewer.author,
            audience=Watching(count=len(watching), spectators=spectator_names(watching)),
            clock=msgspec.UNSET if clock is None else clock)))
        return out

    def tell_watchers(self) -> None:
        """Who watches, to the whole table, when it changed."""
        t = self.table
        watching = t.hub.spectators()
        told = (len(watching), spectator_names(watching))
        if told != self._told:
            self._told = told
            text = encode(AudienceMessage(count=told[0], spectators=told[1]))
            for seat in t.hub.watched():
                t.hub.send(seat, text)
