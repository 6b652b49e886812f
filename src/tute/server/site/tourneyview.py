"""A tournament as its page shows it (``GET /api/tourneys/{id}``): the entrants, every
round's boards with their tables and results, the standings with their tie-breaks, the
pot (the entries paid in, less those given back) and, once it is over, the prizes paid
-- and for the asker, whether they entered and the table of their game now.  An
entrant is shown by its people's names (None: the robot partner)."""

from __future__ import annotations

import msgspec

from tute.server.db.schema import ledger as movements
from tute.server.site.arenas import ArenaRow, arena_table
from tute.server.site.tourneys import Tourney, TourneyBook
from tute.server.site.tourneyteams import members
from tute.tourney.swiss import Standing

_UNSET = msgspec.UNSET


class TourneySummary(msgspec.Struct, kw_only=True):
    """A tournament as its list shows it (``robots``: the robot partners' level;
    ``ends``: an arena's end, seconds since the epoch)."""

    id: str
    name: str
    variant: str
    rounds: int
    fee: int
    move_seconds: int
    robots: str
    starts: int
    status: str
    round: int
    pairs: bool
    kind: str
    minutes: int
    ends: float | None


class Entrant(msgspec.Struct):
    name: str
    you: bool
    withdrawn: bool


class Playing(msgspec.Struct):
    """The table of the asker's game now, and their seat there."""

    id: str
    seat: int


class BoardLine(msgspec.Struct):
    """A board of a round: its table, its two sides by their people's names, whether
    the asker plays it, its result."""

    round: int
    board: int
    table: str
    a: list[str | None] | None
    b: list[str | None] | None
    you: bool
    score: float | None
    margin: int | None


class StandingLine(msgspec.Struct, kw_only=True):
    """A line of the standings: an arena's (games, wins, on fire) or a Swiss one's
    (its tie-breaks and games played), and the prize paid."""

    rank: int
    names: list[str | None] | None
    you: bool
    points: float
    withdrawn: bool
    prize: int
    games: int | msgspec.UnsetType = _UNSET
    wins: int | msgspec.UnsetType = _UNSET
    on_fire: bool | msgspec.UnsetType = _UNSET
    buchholz: float | msgspec.UnsetType = _UNSET
    sonneborn: float | msgspec.UnsetType = _UNSET
    difference: int | msgspec.UnsetType = _UNSET
    played: int | msgspec.UnsetType = _UNSET


class TourneyView(TourneySummary, kw_only=True):
    """A tournament as its page shows it to the asker (``now``: the server's clock)."""

    pot: int
    entrants: list[Entrant]
    entered: bool
    table: Playing | None
    boards: list[BoardLine]
    standings: list[StandingLine]
    now: float | msgspec.UnsetType = _UNSET


def summary(t: Tourney) -> TourneySummary:
    return TourneySummary(id=t.id, name=t.name, variant=t.variant, rounds=t.rounds,
                          fee=t.fee, move_seconds=t.move_seconds, robots=t.robot_level,
                          starts=t.starts, status=t.status, round=t.round, pairs=t.pairs,
                          kind=t.kind, minutes=t.minutes,
                          ends=t.ends if t.kind == "arena" else None)


def tourney_view(book: TourneyBook, t: Tourney, account: int | None) -> TourneyView:
    e = book.entries(t.id)
    b = book.boards(t.id)
    names = {x.account: x.name for x in e}
    entered = [x for x in e if x.withdrawn != 0]
    table = arena_table(e, b) if t.kind == "arena" else book.table(t, e, b)
    with book.engine.connect() as c:
        moved = c.execute(movements.select().where(
            (movements.c.source == t.pot) | (movements.c.dest == t.pot))).all()
    pot = sum(m.amount for m in moved if m.dest == t.pot) - sum(
        m.amount for m in moved if m.key.startswith("tourney-refund:"))
    paid = {int(m.dest[2:]): int(m.amount) for m in moved
            if m.key.startswith("tourney-prize:")}
    left = {x.account for x in e if x.withdrawn not in (None, 0)}

    def people(team: str | None) -> list[int | None]:
        if team is None:
            return []
        return list(members(team)) if team.startswith("t") else [int(team[1:])]

    def shown(team: str | None) -> list[str | None] | None:
        return None if team is None else [None if m is None else names.get(m, "?")
                                          for m in people(team)]

    mine = next((s for s in b if (s.round == t.round or t.kind == "arena")
                 and s.score is None and account is not None and account in s.seats), None)
    return TourneyView(
        **msgspec.structs.asdict(summary(t)), pot=pot,
        entrants=[Entrant(x.name, x.account == account, x.withdrawn is not None)
                  for x in entered],
        entered=any(x.account == account and x.withdrawn is None for x in e),
        table=None if mine is None else Playing(mine.table_id, mine.seats.index(account)),
        boards=[BoardLine(s.round, s.board, s.table_id, shown(s.a), shown(s.b),
                          account in s.seats, s.score, s.margin) for s in b],
        standings=[_standing(s, shown(s.entrant), account in people(s.entrant),
                             all(m is None or m in left for m in people(s.entrant)),
                             sum(paid.get(m, 0) for m in people(s.entrant) if m is not None))
                   for s in table])


def _standing(s: ArenaRow | Standing, names: list[str | None] | None, you: bool,
              withdrawn: bool, prize: int) -> StandingLine:
    if isinstance(s, ArenaRow):
        return StandingLine(rank=s.rank, names=names, you=you, points=s.points,
                            withdrawn=withdrawn, prize=prize, games=s.games, wins=s.wins,
                            on_fire=s.on_fire)
    return StandingLine(rank=s.rank, names=names, you=you, points=s.points,
                        withdrawn=withdrawn, prize=prize, buchholz=s.buchholz,
                        sonneborn=s.sonneborn, difference=s.difference, played=s.played)
