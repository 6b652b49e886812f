"""What a table is, read: its state's parts, its seats and people, its summary for the
lobby, the seat map of the running hand, the same-address rule, the hint's view.
Nothing here changes the table (:class:`~tute.server.tables.runtime.TableRuntime`
does, through its events)."""

from __future__ import annotations

from tute.core.match import Match
from tute.core.shuffle import ALGORITHM
from tute.core.variants import Variant
from tute.core.views import PlayerView
from tute.server.site.economy import Stake, accounts_at, stakes_of
from tute.server.store import SeatRow
from tute.server.tables import decide
from tute.server.tables.annul import Annulment
from tute.server.tables.decide import TableError
from tute.server.tables.events import Shown
from tute.server.tables.options import Options
from tute.server.tables.places import Place
from tute.server.tables.rematch import Rematch
from tute.server.tables.state import TableState
from tute.server.wire.hub import Hub
from tute.server.wire.summary import (
    ClientSeed,
    DealHand,
    DealSummary,
    Gain,
    Revealed,
    SeatLine,
    SeriesRef,
    TableSummary,
    TourneyRef,
)
from tute.server.wire.views import LogMessage, hand_log


class TableView:
    """The reading side of a table."""

    id: str
    state: TableState
    host: str | None                 # the host's player key (None: robots only)
    hub: Hub
    annulment: Annulment
    rematch: Rematch
    broken: str | None
    closed: bool
    place: Place

    @property
    def options(self) -> Options:
        return self.state.options

    @property
    def match(self) -> Match | None:
        return self.state.match

    @property
    def seats(self) -> dict[int, SeatRow]:
        return self.state.seats

    @property
    def seq(self) -> int:
        return self.state.seq

    @property
    def turn(self) -> int:
        """The last event that is not chat."""
        return self.state.turn

    @property
    def history(self) -> list[Shown]:
        """The public events, for reconnection."""
        return self.state.history

    @property
    def invited(self) -> set[int]:
        return self.state.invited

    @property
    def automatic(self) -> set[int]:
        return self.state.automatic

    @property
    def abandoned(self) -> set[int]:
        return self.state.abandoned

    @property
    def practice(self) -> bool:
        return self.state.practice

    @property
    def escrow(self) -> str:
        return self.state.escrow

    @property
    def editing(self) -> bool:
        return self.state.editing

    @property
    def addresses(self) -> dict[int, str]:
        """Where each person sat from (places, :mod:`tute.server.tables.places`)."""
        return self.state.places

    @property
    def variant(self) -> Variant:
        return self.options.variant

    @property
    def robot_level(self) -> str:
        return self.options.robot_level

    @property
    def move_seconds(self) -> float:
        return self.options.move_seconds

    @property
    def status(self) -> str:
        if self.broken is not None:
            return "broken"
        if self.closed:
            return "closed"
        if self.match is None:
            return "open"
        return "over" if self.match.is_over else "playing"

    @property
    def unlisted(self) -> bool:
        """A duplicate series' table, or one where a series' deal is played again: in
        nobody's list of tables, not even as where a friend sits."""
        return self.options.series is not None or self.state.series_again is not None

    def robots(self) -> set[int]:
        return {s for s, r in self.seats.items() if r.kind == "robot"}

    def has_people(self) -> bool:
        return any(r.kind == "human" for r in self.seats.values())

    def deserted(self) -> bool:
        """A running match every person left, where nothing is at stake (a match that
        counts -- competitive, a tournament's game, a duplicate series' deal -- is
        played to its end by the robots, and settled or counted: a series deal seen and
        left would drop out of the standings)."""
        people = {s for s, r in self.seats.items() if r.kind == "human"}
        return self.status == "playing" and bool(people) and people <= self.abandoned \
            and not (self.options.competitive and not self.practice) \
            and self.options.tourney is None and self.options.series is None

    def host_seat(self) -> int | None:
        return self.seat_of(self.host) if self.host is not None else None

    def check_host(self, player: str | None) -> None:
        """A refusal unless ``player`` is this table's host."""
        decide.check_host(self.state, self.host, player)

    def host_account(self) -> int | None:
        seat = self.host_seat()
        return self.seats[seat].account if seat is not None else None

    def summary(self) -> TableSummary:
        o = self.options
        return TableSummary(
            id=self.id, variant=str(self.variant), status=self.status,
            robot_level=self.robot_level, players=self.variant.players,
            partnerships=self.variant.partnerships, competitive=o.competitive, bet=o.bet,
            spectators_allowed=o.spectators, chat_in_hand=o.chat_in_hand,
            private=o.private,
            series=None if o.series is None else SeriesRef(o.series, o.series_deal),
            tourney=None if o.tourney is None else TourneyRef(
                o.tourney, o.tourney_round, o.tourney_board),
            spectators=len(self.hub.spectators()), move_seconds=self.move_seconds,
            host=self.host_seat(), annul=self.annulment.open_vote(),
            automatic=sorted(self.automatic), rematch=self.rematch.open_vote(),
            editing=self.editing, pot=self.state.pot,
            # a competitive table's match played as practice, and why (the lobby
            # line, the table and the count say so): from its start to the next
            practice=self.state.practice_why if self.state.practice else None,
            gains=[Gain(g.seat, g.chips, g.xp) for g in self.state.gains], bots=o.bots,
            seats=[SeatLine(s, r.name, r.kind == "robot", r.bot, self.state.avatars.get(s))
                   for s, r in sorted(self.seats.items())])

    def deal_summary(self) -> DealSummary:
        """The verifiable shuffle, as everybody may know it (:class:`DealSummary`)."""
        s = self.state
        out = DealSummary(algorithm=ALGORITHM,
                          next=None if s.pending is None else s.pending[0],
                          seeded=sorted(s.client_seeds))
        m = s.match
        proof = m.game.proof if m is not None else None
        if proof is not None:
            out.hand = DealHand(proof.commitment, proof.nonce,
                                [ClientSeed(st, sd) for st, sd, _ in proof.client_seeds])
        if s.revealed is not None:
            out.revealed = Revealed(*s.revealed)
        return out

    def seat_of(self, player: str | None) -> int | None:
        """The seat of a person at this table (by player key)."""
        return decide.seat_of(self.state, player)

    def names(self, match: Match | None = None) -> list[str]:
        """The names by the hand's seats (an elimination match: the players still in)."""
        seats = match.seat_map if match is not None else range(self.variant.players)
        return [self.seats[s].name if s in self.seats else "" for s in seats]

    def game_seat(self, seat: int, match: Match | None = None) -> int | None:
        """The hand's seat of a table seat (None: out of the match)."""
        m = match or self.match
        if m is None:
            return None
        return m.seat_map.index(seat) if seat in m.seat_map else None

    def table_seat(self, game_seat: int) -> int:
        assert self.match is not None
        return self.match.seat_map[game_seat]

    def played_by_robot(self) -> set[int]:
        """The seats the table's robot plays: robots', and people's in automatic play
        (none at a deserted table: nobody is left to play for)."""
        if self.deserted():
            return set()
        return self.robots() | {s for s in self.automatic if s in self.seats}

    def matches_started(self) -> int:
        return self.state.matches

    def stakes(self) -> list[Stake]:
        """The people at a competitive match, with their accounts."""
        return stakes_of(self.seats.values())

    def abandoned_accounts(self) -> frozenset[int]:
        return accounts_at(self.seats.values(), self.abandoned)

    def shared_address(self) -> str | None:
        """Seed 001: no XP or chips when two people at a competitive table share an
        address -- where they sat from, or where any of their sockets is connected from
        now: ``same_address`` (the match is played as practice).  A person whose
        address cannot be known (sat before places were stored, and not connected):
        ``address_unknown``, practice too.  None: the match counts."""
        if not self.options.competitive:
            return None
        places: dict[int, set[str]] = {}
        for s, r in self.seats.items():
            if r.kind != "human":
                continue
            known = {self.addresses[s]} if s in self.addresses else set()
            known |= {self.place(v.address) for v in self.hub.viewers.get(s, ())
                      if v.address}
            if not known:
                return "address_unknown"
            places[s] = known
        seen: set[str] = set()
        for known in places.values():
            if known & seen:
                return "same_address"
            seen |= known
        return None

    def hand_log(self) -> LogMessage:
        """The running hand's log as the socket sends it (everybody's: public only)."""
        m = self.match
        if m is None:
            raise TableError("no_match_running")
        return LogMessage(hand=m.hand_number, entries=hand_log(m.game), seq=self.seq)

    def hint_view(self, player: str | None) -> PlayerView:
        """The view a hint is thought from: the person's own seat, at a practice table
        (never where XP or chips are at stake), while its match runs."""
        seat = self.seat_of(player)
        if seat is None or self.seats[seat].kind != "human":
            raise TableError("not_seated")
        if (self.options.competitive and not self.practice) or self.options.tourney:
            raise TableError("no_hints_here")
        m = self.match
        in_hand = self.game_seat(seat)
        if m is None or m.is_over or in_hand is None:
            raise TableError("no_match_running")
        view = m.game.view(in_hand)
        if not view.legal:
            raise TableError("no_hint_now")
        return view
