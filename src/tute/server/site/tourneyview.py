"""A tournament as its page shows it (``GET /api/tourneys/{id}``): the entrants, every
round's boards with their tables and results, the standings with their tie-breaks, the
pot (the entries paid in, less those given back) and, once it is over, the prizes paid -- and for the asker, whether they entered
and the table of their game now."""

from __future__ import annotations

from typing import Any

from tute.server.db.schema import ledger as movements
from tute.server.site.tourneys import Tourney, TourneyBook


def summary(t: Tourney) -> dict[str, Any]:
    return {"id": t.id, "name": t.name, "variant": t.variant, "rounds": t.rounds,
            "fee": t.fee, "move_seconds": t.move_seconds, "robots": t.robot_level,
            "starts": t.starts, "status": t.status, "round": t.round}


def tourney_view(book: TourneyBook, t: Tourney, account: int | None) -> dict[str, Any]:
    e = book.entries(t.id)
    b = book.boards(t.id)
    names = {x.account: x.name for x in e}
    entered = [x for x in e if x.withdrawn != 0]
    table = book.table(t, e, b)
    with book.engine.connect() as c:
        moved = c.execute(movements.select().where(
            (movements.c.source == t.pot) | (movements.c.dest == t.pot))).all()
    pot = sum(m.amount for m in moved if m.dest == t.pot) - sum(
        m.amount for m in moved if m.key.startswith("tourney-refund:"))
    paid = {int(m.dest[2:]): int(m.amount) for m in moved
            if m.key.startswith("tourney-prize:")}
    withdrawn = {f"a{x.account}" for x in e if x.withdrawn not in (None, 0)}
    mine = next((s for s in b if s.round == t.round and s.score is None
                 and account in (s.a, s.b)), None)
    return {
        **summary(t), "pot": pot,
        "entrants": [{"name": x.name, "you": x.account == account,
                      "withdrawn": x.withdrawn is not None} for x in entered],
        "entered": any(x.account == account and x.withdrawn is None for x in e),
        "table": None if mine is None else {"id": mine.table_id,
                                            "seat": 0 if mine.a == account else 1},
        "boards": [{"round": s.round, "board": s.board, "table": s.table_id,
                    "a": names.get(s.a, "?"), "b": None if s.b is None else names.get(s.b, "?"),
                    "you": account in (s.a, s.b), "score": s.score, "margin": s.margin}
                   for s in b],
        "standings": [{"rank": s.rank, "name": names.get(int(s.entrant[1:]), "?"),
                       "you": int(s.entrant[1:]) == account, "points": s.points,
                       "buchholz": s.buchholz, "sonneborn": s.sonneborn,
                       "difference": s.difference, "played": s.played,
                       "withdrawn": s.entrant in withdrawn,
                       "prize": paid.get(int(s.entrant[1:]), 0)} for s in table]}
