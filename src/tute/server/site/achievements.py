"""Achievements ("conquistas", seed 001): what a person did in competitive matches.

Seed 001: practice tables give no chips, no achievements and no level.  So a match
counts only where it was competitive, not practice and not annulled; what a robot did
for a person (automatic play, the clock) counts for nobody.  A table's stored events
say everything: :mod:`tute.server.tables.feats` reads them into one :class:`Feat` per
person per counted match -- what that person did there -- and the store keeps those rows
(``tute_feats``; a match that earned them no XP is kept too, as not counted: it counts
for nothing and breaks a streak).  The achievements are a fold over a person's feats in
the order the matches ended (:func:`earned`): each earned once, at the first match that reached it,
the counted ones with their progress.  Rebuilding the feats from every table's events
(``tute admin achievements``) finds the same rows, so the same achievements.

A feat's ``things`` are what the person did in one of the match's hands, each at most
once a match (:data:`HAND_FEATS`); the match's own facts are its game (``preset``) and
whether the person's side won it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec
from sqlalchemy import select
from sqlalchemy.engine import Connection, Engine

from tute.server.db.schema import feats as feat_rows

# what a person may do in a hand (the names of the feats stored)
HAND_FEATS = ("forty", "tute_kings", "tute_knights", "capote", "no_songs", "last_ten",
              "contract_100")
# the games with an achievement for playing ten matches of them
GAMES = ("parejas", "habanero", "tres", "guinote", "subastado", "cabrero")
GAMES_GOAL = 10
STREAK_GOAL = 3
WINS_GOAL = 25


@dataclass(frozen=True, slots=True)
class Achievement:
    """One achievement: its key (its name and description are the catalogue's
    ``ach_<key>`` and ``ach_<key>_about``; its badge the ``#ach-<key>`` drawing of
    ``badges.svg``), and how many times it must be done (1: once)."""

    key: str
    goal: int = 1


CATALOGUE: tuple[Achievement, ...] = (
    Achievement("first_win"),
    Achievement("forty"),
    Achievement("tute_kings"),
    Achievement("tute_knights"),
    Achievement("capote"),
    Achievement("no_songs"),
    Achievement("last_ten"),
    Achievement("contract_100"),
    Achievement("survivor"),
    Achievement("streak", STREAK_GOAL),
    Achievement("wins", WINS_GOAL),
    *(Achievement(f"games_{g}", GAMES_GOAL) for g in GAMES),
)
BY_KEY = {a.key: a for a in CATALOGUE}


@dataclass(frozen=True, slots=True)
class Feat:
    """What a person did in one settled match: the table and the match's number there,
    when it ended (the order of the fold), its game, whether the person's side won it,
    the hand feats, and whether it ``counted`` (it earned the person XP: played by
    themselves, not abandoned).  A match that did not count gives nothing -- and breaks
    a winning streak, as a match lost does."""

    account: int
    table_id: str
    match: int
    at: int
    preset: str
    won: bool
    things: frozenset[str] = frozenset()
    counted: bool = True


class Progress(msgspec.Struct, frozen=True):
    """An achievement as a person stands with it: how far (``count`` of ``goal``), and
    when and where it was earned (None: not yet)."""

    key: str
    count: int
    goal: int
    at: int | None = None
    table_id: str | None = msgspec.field(default=None, name="table")   # sent as "table"

    @property
    def done(self) -> bool:
        return self.at is not None


def earned(feats: Iterable[Feat]) -> dict[str, Progress]:
    """Every achievement of the catalogue for one person, from their feats (in any
    order: they are taken in the order the matches ended)."""
    counts = {a.key: 0 for a in CATALOGUE}
    when: dict[str, tuple[int, str]] = {}
    streak = 0
    for f in sorted(feats, key=lambda f: (f.at, f.table_id, f.match)):
        if not f.counted:                    # abandoned, or played by a robot
            streak = 0
            continue
        done: list[str] = list(f.things)
        if f.won:
            streak += 1
            done += ["first_win", "wins"]
            if f.preset == "cabrero":
                done.append("survivor")
        else:
            streak = 0
        if f.preset in GAMES:
            done.append(f"games_{f.preset}")
        for key in done:
            if key in counts:
                counts[key] += 1
        counts["streak"] = max(counts["streak"], streak)
        for key, n in counts.items():
            if key not in when and n >= BY_KEY[key].goal:
                when[key] = (f.at, f.table_id)
    return {a.key: Progress(a.key, min(counts[a.key], a.goal), a.goal,
                            *(when.get(a.key) or (None, None))) for a in CATALOGUE}


def new_ones(before: Sequence[Feat], match: Sequence[Feat]) -> dict[int, list[str]]:
    """The achievements each person of a match earned with it: earned after it and not
    before (per account; catalogue order)."""
    out: dict[int, list[str]] = {}
    for account in sorted({f.account for f in match}):
        had = earned(f for f in before if f.account == account)
        now = earned([*(f for f in before if f.account == account),
                      *(f for f in match if f.account == account)])
        got = [k for k, p in now.items() if p.done and not had[k].done]
        if got:
            out[account] = got
    return out


def row(f: Feat) -> dict[str, int | str]:
    """A feat as the store's row."""
    return {"account_id": f.account, "table_id": f.table_id, "match": f.match, "at": f.at,
            "preset": f.preset, "won": 1 if f.won else 0, "counted": 1 if f.counted else 0,
            "things": ",".join(sorted(f.things))}


