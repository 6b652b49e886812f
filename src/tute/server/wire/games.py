"""A match as its pages read it: a kept one's summary (or one read from a file), a
hand of it step by step, a person's played matches, where a person sits now."""

from __future__ import annotations

import msgspec

from tute.core.result import HandResult
from tute.server.db.ops import MatchResult
from tute.server.wire.moves import Move, SeatMove
from tute.server.wire.views import TableJson


class Position(TableJson, kw_only=True):
    """The table at one step of a finished hand's replay, every hand face up
    (``faces``), and the move that led to it (``move``: None at the deal)."""

    faces: list[list[str]]
    move: SeatMove | None
    seat: None = None
    hand: list[str] = msgspec.field(default_factory=list)
    legal: list[str] = msgspec.field(default_factory=list)
    legal_cards: list[str] = msgspec.field(default_factory=list)
    calls: list[Move] = msgspec.field(default_factory=list)
    known_cards: list[list[str]] = msgspec.field(default_factory=list)


class HandReplay(msgspec.Struct):
    """A finished hand step by step (hand ``hand`` of ``hands``): the deal, then the
    table after every action, every hand face up (``steps``), and the hand's count."""

    hand: int
    hands: int
    names: list[str]
    seats: list[int]
    steps: list[Position]
    result: HandResult | None


class Winner(msgspec.Struct):
    """How a match read from a file ended: its winning side (None: nobody)."""

    winner: int | None


class GameSummary(msgspec.Struct, kw_only=True):
    """A match as its page heads it: a kept one (``id``, when it ``finished``, its
    ``result``), or one read from a file (no id; its ``date`` and ``event``, which of the
    file's ``games`` it is, the name its analysis goes by: ``file``)."""

    id: str | None
    finished: int | None
    variant: str
    robot_level: str | None
    status: str
    names: list[str]
    result: MatchResult | Winner
    date: str | msgspec.UnsetType | None = msgspec.UNSET
    event: str | msgspec.UnsetType | None = msgspec.UNSET
    games: int | msgspec.UnsetType = msgspec.UNSET
    game: int | msgspec.UnsetType = msgspec.UNSET
    file: str | msgspec.UnsetType = msgspec.UNSET


class PlayedMatch(msgspec.Struct):
    """A finished match in a person's history: when, what, with whom, their seat, how
    it ended for them, the XP and chips they won or lost."""

    id: str
    finished: int
    variant: str
    names: list[str]
    seat: int
    outcome: str
    xp: int
    chips: int


class GameAnswer(msgspec.Struct):
    """A match and one of its hands step by step, as the replay page reads them."""

    game: GameSummary
    replay: HandReplay


class SeatHeld(msgspec.Struct):
    """Where a person sits now: the table, the seat, how the table stands."""

    id: str
    seat: int
    status: str
