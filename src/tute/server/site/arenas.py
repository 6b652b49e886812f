"""Arena tournaments on the site (issue 33): for ``minutes`` from the start, whoever has
entered and waits on the tournament's page is paired as soon as another waits -- the
nearest in score, not their last opponent (:func:`tute.tourney.arena.arena_pairs`) --
and plays as many games as they like; a win scores 2, a draw 1, double on a streak of
wins (:func:`tute.tourney.arena.arena_score`).  After the end nobody is paired again; the
games under way are played out, then the pot goes to the places as in a Swiss
tournament.  People may enter until the end.

Each pairing is a batch of boards written at once (its number in the tournament's
``round``), like a Swiss round; an entrant's games are in the order they were paired,
one at a time, so the batches' order is the order of their games.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass

from sqlalchemy import select, update

from tute.server.db.schema import tourney_boards as boards
from tute.server.db.schema import tourney_entries as entries
from tute.server.db.schema import tourneys as rows
from tute.server.site.tourneyrows import lock, read_boards, read_entries
from tute.server.site.tourneys import BoardRow, Tourney, TourneyBook
from tute.server.site.tourneyteams import Entry
from tute.tourney.arena import arena_pairs, arena_score


@dataclass(frozen=True, slots=True)
class ArenaRow:
    rank: int
    entrant: str
    points: int
    games: int
    wins: int
    on_fire: bool


def results(b: list[BoardRow]) -> dict[str, list[float]]:
    """Each entrant's finished games' results, in the order they were paired."""
    out: dict[str, list[float]] = {}
    for s in sorted(b, key=lambda s: (s.round, s.board)):
        if s.score is None:
            continue
        out.setdefault(s.a, []).append(s.score)
        if s.b is not None:
            out.setdefault(s.b, []).append(1.0 - s.score)
    return out


def arena_table(e: list[Entry], b: list[BoardRow]) -> list[ArenaRow]:
    """The standings: points, then wins, then the entry order; equal on both, one place."""
    done = results(b)
    entrants = list(dict.fromkeys(x.team for x in e if x.withdrawn != 0 and x.team))
    scored = [(x, arena_score(done.get(x, []))) for x in entrants]
    order = {x: i for i, x in enumerate(entrants)}
    scored.sort(key=lambda r: (-r[1].points, -r[1].wins, order[r[0]]))
    out: list[ArenaRow] = []
    for i, (x, s) in enumerate(scored):
        same = bool(out) and (out[-1].points, out[-1].wins) == (s.points, s.wins)
        out.append(ArenaRow(out[-1].rank if same else i + 1, x, s.points, s.games, s.wins,
                            s.on_fire))
    return out


def pair_waiting(book: TourneyBook, t: Tourney, since: float, now: float) -> int:
    """Pair the entrants waiting now -- on the page since ``since``, in no game -- as a batch
    of boards, decided on the tournament as it is in the database, its row locked.
    How many boards it made."""
    with book.engine.begin() as c:
        t = lock(c, t.id)
        if t.status != "running" or now >= t.ends:
            return 0
        e, b = read_entries(c, t.id), read_boards(c, t.id)
        busy = {a for s in b if s.score is None for a in s.seats if a is not None}
        present = {int(a) for a in c.execute(select(entries.c.account_id).where(
            entries.c.tourney_id == t.id, entries.c.seen >= int(since))).scalars()}
        waiting = [x.team for x in e if x.withdrawn is None and x.team is not None
                   and x.account in present and x.account not in busy]
        if len(waiting) < 2:
            return 0
        points = {r.entrant: r.points for r in arena_table(e, b)}
        last: dict[str, str] = {}
        for s in sorted(b, key=lambda s: (s.round, s.board)):
            if s.b is not None:
                last[s.a], last[s.b] = s.b, s.a
        games = arena_pairs(waiting, points, last)
        if not games:
            return 0
        batch = t.round + 1
        c.execute(update(rows).where(rows.c.id == t.id).values(round=batch))
        for n, (x, y) in enumerate(games, start=1):
            c.execute(boards.insert().values(
                tourney_id=t.id, round=batch, board=n, table_id=secrets.token_hex(6),
                a=x, b=y, seats=json.dumps([int(x[1:]), int(y[1:])])))
        return len(games)