def from_row(r: Any) -> Feat:
    return Feat(int(r.account_id), str(r.table_id), int(r.match), int(r.at), str(r.preset),
                bool(r.won), frozenset(t for t in str(r.things).split(",") if t),
                bool(r.counted))


def feats_of(c: Connection, account: int) -> list[Feat]:
    """A person's stored feats."""
    return [from_row(r) for r in c.execute(
        select(feat_rows).where(feat_rows.c.account_id == account))]


def all_feats(c: Connection) -> list[Feat]:
    """Every stored feat (the rebuild compares them with the events' own)."""
    return [from_row(r) for r in c.execute(select(feat_rows))]


class Achievements:
    """The achievements in the site's database: the feats kept, and what they earn."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def record(self, found: Sequence[Feat]) -> dict[int, list[str]]:
        """Keep a match's feats (those not kept already: a step done again keeps
        nothing twice), in one transaction; the achievements each person earned with
        them (none for feats that were already kept: never announced twice)."""
        with self.engine.begin() as c:
            accounts = sorted({f.account for f in found})
            before = [f for a in accounts for f in feats_of(c, a)]
            kept = {(f.account, f.table_id, f.match) for f in before}
            new = [f for f in found if (f.account, f.table_id, f.match) not in kept]
            for f in new:
                c.execute(feat_rows.insert().values(**row(f)))
        return new_ones(before, new)

    def of(self, account: int) -> list[Progress]:
        """A person's standing with every achievement (catalogue order)."""
        with self.engine.connect() as c:
            return list(earned(feats_of(c, account)).values())

    def compare(self, found: Sequence[Feat], write: bool = False
                ) -> tuple[list[Feat], list[Feat]]:
        """The feats read from every table's events against those kept: (missing from
        the store, kept but not in the events).  ``write``: the store made to match."""
        with self.engine.begin() as c:
            kept = set(all_feats(c))
            wanted = set(found)
            missing = sorted(wanted - kept, key=_order)
            extra = sorted(kept - wanted, key=_order)
            if write:
                for f in extra:
                    c.execute(feat_rows.delete().where(
                        (feat_rows.c.account_id == f.account)
                        & (feat_rows.c.table_id == f.table_id)
                        & (feat_rows.c.match == f.match)))
                for f in missing:
                    c.execute(feat_rows.insert().values(**row(f)))
        return missing, extra


def _order(f: Feat) -> tuple[int, str, int, int]:
    return (f.at, f.table_id, f.match, f.account)
