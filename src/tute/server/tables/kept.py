"""Finished matches, kept: a person's history, a match's record, and its replay step by
step with every hand shown (a match is public once it is over -- but a private table's
only to those who could sit or watch there, :class:`KeptDoor`).

A kept match is a row of ``tute_matches`` naming the span of its table's events
(written in the same transaction as the match's last event); the events themselves are
the table's, kept with it.  The record is rebuilt from them -- the ``.tute`` text
``tute replay`` reads -- and the replay steps from the record, by the core.
"""

from __future__ import annotations

import datetime
import json
import re
from dataclasses import dataclass

import msgspec
from sqlalchemy import func, or_, select
from sqlalchemy.engine import Engine

from tute.core.errors import TuteError
from tute.core.game import Game
from tute.core.match import Match
from tute.core.records import GameRecord, format_record, replay
from tute.server.db.schema import events, match_people, matches, seats, tables, xp
from tute.server.db.schema import ledger as movements
from tute.server.site import ledger
from tute.server.site.economy import winning_seats
from tute.server.store import Event, KeepMatch, MatchResult, SeatRow
from tute.server.tables.log import table_record
from tute.server.wire.games import GameSummary, HandReplay, PlayedMatch, Position
from tute.server.wire.moves import SeatMove, seat_move
from tute.server.wire.views import table_json

_ID = re.compile(r"([0-9a-f]{12})-([1-9][0-9]{0,5})")
HISTORY = 50                       # matches shown in a profile


class KeptError(TuteError):
    """No such kept match (or an id that is not one)."""


def game_id(table_id: str, number: int) -> str:
    """A kept match's public id: its table and its number there."""
    return f"{table_id}-{number}"


def parse_game_id(text: str) -> tuple[str, int]:
    found = _ID.fullmatch(text)
    if found is None:
        raise KeptError("no_such_game")
    return found.group(1), int(found.group(2))


@dataclass(frozen=True, slots=True)
class KeptDoor:
    """Who may see a kept match: everyone, unless its table was private then -- the
    table's host, the invited, the host's friends (the caller knows them) and whoever
    played it.  A duplicate series' match also names its series and deal -- and so does
    a series' deal played again from one of its decisions, at a table of its own or
    again from that: the caller keeps it from whoever has not played that deal while
    the series runs."""

    private: bool
    host: int | None                       # the host's account
    invited: frozenset[int]
    players: frozenset[int]                # the accounts that played the match
    series: str | None = None              # a duplicate series' id
    series_deal: int = 0


