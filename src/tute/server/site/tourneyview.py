"""A tournament as its page shows it (``GET /api/tourneys/{id}``): the entrants, every
round's boards with their tables and results, the standings with their tie-breaks, the
pot (the entries paid in, less those given back) and, once it is over, the prizes paid
-- and for the asker, whether they entered and the table of their game now.  An
entrant is shown by its people's names (None: the robot partner)."""

from __future__ import annotations

from typing import Any

from tute.server.db.schema import ledger as movements
from tute.server.site.arenas import ArenaRow, arena_table
from tute.server.site.tourneys import Tourney, TourneyBook
from tute.server.site.tourneyteams import members


def summary(t: Tourney) -> dict[str, Any]:
    return {"id": t.id, "name": t.name, "variant": t.variant, "rounds": t.rounds,
            "fee": t.fee, "move_seconds": t.move_seconds, "robots": t.robot_level,
            "starts": t.starts, "status": t.status, "round": t.round, "pairs": t.pairs,
            "kind": t.kind, "minutes": t.minutes, "ends": t.ends if t.kind == "arena" else None}


def tourney_view(book: TourneyBook, t: Tourney, account: int | None) -> dict[str, Any]:
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
    return {
        **summary(t), "pot": pot,
        "entrants": [{"name": x.name, "you": x.account == account,
                      "withdrawn": x.withdrawn is not None} for x in entered],
        "entered": any(x.account == account and x.withdrawn is None for x in e),
        "table": None if mine is None else {"id": mine.table_id,
                                            "seat": mine.seats.index(account)},
        "boards": [{"round": s.round, "board": s.board, "table": s.table_id,
                    "a": shown(s.a), "b": shown(s.b), "you": account in s.seats,
                    "score": s.score, "margin": s.margin} for s in b],
        "standings": [{"rank": s.rank, "names": shown(s.entrant),
                       "you": account in people(s.entrant), "points": s.points,
                       **({"games": s.games, "wins": s.wins, "on_fire": s.on_fire}
                          if isinstance(s, ArenaRow) else
                          {"buchholz": s.buchholz, "sonneborn": s.sonneborn,
                           "difference": s.difference, "played": s.played}),
                       "withdrawn": all(m is None or m in left for m in people(s.entrant)),
                       "prize": sum(paid.get(m, 0) for m in people(s.entrant)
                                    if m is not None)} for s in table]}
