"""Rankings (seed 001's "Ranking por pontos"): XP won in a period, the most first, for
every game together or one game (parejas, habanero, Guiñote...), with each player's
matches played and won there; a person's own place even when it is off the page.

Who is ranked: registered players whose XP in the period is above zero and who hold
chips to cover the biggest bet they played in it (a ranking bought with chips lost
elsewhere is not one).  Levels: an XP total's level (100 XP a level) and its band's name,
as players of card sites know them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import msgspec
from sqlalchemy import String, cast, func, literal, select
from sqlalchemy.engine import Engine

from tute.core.errors import TuteError
from tute.core.variants import PRESETS
from tute.server.db.schema import accounts, balances, xp
from tute.server.db.schema import ledger as movements

PERIODS = ("day", "week", "month", "all")
XP_PER_LEVEL = 100
# the first level of each band, and the band's name (its catalogue key: level_<band>)
BANDS = ((1, "novice"), (2, "apprentice"), (4, "amateur"), (7, "regular"), (11, "skilled"),
         (16, "expert"), (26, "master"), (41, "legend"))


class RankingError(TuteError):
    """A ranking that cannot be asked for (an unknown period or game)."""


def level_of(points: int) -> int:
    """The level an XP total reaches: 100 XP for level 2, then 100 more each level."""
    return 1 + max(0, points) // XP_PER_LEVEL


def band_of(level: int) -> str:
    """The name (key) of the band a level is in."""
    return [name for first, name in BANDS if level >= first][-1]


def to_next_level(points: int) -> int:
    """The XP still to win for the next level."""
    return XP_PER_LEVEL - max(0, points) % XP_PER_LEVEL


class Level(msgspec.Struct, frozen=True):
    """A person's level, its band, and the XP still to win for the next."""

    level: int
    band: str
    xp_next: int


def level_json(points: int) -> Level:
    level = level_of(points)
    return Level(level, band_of(level), to_next_level(points))


@dataclass(frozen=True, slots=True)
class Row:
    """A ranked player: the place, the name, the XP and the matches played and won
    in the period (in the game asked for)."""

    place: int
    account: int
    name: str
    xp: int
    played: int
    won: int
    avatar: str | None = None

    def json(self) -> Ranked:
        return Ranked(self.place, self.name, self.avatar, self.xp, self.played, self.won)


class Ranked(msgspec.Struct, frozen=True):
    """A ranked player as the page shows them (no account number)."""

    place: int
    name: str
    avatar: str | None
    xp: int
    played: int
    won: int


class RankingPage(msgspec.Struct, frozen=True):
    """A ranking's first rows, the person's own (``mine``: None where not ranked), how
    many are ranked, in which period, game and pool (people or bots)."""

    period: str
    game: str
    pool: str
    rows: list[Ranked]
    mine: Ranked | None
    ranked: int


def period_start(period: str, now: float | None = None) -> int:
    if period not in PERIODS:
        raise RankingError("bad_period", periods=", ".join(PERIODS))
    if period == "all":
        return 0
    moment = datetime.fromtimestamp(now if now is not None else time.time(), UTC)
    day = moment.replace(hour=0, minute=0, second=0, microsecond=0)
    if period == "week":
        day -= timedelta(days=day.weekday())
    elif period == "month":
        day = day.replace(day=1)
    return int(day.timestamp())


def ranking(engine: Engine, period: str, game: str | None = None,
            now: float | None = None, bots: bool = False) -> list[Row]:
    """Every ranked player of the period (and game: a preset's name, None for all),
    in order -- one query: the chips-cover-bets rule in SQL, not a query per player.
    People and bot accounts are two pools: ``bots`` asks for the bots'."""
    since = period_start(period, now)
    if game is not None and game not in PRESETS:
        raise RankingError("bad_game", games=", ".join(PRESETS))
    holder = literal("p:") + cast(accounts.c.id, String)
    bets = (select(movements.c.source.label("who"), func.max(movements.c.amount).label("bet"))
            .where(movements.c.at >= since, movements.c.key.like("bet:%"))
            .group_by(movements.c.source).subquery())
    query = (select(accounts.c.id, accounts.c.name, accounts.c.avatar,
                    func.sum(xp.c.amount).label("xp"),
                    func.count().label("played"), func.sum(xp.c.won).label("won"))
             .join(xp, xp.c.account_id == accounts.c.id)
             .outerjoin(balances, balances.c.account == holder)
             .outerjoin(bets, bets.c.who == holder)
             .where(xp.c.at >= since, accounts.c.bot.is_(bots))
             .where(func.coalesce(balances.c.balance, 0) >= func.coalesce(bets.c.bet, 0)))
    if game is not None:
        query = query.where(xp.c.preset == game)
    query = (query.group_by(accounts.c.id, accounts.c.name, accounts.c.avatar)
             .having(func.sum(xp.c.amount) > 0)
             .order_by(func.sum(xp.c.amount).desc(), accounts.c.name))
    with engine.connect() as c:
        found = c.execute(query).all()
    return [Row(place, int(r.id), str(r.name), int(r.xp), int(r.played), int(r.won or 0),
                None if r.avatar is None else str(r.avatar))
            for place, r in enumerate(found, start=1)]


def page(engine: Engine, period: str, game: str | None = None, me: int | None = None,
         limit: int = 100, now: float | None = None, bots: bool = False) -> RankingPage:
    """The first ``limit`` rows, and the person's own row (``mine``: None where they are
    not ranked) -- the same whether or not it is on the page."""
    rows = ranking(engine, period, game, now, bots)
    mine = next((r for r in rows if r.account == me), None) if me is not None else None
    return RankingPage(period, game or "all", "bots" if bots else "people",
                       [r.json() for r in rows[:limit]], None if mine is None else mine.json(),
                       len(rows))
