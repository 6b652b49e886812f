"""A table's stored log read back: the matches in it, who earns what from one, and a
match as a ``.tute`` record.

The events themselves -- their kinds, typed, and the one :func:`apply` that makes a
table's state from them -- are :mod:`tute.server.tables`: ``options``, ``seat``,
``start``, ``practice``, ``staged`` (a kept hand played again from a decision),
``action``, ``next_hand`` and ``match_over`` (the finished
hand's count, in the same transaction as the hand's last action), ``settled`` (a
competitive match's chips and XP, once paid), ``invite``,
``automatic``, ``editing``, ``abandon``, ``annul_vote``, ``annul_refused``,
``annul_expired``, ``annulled`` and ``chat``.
"""

from __future__ import annotations

from collections.abc import Sequence

from tute.core.game import Game
from tute.core.records import GameRecord, record_of_games
from tute.core.variants import parse_variant
from tute.server.store import Event, SeatRow
from tute.server.tables.events import Acted, HandEnded, MatchEnded, Started, TableEvent, typed
from tute.server.tables.options import Options
from tute.server.tables.state import Replayed, TableState, apply, replay

__all__ = ["Options", "Replayed", "apply_event", "match_events", "match_games", "replay",
           "table_record", "unearned_seats"]


def apply_event(state: TableState, e: Event) -> None:
    """One stored event applied to a table's state (tools and tests that follow a
    stored log event by event)."""
    apply(state, e.seq, typed(e))


def match_events(stored: list[Event], number: int) -> list[Event]:
    """The events of a table's ``number``-th match (1 the first): its start and what
    followed it until the next start."""
    out: list[Event] = []
    started = 0
    for e in stored:
        if e.kind == "start":
            started += 1
        if started == number:
            out.append(e)
        elif started > number:
            break
    return out


def unearned_seats(match: Sequence[TableEvent], seats: dict[int, SeatRow]) -> set[int]:
    """The people's seats that earn no XP from a match (its events): every one when
    fewer than two people played it, and any
    whose moves were mostly made for them -- by the clock or by automatic play (an
    ``action`` marked ``auto``).  Seed 001's ranking counts real competition."""
    people = {s for s, r in seats.items() if r.kind == "human"}
    if len(people) < 2:
        return people
    own = dict.fromkeys(people, 0)
    made = dict.fromkeys(people, 0)
    for e in match:
        if isinstance(e, Acted) and e.seat in people:
            (made if e.auto else own)[e.seat] += 1
    return {s for s in people if made[s] > own[s]}


def match_games(stored: list[Event], variant: str, robot_level: str) -> list[Game]:
    """The hands of a table's last match, as games (the last one as far as it went:
    unfinished, or annulled), replayed from its events."""
    state = TableState(Options(parse_variant(variant), robot_level, 0.0))
    games: list[Game] = []
    for e in stored:
        event = typed(e)
        if isinstance(event, Started):
            games = []
        elif isinstance(event, HandEnded | MatchEnded) and state.match is not None:
            games.append(state.match.game)
        apply(state, e.seq, event)
    if state.match is None:
        raise ValueError("no match was started at this table")
    m = state.match
    if (not m.is_over or m.annulled) and m.game not in games:   # as far as it went
        games.append(m.game)
    return games


def table_record(stored: list[Event], variant: str, robot_level: str,
                 names: tuple[str, ...], date: str = "") -> GameRecord:
    """A table's last match as a ``.tute`` record (``tute replay`` reads it)."""
    return record_of_games(match_games(stored, variant, robot_level), names, date=date,
                           event="tute serve")
