"""A table's event log: the numbered events, what everybody may know of each, and the
replay that rebuilds a table's game from them.

Events: ``options`` (variant, robot level, time per move), ``seat`` (a seat taken: its
name, ``robot`` or not), ``start`` (a match: its shuffle seed, kept on the server),
``action`` (a seat's action, in the canonical text), ``next_hand`` and ``match_over``
(the finished hand's count; derived from the actions, written in the same transaction
as the hand's last action -- and derived again at a restart if missing), ``closed``;
``annul_vote``, ``annul_refused``, ``annul_expired`` and ``annulled`` (the friendly end
of a match: :mod:`tute.server.annul`); ``chat`` (:mod:`tute.server.tablechat`) and
``invite`` (the host invited an account to a private table).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tute.core.actions import parse_action
from tute.core.game import Game
from tute.core.match import Match
from tute.core.records import GameRecord, record_of_games
from tute.core.variants import Variant, parse_variant
from tute.server.store import Event, SeatRow
from tute.server.wire import result_json


@dataclass(slots=True)
class Options:
    variant: Variant
    robot_level: str
    move_seconds: float
    competitive: bool = False        # for XP and chips (seed 001); else practice
    bet: int = 0                     # chips each person puts in the pot of a match
    spectators: bool = True          # "Permitir público": anyone may watch
    chat_in_hand: bool = True        # the players may chat while a hand is played
    private: bool = False            # "Mesa privada": the invited and the host's friends

    def json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"variant": str(self.variant), "robot_level": self.robot_level,
                               "move_seconds": self.move_seconds}
        if self.competitive:
            out.update(competitive=True, bet=self.bet)
        if not self.spectators:
            out["spectators"] = False
        if not self.chat_in_hand:
            out["chat_in_hand"] = False
        if self.private:
            out["private"] = True
        return out


def public(event: Event) -> dict[str, Any]:
    """What everybody may know of an event (the shuffle seed stays on the server)."""
    data = {} if event.kind == "start" else dict(event.data)
    if event.kind == "seat":
        data.pop("where", None)                       # a person's place stays here
        if "kind" in data:                            # stored before "robot" existed
            data["robot"] = data.pop("kind") == "robot"
    return {**data, "seq": event.seq, "kind": event.kind}


def hand_end(match: Match, seq: int) -> list[Event]:
    """Score a finished hand of ``match`` (it changes) and the event that says so:
    ``next_hand`` with the next hand dealt, or ``match_over``."""
    result = result_json(match.record_hand())
    if match.is_over:
        return [Event(seq, "match_over", {"winner": match.winner, "result": result})]
    match.deal_next()                     # from the match's seed: replayable
    return [Event(seq, "next_hand", {"hand": match.hand_number, "result": result})]


@dataclass(slots=True)
class Replayed:
    """A table's state rebuilt from its events."""

    options: Options
    match: Match | None = None
    seq: int = 0
    history: list[dict[str, Any]] = field(default_factory=list)
    missing: list[Event] = field(default_factory=list)   # derived events not yet stored


def replay(variant: str, robot_level: str, stored: list[Event]) -> Replayed:
    """Rebuild a table from its events; raises a ``TuteError`` (or another exception)
    when they cannot be replayed -- the caller marks the table broken.

    Every prefix of a table's events is a live table: a hand whose last action was
    stored without its ``next_hand`` (a crash between them, from an older version)
    gets it derived again, in ``missing``, for the caller to store."""
    state = Replayed(Options(parse_variant(variant), robot_level, 0.0))
    for expected, e in enumerate(stored, start=1):
        if e.seq != expected:
            raise ValueError(f"event {expected} is missing (found {e.seq})")
        _apply(state, e)
        state.seq = e.seq
        state.history.append(public(e))
    m = state.match
    if m is not None and not m.is_over and m.game.is_over:
        for e in hand_end(m, state.seq + 1):
            state.seq = e.seq
            state.history.append(public(e))
            state.missing.append(e)
    return state


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


