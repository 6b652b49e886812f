"""Skill ratings beside XP: openskill's Plackett-Luce model, one rating per person and
*family* -- the kind of game (Tute, Guiñote, Subastado, Cabrero) and its format (1v1,
2v2 pairs, three or more each for himself): ``tute/1v1``, ``guinote/2v2``,
``tute/ffa3``.  A competitive match updates the people at it; a robot counts as an
opponent of a fixed rating for its level and is never updated.  The rating shown is
openskill's ordinal (mu - 3 sigma: what the person is very likely at least worth)."""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce
from sqlalchemy import select, update
from sqlalchemy.engine import Connection

from tute.core.variants import Variant
from tute.server.db.schema import ratings

_MODEL = PlackettLuce()
# a robot's fixed skill by level (mu, sigma): the arena's order of strength
ROBOT_SKILL = {"random": (12.0, 1.0), "heuristic": (20.0, 1.0), "mc": (24.0, 1.0),
               "pimc": (27.0, 1.0), "expert": (30.0, 1.0)}


def family(v: Variant) -> str:
    kind = v.preset if v.preset in ("guinote", "subastado", "cabrero") else "tute"
    if v.partnerships:
        return f"{kind}/2v2"
    return f"{kind}/1v1" if v.players == 2 else f"{kind}/ffa{v.players}"


def update_ratings(c: Connection, v: Variant, sides: Sequence[int], winners: set[int],
                   people: dict[int, int], robot_level: str) -> None:
    """Rate one finished match in the caller's transaction.  ``sides``: the side of each
    seat; ``people``: seat -> account of the persons (the other seats are robots)."""
    fam = family(v)
    current: dict[int, tuple[float, float, int]] = {}
    for account in people.values():
        row = c.execute(select(ratings.c.mu, ratings.c.sigma, ratings.c.games)
                        .where(ratings.c.account_id == account,
                               ratings.c.family == fam)).first()
        current[account] = (float(row.mu), float(row.sigma), int(row.games)) if row \
            else (_MODEL.mu, _MODEL.sigma, 0)
    robot = ROBOT_SKILL.get(robot_level, (25.0, 1.0))
    teams: dict[int, list[int]] = {}
    for seat, side in enumerate(sides):
        teams.setdefault(side, []).append(seat)
    order = sorted(teams)
    rated = _MODEL.rate(
        [[_MODEL.create_rating(list(current[people[s]][:2]) if s in people else list(robot))
          for s in teams[side]] for side in order],
        ranks=[1 if set(teams[side]) & winners else 2 for side in order])
    for side, team in zip(order, rated, strict=True):
        for seat, r in zip(teams[side], team, strict=True):
            if seat not in people:
                continue
            account = people[seat]
            games = current[account][2] + 1
            done = c.execute(update(ratings).where(ratings.c.account_id == account,
                                                   ratings.c.family == fam)
                             .values(mu=r.mu, sigma=r.sigma, games=games))
            if done.rowcount == 0:
                c.execute(ratings.insert().values(account_id=account, family=fam, mu=r.mu,
                                                  sigma=r.sigma, games=games))


def ratings_of(c: Connection, account: int) -> dict[str, dict[str, float | int]]:
    rows = c.execute(select(ratings).where(ratings.c.account_id == account)).all()
    return {r.family: {"rating": round(r.mu - 3 * r.sigma, 1), "mu": round(r.mu, 2),
                       "sigma": round(r.sigma, 2), "games": int(r.games)} for r in rows}


def suggest(c: Connection, account: int,
            tables: Sequence[tuple[str, str, Sequence[int]]]) -> str | None:
    """The open table whose people are nearest in skill to ``account`` in its family of
    games (``tables``: id, family, the seated people's accounts), or None."""
    def skill(who: int, fam: str) -> float:
        row = c.execute(select(ratings.c.mu, ratings.c.sigma)
                        .where(ratings.c.account_id == who, ratings.c.family == fam)).first()
        mu, sigma = (float(row.mu), float(row.sigma)) if row else (_MODEL.mu, _MODEL.sigma)
        return mu - 3 * sigma

    best: tuple[float, str] | None = None
    for table_id, fam, people in tables:
        others = [p for p in people if p != account]
        if not others or account in people:
            continue
        gap = abs(sum(skill(p, fam) for p in others) / len(others) - skill(account, fam))
        if best is None or gap < best[0]:
            best = (gap, table_id)
    return None if best is None else best[1]
