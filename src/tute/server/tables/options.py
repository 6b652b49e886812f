"""A table's options: the game, the robots, the clock and seed 001's table options.

One home for them: :class:`Fields` declares each option once; the table's value
(:class:`Options`, its variant parsed) and the event that stores it
(:class:`~tute.server.tables.events.OptionsSet`, its variant as text) are both those
fields, so one is made from the other by name (:func:`of_event`, :func:`as_fields`).
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

import msgspec

from tute.core.variants import Variant, parse_variant

V = TypeVar("V")


class Fields(msgspec.Struct, Generic[V], frozen=True):
    """Every option of a table, its variant a ``V`` (parsed, or its text when stored)."""

    variant: V
    robot_level: str
    move_seconds: float
    competitive: bool = False        # for XP and chips (seed 001); else practice
    bet: int = 0                     # chips each person puts in the pot of a match
    spectators: bool = True          # "Permitir público": anyone may watch
    chat_in_hand: bool = True        # the players may chat while a hand is played
    private: bool = False            # "Mesa privada": the invited and the host's friends
    series: str | None = None        # a duplicate series' deal (site.series), and which
    series_deal: int = 0
    tourney: str | None = None       # a tournament's board (site.tourneys): which
    tourney_round: int = 0
    tourney_board: int = 0
    bots: str = "no"                 # bot accounts may sit: no | yes | only (site.bots)


class Options(Fields[Variant], frozen=True):
    """A table's options, its variant parsed."""


def _rest(fields: Fields[Any]) -> dict[str, Any]:
    return {name: getattr(fields, name) for name in fields.__struct_fields__
            if name != "variant"}


def of_event(stored: Fields[str]) -> Options:
    """The options a stored options event says."""
    return Options(parse_variant(stored.variant), **_rest(stored))


def as_fields(options: Options) -> dict[str, Any]:
    """The options by name, the variant as its text (an options event's fields)."""
    return {"variant": str(options.variant), **_rest(options)}
