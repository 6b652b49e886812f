"""The typed errors of tute: every refusal is a :class:`TuteError` (a ``ValueError``).

An error carries a message key and its parameters, so that a client can show it in the
player's language (:meth:`TuteError.localized`); ``str(error)`` is the English text.
Only :mod:`tute.i18n` (a leaf: it imports nothing of tute) renders them.
"""

from __future__ import annotations

from tute.i18n import render


class TuteError(ValueError):
    """Base of every error tute raises on bad input.  The state is left unchanged."""

    def __init__(self, key: str, **params: object) -> None:
        self.key = key
        self.params: dict[str, object] = dict(params)
        super().__init__(self.localized("en"))

    def localized(self, lang: str = "es") -> str:
        """The message in ``lang`` (es, pt, it, en); English where a text is missing."""
        return render(self.key, self.params, lang)


class InvalidNotationError(TuteError):
    """A card code, action text or other notation that cannot be read."""


class InvalidVariantError(TuteError):
    """An unknown preset or option, a bad value, or options that cannot be played."""


class InvalidDealError(TuteError):
    """Explicit hands, deck, turn-up or stock that do not fit the variant."""


class IllegalActionError(TuteError):
    """An action the rules forbid now; the message names the rule."""


class OutOfTurnError(IllegalActionError):
    """An action by a seat that may not act now."""


class WrongPhaseError(IllegalActionError):
    """An action of another phase (a bid while playing, a card after the hand)."""


class ScenarioError(TuteError):
    """A conformance scenario file that is malformed."""
