"""What each person did in each counted match of a table, read from its stored events
(:class:`~tute.server.site.achievements.Feat`): the achievements' one source.

A match is read where it was settled (``settled``: competitive, not practice, not
annulled, finished); it counts only for the people who earned XP from it (seed 001's
real competition: two people or more, their moves mostly their own, not abandoned) --
for the others it is kept as not counted: nothing earned, a streak broken.  A
hand's feats count only for a person who made every move of theirs in that hand
(none made by the clock or by automatic play).  Per hand, for a person's seat:

- ``forty``: sang las cuarenta; ``tute_kings`` / ``tute_knights``: declared a tute of
  Reyes / Caballos;
- ``capote``: their side took every trick;
- ``no_songs``: their side won the hand without singing;
- ``last_ten``: their side won a close hand (by 10 points or fewer) taking the last
  trick (the diez de últimas decided it);
- ``contract_100``: made a Subastado contract of 100 or more as the declarer.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.engine import Engine

from tute.core.actions import DeclareTute, SingForty
from tute.core.cards import Rank
from tute.core.match import Match
from tute.core.result import HandResult
from tute.core.variants import parse_variant
from tute.server.db.schema import events as event_rows
from tute.server.db.schema import tables
from tute.server.site.achievements import Feat
from tute.server.site.economy import winning_seats
from tute.server.store import Event
from tute.server.tables.events import (
    Acted,
    Annulled,
    AutomaticSet,
    HandEnded,
    MatchEnded,
    Settled,
    Started,
    typed,
)
from tute.server.tables.options import Options
from tute.server.tables.state import TableState, apply

CLOSE = 10                  # a hand won by this many points or fewer is close


def hand_feats(m: Match, result: HandResult) -> dict[int, set[str]]:
    """The feats of a finished hand's count (``m``: the match as the hand ended),
    per match seat."""
    v = m.variant
    out: dict[int, set[str]] = {}
    if result.void:
        return out
    totals, cantes, winner, contract = result.totals, result.cantes, result.winner, \
        result.contract
    for game_seat, seat in enumerate(m.seat_map):
        side = v.side_of(game_seat) if v.partnerships else game_seat
        got: set[str] = set()
        if result.capote == side:
            got.add("capote")
        if winner == side and side < len(cantes) and cantes[side] == 0 \
                and result.tute is None:
            got.add("no_songs")
        if winner == side and result.last_trick == side and len(totals) > 1:
            best_other = max(t for k, t in enumerate(totals) if k != side)
            if 0 < totals[side] - best_other <= CLOSE:
                got.add("last_ten")
        if contract is not None and contract.made and contract.declarer == game_seat \
                and contract.bid >= 100:
            got.add("contract_100")
        if got:
            out[seat] = got
    return out


def table_feats(table_id: str, stored: Sequence[Event], variant: str,
                robot_level: str) -> list[Feat]:
    """Every counted match's feats of a table, from its stored events."""
    state = TableState(Options(parse_variant(variant), robot_level, 0.0))
    out: list[Feat] = []
    things: dict[int, set[str]] = {}         # match seat -> the match's feats so far
    current: dict[int, set[str]] = {}        # ... and the running hand's
    helped: set[int] = set()                 # seats with a move made for them this hand
    for e in stored:
        event = typed(e)
        before = state.match
        if isinstance(event, Acted) and before is not None:
            if event.auto or event.seat in state.automatic:
                helped.add(event.seat)
            action = event.action
            game_seat = before.seat_map.index(event.seat)
            if isinstance(action, SingForty):
                current.setdefault(event.seat, set()).add("forty")
            elif isinstance(action, DeclareTute):
                hand = before.game.hand(game_seat)
                kings = sum(1 for c in hand if c.rank is Rank.REY) == 4
                current.setdefault(event.seat, set()).add(
                    "tute_kings" if kings else "tute_knights")
        apply(state, e.seq, event)
        if isinstance(event, Started | Annulled):
            things, current, helped = {}, {}, set(state.automatic)
        elif isinstance(event, AutomaticSet) and event.on:
            helped.add(event.seat)
        elif isinstance(event, HandEnded | MatchEnded) and before is not None:
            for seat, got in hand_feats(before, event.result).items():
                current.setdefault(seat, set()).update(got)
            for seat, got in current.items():
                if seat not in helped:              # a hand played for them: nothing
                    things.setdefault(seat, set()).update(got)
            current, helped = {}, set(state.automatic)
        elif isinstance(event, Settled) and state.match is not None \
                and state.options.competitive and not state.practice:
            winners = winning_seats(state.match, list(state.seats))
            preset = state.options.variant.preset
            for gain in event.gains:
                row = state.seats.get(gain.seat)
                if row is None or row.kind != "human" or row.account is None:
                    continue
                counted = gain.xp > 0
                out.append(Feat(row.account, table_id, state.matches, event.at, preset,
                                counted and gain.seat in winners,
                                frozenset(things.get(gain.seat, set())) if counted
                                else frozenset(), counted))
    return out


def every_feat(engine: Engine) -> list[Feat]:
    """The feats of every settled match in the store, read from the tables' events
    (``tute admin achievements`` compares them with those kept)."""
    out: list[Feat] = []
    with engine.connect() as c:
        settled = select(event_rows.c.table_id).where(event_rows.c.kind == "settled")
        found = c.execute(select(tables.c.id, tables.c.variant, tables.c.robot_level)
                          .where(tables.c.id.in_(settled)).order_by(tables.c.id)).all()
        for table_id, variant, robot_level in found:
            stored = [Event(r.seq, r.kind, json.loads(r.data)) for r in c.execute(
                select(event_rows).where(event_rows.c.table_id == table_id)
                .order_by(event_rows.c.seq))]
            out += table_feats(str(table_id), stored, str(variant), str(robot_level))
    return out
