"""tute: the rules of Spanish Tute in all its forms, as a library and a command.

The rules core (no I/O, no globals; randomness passed in):

- :mod:`tute.cards` -- :class:`Card`, :class:`Suit`, :class:`Rank`, :func:`parse_card`
- :mod:`tute.actions` -- action values and their canonical text
- :mod:`tute.variants` -- :class:`Variant`, the presets, variant text
- :mod:`tute.game` -- :class:`Game`: ``legal_actions(seat)``, ``apply(seat, action)``,
  ``view(seat)``, ``result()``
- :mod:`tute.match` -- :class:`Match`
- :mod:`tute.errors` -- the :class:`TuteError` family
"""

from tute.actions import (
    Action,
    Bid,
    DeclareTute,
    Manilla,
    NameTrump,
    Pass,
    Play,
    SingForty,
    SingTwenty,
    Swap,
    format_action,
    parse_action,
)
from tute.cards import ALL_CARDS, Card, Rank, Suit, parse_card
from tute.errors import (
    IllegalActionError,
    InvalidDealError,
    InvalidNotationError,
    InvalidVariantError,
    OutOfTurnError,
    ScenarioError,
    TuteError,
    WrongPhaseError,
)
from tute.game import Game
from tute.match import Match, MatchScore
from tute.result import HandResult
from tute.variants import PRESETS, Variant, make_variant, parse_variant
from tute.view import CanteShown, PlayerView

__version__ = "0.1.0"

__all__ = [
    "ALL_CARDS", "PRESETS", "Action", "Bid", "CanteShown", "Card", "DeclareTute", "Game",
    "HandResult", "IllegalActionError", "InvalidDealError", "InvalidNotationError",
    "InvalidVariantError", "Manilla", "Match", "MatchScore", "NameTrump", "OutOfTurnError",
    "Pass", "Play", "PlayerView", "Rank", "ScenarioError", "SingForty", "SingTwenty",
    "Suit", "Swap", "TuteError", "Variant", "WrongPhaseError",
    "format_action", "make_variant", "parse_action", "parse_card", "parse_variant",
]