class Kept:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def door(self, table_id: str, number: int, depth: int = 0) -> KeptDoor:
        """Who may see the table's ``number``-th kept match (KeptError: none such).
        ``depth``: how many hands played again were followed back to get here."""
        _, first, last = self._kept(table_id, number)
        with self.engine.connect() as c:
            rows = c.execute(select(events.c.kind, events.c.data)
                             .where(events.c.table_id == table_id, or_(
                                 events.c.kind.in_(("options", "invite"))
                                 & (events.c.seq < first),
                                 (events.c.kind == "staged")
                                 & (events.c.seq >= first)
                                 & (events.c.seq <= last)))
                             .order_by(events.c.seq)).all()
            host_key = c.execute(select(tables.c.host)
                                 .where(tables.c.id == table_id)).scalar()
            host = None if host_key is None else c.execute(
                select(seats.c.account).where(seats.c.table_id == table_id,
                                              seats.c.player == host_key)).scalar()
            players = c.execute(select(match_people.c.account_id).where(
                match_people.c.table_id == table_id,
                match_people.c.number == number)).scalars().all()
        private = False
        series: str | None = None
        deal = 0
        invited: set[int] = set()
        for kind, data in rows:
            d = json.loads(data)
            if kind == "options":
                private = bool(d.get("private", False))     # as it was for this match
                series, deal = d.get("series"), int(d.get("series_deal", 0))
            elif kind == "staged":                # a hand played again: a series' deal?
                if d.get("series") is not None:
                    series, deal = d["series"], int(d.get("series_deal", 0))
                elif series is None and isinstance(d.get("game"), str) and depth < 8:
                    series, deal = self._source_series(d["game"], depth + 1)
            elif "account" in d:
                invited.add(int(d["account"]))
        return KeptDoor(private, None if host is None else int(host), frozenset(invited),
                        frozenset(int(a) for a in players if a is not None), series, deal)

    def _source_series(self, game: str, depth: int) -> tuple[str | None, int]:
        """The series and deal of the kept match a hand was played again from, for a
        ``staged`` event stored before it named them itself (such a hand stays as
        hidden as its deal); (None, 0) if it is no series' or is kept no more."""
        try:
            source = self.door(*parse_game_id(game), depth=depth)
        except KeptError:
            return None, 0
        return source.series, source.series_deal

    def history(self, account: int, limit: int = HISTORY) -> list[PlayedMatch]:
        """The account's finished matches, newest first: when, what, with whom, how it
        ended for the account, the XP and the chips it won or lost."""
        with self.engine.connect() as c:
            rows = c.execute(
                select(matches, match_people.c.seat, match_people.c.outcome)
                .join(match_people, (match_people.c.table_id == matches.c.table_id)
                      & (match_people.c.number == matches.c.number))
                .where(match_people.c.account_id == account)
                .order_by(matches.c.finished.desc()).limit(limit)).all()
            out: list[PlayedMatch] = []
            me = ledger.player(account)
            for r in rows:          # the match's ledger keys: ":<table>:<number>:" before
                tag = f":{r.table_id}:{r.number}:"     # each start had its own escrow,
                tried = f":{r.table_id}:{r.number}.%:"  # then ":<table>:<number>.<try>:"
                points = c.execute(select(func.sum(xp.c.amount)).where(or_(
                    xp.c.key == f"xp{tag}{account}",
                    xp.c.key.like(f"xp{tried}{account}")))).scalar()
                moved = c.execute(select(movements.c.source, movements.c.dest,
                                         movements.c.amount).where(
                    or_(movements.c.key.like(f"%{tag}%"), movements.c.key.like(f"%{tried}%")),
                    or_(movements.c.source == me,
                        movements.c.dest == me))).all()
                chips = sum(m.amount if m.dest == me else -m.amount for m in moved)
                out.append(PlayedMatch(game_id(r.table_id, r.number), r.finished, r.variant,
                                       json.loads(r.names), r.seat, r.outcome,
                                       int(points or 0), int(chips)))
        return out

    def summary(self, table_id: str, number: int) -> GameSummary:
        """The kept match as its page heads it."""
        return self._kept(table_id, number)[0]

    def _kept(self, table_id: str, number: int) -> tuple[GameSummary, int, int]:
        """The kept match's summary, and its events' span (first, last)."""
        with self.engine.connect() as c:
            r = c.execute(select(matches).where(matches.c.table_id == table_id,
                                                matches.c.number == number)).first()
        if r is None:
            raise KeptError("no_such_game")
        return (GameSummary(id=game_id(table_id, number), finished=r.finished,
                            variant=r.variant, robot_level=r.robot_level, status=r.status,
                            names=json.loads(r.names),
                            result=msgspec.json.decode(r.result, type=MatchResult)),
                r.first_seq, r.last_seq)

    def record(self, table_id: str, number: int) -> GameRecord:
        """The kept match as a record, rebuilt from its table's events: its span, after
        the table's options as they were then (a duplicate series' deal is dealt by the
        seat its number says, not seat 0: without them its actions are out of turn)."""
        s, first, last = self._kept(table_id, number)
        with self.engine.connect() as c:
            options = c.execute(select(events.c.seq, events.c.kind, events.c.data)
                                .where(events.c.table_id == table_id,
                                       events.c.kind == "options",
                                       events.c.seq < first)
                                .order_by(events.c.seq.desc()).limit(1)).all()
            rows = c.execute(select(events.c.seq, events.c.kind, events.c.data)
                             .where(events.c.table_id == table_id,
                                    events.c.seq >= first,
                                    events.c.seq <= last)
                             .order_by(events.c.seq)).all()
        stored = [Event(r.seq, r.kind, json.loads(r.data)) for r in [*options, *rows]]
        date = datetime.datetime.fromtimestamp(s.finished or 0, datetime.UTC).date()
        try:
            return table_record(stored, s.variant, s.robot_level or "", tuple(s.names),
                                date.isoformat())
        except ValueError as e:                 # events that do not make a match
            raise KeptError("no_such_game") from e

    def record_text(self, table_id: str, number: int) -> str:
        return format_record(self.record(table_id, number))


def keep_match(number: int, first_seq: int, last_seq: int, robot_level: str, status: str,
               seats: dict[int, SeatRow], abandoned: set[int], match: Match) -> KeepMatch:
    """A table's finished (or annulled) match to keep: its events' span, its players,
    each account's outcome (``won``, ``lost``, ``abandoned``, ``annulled``)."""
    v = match.variant
    annulled = status == "annulled"
    winners = set() if annulled else winning_seats(match, list(seats))
    people = tuple(
        (s, r.account, "annulled" if annulled else "abandoned" if s in abandoned
         else "won" if s in winners else "lost")
        for s, r in sorted(seats.items()) if r.account is not None)
    score = match.score()
    return KeepMatch(number, first_seq, last_seq, str(v), robot_level, status,
                     tuple(seats[s].name if s in seats else "" for s in range(v.players)),
                     MatchResult(score.winner, sorted(winners), list(score.points),
                                 list(score.hands_won), match.hand_number), people)


def replay_hand(record: GameRecord, hand: int) -> HandReplay:
    """Hand ``hand`` (1 the first) of a record, step by step: the deal, then the table
    after every action, with every hand face up, and the hand's count."""
    done = replay(record)
    if not 1 <= hand <= len(done.games):
        raise KeptError("no_such_hand", hands=len(done.games))
    played = done.games[hand - 1]
    seats = done.seat_maps[hand - 1]
    names = [record.names[s] if s < len(record.names) else "" for s in seats]
    game = Game(played.variant, played.deal)
    steps = [_position(game, names, None)]
    for seat, action in played.history:
        game.apply(seat, action)
        steps.append(_position(game, names, seat_move(seat, action)))
    return HandReplay(hand, len(done.games), names, list(seats), steps, game.result())


def _position(g: Game, names: list[str], move: SeatMove | None) -> Position:
    table = msgspec.structs.asdict(table_json(g.table_view(), names))
    return Position(**table, known_cards=[[] for _ in range(g.players)],
                    faces=[sorted(c.code for c in g.hand(s)) for s in range(g.players)],
                    move=move)
