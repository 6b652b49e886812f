"""tute: the rules of Spanish Tute in all its forms, as a library and a command.

The rules core (no I/O, no globals; randomness passed in):

- :mod:`tute.core.cards` -- :class:`Card`, :class:`Suit`, :class:`Rank`, :func:`parse_card`
- :mod:`tute.core.actions` -- action values and their canonical text
- :mod:`tute.core.variants` -- :class:`Variant`, the presets, variant text
- :mod:`tute.core.game` -- :class:`Game`: ``legal_actions(seat)``, ``apply(seat, action)``,
  ``view(seat)``, ``result()``
- :mod:`tute.core.match` -- :class:`Match`
- :mod:`tute.core.errors` -- the :class:`TuteError` family
"""

from tute.core.actions import (
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
from tute.core.cards import ALL_CARDS, Card, Rank, Suit, parse_card
from tute.core.errors import (
    IllegalActionError,
    InvalidDealError,
    InvalidNotationError,
    InvalidVariantError,
    OutOfTurnError,
    ScenarioError,
    TuteError,
    WrongPhaseError,
)
from tute.core.game import Game
from tute.core.match import Match, MatchScore
from tute.core.result import HandResult
from tute.core.variants import PRESETS, Variant, make_variant, parse_variant
from tute.core.views import CanteShown, PlayerView

__version__ = "0.1.0"

__all__ = [
    "ALL_CARDS", "PRESETS", "Action", "Bid", "CanteShown", "Card", "DeclareTute", "Game",
    "HandResult", "IllegalActionError", "InvalidDealError", "InvalidNotationError",
    "InvalidVariantError", "Manilla", "Match", "MatchScore", "NameTrump", "OutOfTurnError",
    "Pass", "Play", "PlayerView", "Rank", "ScenarioError", "SingForty", "SingTwenty",
    "Suit", "Swap", "TuteError", "Variant", "WrongPhaseError",
    "format_action", "make_variant", "parse_action", "parse_card", "parse_variant",
]
