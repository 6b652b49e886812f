"""A table as the lobby and its viewers see it, typed: its summary (options, seats, open
votes, the last match's gains), its deal's (the verifiable shuffle as everybody may know
it) and its move clock.  The table makes them
(:class:`~tute.server.tables.view.TableView`); here is only what they are.
"""

from __future__ import annotations

import msgspec


class SeriesRef(msgspec.Struct):
    """A duplicate series' deal: which series, which deal."""

    id: str
    deal: int


class TourneyRef(msgspec.Struct):
    """A tournament's board: which tournament, round and board."""

    id: str
    round: int
    board: int


class AnnulOpen(msgspec.Struct):
    """An open proposal to annul the match: who proposed, who agreed, seconds left."""

    proposer: int
    agreed: list[int]
    seconds: float


class RematchOpen(msgspec.Struct):
    """An open proposal of a rematch: who proposed, who agreed."""

    proposer: int
    agreed: list[int]


class Gain(msgspec.Struct):
    """What a person took from the last match: chips (won less the bet) and XP."""

    seat: int
    chips: int
    xp: int


class SeatLine(msgspec.Struct):
    """Who holds a seat: a person, a robot (``robot``) or a bot's account (``bot``),
    and the face they chose (``avatar``)."""

    seat: int
    name: str
    robot: bool
    bot: bool
    avatar: str | None


class TableSummary(msgspec.Struct, kw_only=True):
    """A table as the lobby lists it and its viewers see it above the cards.  In the
    lobby a row may also say whether it is the one suggested to the person
    (``suggested``) and, at a private table, whether the person may sit (``may_sit``)."""

    id: str
    variant: str
    status: str
    robot_level: str
    players: int
    partnerships: bool
    competitive: bool
    bet: int
    spectators_allowed: bool
    chat_in_hand: bool
    private: bool
    series: SeriesRef | None
    tourney: TourneyRef | None
    spectators: int
    move_seconds: float
    host: int | None
    annul: AnnulOpen | None
    automatic: list[int]
    rematch: RematchOpen | None
    editing: bool
    pot: int
    practice: str | None          # a competitive table's match played as practice: why
    gains: list[Gain]
    bots: str
    seats: list[SeatLine]
    suggested: bool | msgspec.UnsetType = msgspec.UNSET
    may_sit: bool | msgspec.UnsetType = msgspec.UNSET


class ClientSeed(msgspec.Struct):
    """A seed a seat's client added to the running hand's shuffle."""

    seat: int
    client_seed: str


class DealHand(msgspec.Struct):
    """The running hand's shuffle: its commitment, nonce and clients' seeds."""

    commitment: str
    nonce: int
    clients: list[ClientSeed]


class Revealed(msgspec.Struct):
    """The last ended hand's commitment and the server seed it hid."""

    commitment: str
    server_seed: str


class DealSummary(msgspec.Struct, kw_only=True):
    """The verifiable shuffle as everybody may know it: the next hand's commitment
    (``next``) and the seats whose clients added a seed to it (``seeded``), the running
    hand's (``hand``), the last ended hand's revealed seed (``revealed``)."""

    algorithm: str
    next: str | None
    seeded: list[int]
    hand: DealHand | msgspec.UnsetType = msgspec.UNSET
    revealed: Revealed | msgspec.UnsetType = msgspec.UNSET


class ClockRunning(msgspec.Struct):
    """The move clock while it runs: whose move, and the seconds left."""

    seat: int
    seconds: float