def places_of(stored: list[Event], seats: dict[int, SeatRow]) -> dict[int, str]:
    """Where each person at the table sat from (:mod:`tute.server.places`): the place
    of the last ``seat`` event of each seat a person holds (none for a seat taken
    before places were stored)."""
    out: dict[int, str] = {}
    for e in stored:
        if e.kind == "seat":
            seat = int(e.data["seat"])
            out.pop(seat, None)
            if isinstance(e.data.get("where"), str):
                out[seat] = str(e.data["where"])
    return {s: p for s, p in out.items() if s in seats and seats[s].kind == "human"}


def escrow_of(start: Event, number: int) -> str:
    """The escrow of the match a ``start`` event began (the table's ``number``-th):
    :func:`~tute.server.ledger.escrow`'s match -- its number and the start's attempt, or
    the number alone for a start stored before attempts were."""
    attempt = start.data.get("escrow")
    return f"{number}.{attempt}" if isinstance(attempt, str) and attempt else str(number)


def unearned_seats(match: list[dict[str, Any]], seats: dict[int, SeatRow]) -> set[int]:
    """The people's seats that earn no XP from a match (its events, stored or public,
    each with its ``kind``): every one when fewer than two people played it, and any
    whose moves were mostly made for them -- by the clock or by automatic play (an
    ``action`` marked ``auto``).  Seed 001's ranking counts real competition."""
    people = {s for s, r in seats.items() if r.kind == "human"}
    if len(people) < 2:
        return people
    own = dict.fromkeys(people, 0)
    made = dict.fromkeys(people, 0)
    for e in match:
        seat = e.get("seat")
        if e.get("kind") == "action" and isinstance(seat, int) and seat in people:
            (made if e.get("auto") else own)[seat] += 1
    return {s for s in people if made[s] > own[s]}


def abandoned_seats(events: list[Event]) -> set[int]:
    """The seats that abandoned a match, from its events (:func:`match_events`)."""
    return {int(e.data["seat"]) for e in events if e.kind == "abandon"}


def apply_event(state: Replayed, e: Event) -> None:
    """One stored event applied to a table being rebuilt."""
    _apply(state, e)


def _apply(state: Replayed, e: Event) -> None:
    d = e.data
    if e.kind == "options":
        state.options = Options(parse_variant(str(d["variant"])), str(d["robot_level"]),
                                float(d["move_seconds"]), bool(d.get("competitive", False)),
                                int(d.get("bet", 0)), bool(d.get("spectators", True)),
                                bool(d.get("chat_in_hand", True)),
                                bool(d.get("private", False)))
    elif e.kind == "start":
        state.match = Match(state.options.variant, seed=int(d["seed"]))
    elif e.kind == "action":
        if state.match is None:
            raise ValueError(f"event {e.seq}: an action before the match started")
        m = state.match                      # the event names the table's seat
        m.game.apply(m.seat_map.index(int(d["seat"])), parse_action(str(d["action"])))
    elif e.kind in ("next_hand", "match_over"):
        if state.match is None:
            raise ValueError(f"event {e.seq}: a hand's end before the match started")
        hand_end(state.match, e.seq)
    elif e.kind == "annulled":
        if state.match is None:
            raise ValueError(f"event {e.seq}: an annulment before the match started")
        state.match.annul()


def match_games(stored: list[Event], variant: str, robot_level: str) -> list[Game]:
    """The hands of a table's last match, as games (the last one as far as it went:
    unfinished, or annulled), replayed from its events."""
    state = Replayed(Options(parse_variant(variant), robot_level, 0.0))
    games: list[Game] = []
    for e in stored:
        if e.kind == "start":
            games = []
        elif e.kind in ("next_hand", "match_over") and state.match is not None:
            games.append(state.match.game)
        _apply(state, e)
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
