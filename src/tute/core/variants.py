"""Variants are data: a frozen :class:`Variant` of named options and a registry of presets.

Option names and values are those of RULES.md §11; the presets are those of §9.  A variant
reads from and prints to text such as ``habanero(swap_timing=after_won_trick)``; the
canonical text names the preset and only the options that differ from its defaults.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from functools import lru_cache
from typing import Final

from tute.core.errors import InvalidVariantError

OptionValue = int | str | bool | None

# name -> allowed words (enumerations), or a type tag.
_WORDS: Final[dict[str, tuple[str, ...]]] = {
    "ranking": ("tute", "guinote"),
    "trump": ("dealer_last", "turn_up", "dead_turn_up", "declarer"),
    "stock_obligations": ("none", "trump_on_trump", "full"),
    "swap": ("none", "seven", "seven_and_two"),
    "swap_timing": ("own_lead", "after_won_trick", "anytime"),
    "sing_who": ("winner", "winner_or_partner", "both_one_each", "declarer"),
    "forty_first": ("strict", "if_held", "off"),
    "tute_set": ("kings_or_knights", "kings", "kings_and_knights", "off"),
    "tute_timing": ("after_won_trick", "anytime"),
    "tute_effect": ("win_hand", "win_match"),
    "scoring": ("highest", "contract", "cabrero"),
    "match": ("first_to", "series", "two_ahead", "cumulative", "elimination"),
}
_BOOLS: Final = frozenset(
    {"must_undertrump", "partner_exception", "sing_while_stock_only", "sing_use_or_lose",
     "no_tute_after_sing"}
)
# integer options and their smallest value
_INTS: Final[dict[str, int]] = {
    "players": 2, "deck": 36, "hand_size": 1, "deal_packet": 1, "swap_min_stock": 0,
    "last_trick_bonus": 0, "min_bid": 0, "bid_step": 1, "match_target": 1,
}
_OPTIONAL_INTS: Final[dict[str, int]] = {"double_game_at": 1, "manilla": 0}


@dataclass(frozen=True, slots=True)
class Variant:
    """A complete set of rules: a preset name and the value of every option."""

    preset: str
    players: int
    hand_size: int
    trump: str
    ranking: str = "tute"
    deck: int = 40
    deal_packet: int = 1
    stock_obligations: str = "none"
    must_undertrump: bool = False
    partner_exception: bool = False
    swap: str = "seven"
    swap_timing: str = "own_lead"
    swap_min_stock: int = 1
    sing_who: str = "winner"
    forty_first: str = "strict"
    sing_while_stock_only: bool = False
    sing_use_or_lose: bool = False
    tute_set: str = "kings_or_knights"
    tute_timing: str = "after_won_trick"
    tute_effect: str = "win_hand"
    no_tute_after_sing: bool = False
    last_trick_bonus: int = 10
    double_game_at: int | None = None
    manilla: int | None = None
    scoring: str = "highest"
    min_bid: int = 60
    bid_step: int = 5
    match: str = "first_to"
    match_target: int = 1

    # -- derived facts (code branches on these, never on the preset name) --------------
    @property
    def partnerships(self) -> bool:
        """Four players in two fixed pairs (seats 0+2 against 1+3)."""
        return self.players == 4 and self.scoring == "highest"

    @property
    def num_sides(self) -> int:
        return 2 if self.partnerships else self.players

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.partnerships else seat

    @property
    def dealer_sits_out(self) -> bool:
        """Cabrero with 5-6 players: the dealer deals to the others only."""
        return self.scoring == "cabrero" and self.players >= 5

    @property
    def players_dealt(self) -> int:
        return self.players - 1 if self.dealer_sits_out else self.players

    @property
    def stock_size(self) -> int:
        """Face-down stock cards after the deal (the turn-up not included)."""
        rest = self.deck - self.players_dealt * self.hand_size
        if self.trump in ("turn_up", "dead_turn_up"):
            return rest - 1
        return rest

    @property
    def has_stock(self) -> bool:
        return self.trump in ("turn_up", "dead_turn_up")

    # -- text ------------------------------------------------------------------------
    def options(self) -> dict[str, OptionValue]:
        """Every option by its RULES.md name (the preset excluded)."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "preset"}

    def changed_options(self) -> dict[str, OptionValue]:
        """The options that differ from the preset's defaults for this player count."""
        base = _base_variant(self.preset, self.players)
        out: dict[str, OptionValue] = {}
        if self.players != PRESETS[self.preset].default_players:
            out["players"] = self.players
        for name, value in self.options().items():
            if name != "players" and getattr(base, name) != value:
                out[name] = value
        return out

    def __str__(self) -> str:
        return _variant_text(self)

    @classmethod
    def parse(cls, text: str) -> Variant:
        return parse_variant(text)

    def with_options(self, **options: OptionValue) -> Variant:
        """A copy with some options changed, validated."""
        return make_variant(self.preset, {**self.changed_options(), **options})


def format_value(value: OptionValue) -> str:
    """An option's value as variant text writes it: ``none``, ``true``, ``60``..."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


# -- presets ---------------------------------------------------------------------------

@lru_cache(maxsize=512)
def _variant_text(v: Variant) -> str:
    """A variant's text, kept once made (a server writes it into every view it sends)."""
    changed = v.changed_options()
    if not changed:
        return v.preset
    inner = ",".join(f"{k}={format_value(x)}" for k, x in changed.items())
    return f"{v.preset}({inner})"


@dataclass(frozen=True, slots=True)
class Preset:
    name: str
    players: tuple[int, ...]
    default_players: int
    source: str
    settings: Callable[[int], dict[str, OptionValue]]


def _habanero(_: int) -> dict[str, OptionValue]:
    return {"hand_size": 8, "trump": "turn_up", "sing_while_stock_only": True,
            "forty_first": "if_held"}


def _parejas(_: int) -> dict[str, OptionValue]:
    return {"hand_size": 10, "trump": "dealer_last"}


def _tres(_: int) -> dict[str, OptionValue]:
    return {"deck": 36, "hand_size": 12, "trump": "dealer_last"}


def _individual(n: int) -> dict[str, OptionValue]:
    base: dict[str, OptionValue] = {"hand_size": 10, "stock_obligations": "full"}
    if n == 2:
        base["trump"] = "turn_up"
    else:
        base.update(trump="dead_turn_up", swap="none")
    return base


def _corriente(_: int) -> dict[str, OptionValue]:
    return {"hand_size": 6, "trump": "turn_up", "swap": "seven_and_two",
            "swap_timing": "after_won_trick", "sing_while_stock_only": True,
            "forty_first": "if_held"}


def _arrastre(n: int) -> dict[str, OptionValue]:
    return {**_habanero(n), "stock_obligations": "full"}


def _online(n: int) -> dict[str, OptionValue]:
    base = {2: _habanero, 3: _tres, 4: _parejas}[n](n)
    base.update(swap="seven_and_two", swap_timing="after_won_trick",
                sing_who="winner_or_partner", sing_use_or_lose=True,
                no_tute_after_sing=True, forty_first="strict")
    if n == 2:
        base["sing_while_stock_only"] = True
    return base


def _guinote(n: int) -> dict[str, OptionValue]:
    return {"ranking": "guinote", "hand_size": 6, "deal_packet": 3, "trump": "turn_up",
            "partner_exception": True, "swap_timing": "after_won_trick",
            "sing_who": "both_one_each", "tute_set": "off", "match": "cumulative",
            "match_target": 101}


def _subastado(n: int) -> dict[str, OptionValue]:
    return {"deck": 36 if n == 3 else 40, "hand_size": 12 if n == 3 else 10,
            "trump": "declarer", "sing_who": "declarer", "tute_set": "off",
            "scoring": "contract", "match": "cumulative", "match_target": 500}


def _cabrero(n: int) -> dict[str, OptionValue]:
    dealt = n - 1 if n >= 5 else n
    size = 36 if n == 3 else 40
    return {"deck": size, "hand_size": size // dealt, "trump": "dealer_last",
            "scoring": "cabrero", "match": "elimination", "match_target": 4}


PRESETS: Final[dict[str, Preset]] = {
    p.name: p
    for p in (
        Preset("parejas", (4,), 4, "seeds 000, 003", _parejas),
        Preset("habanero", (2,), 2, "seeds 002, 003", _habanero),
        Preset("individual", (2, 3), 2, "seed 000", _individual),
        Preset("tres", (3,), 3, "seed 001", _tres),
        Preset("corriente", (2,), 2, "seed 000", _corriente),
        Preset("arrastre", (2,), 2, "seed 004", _arrastre),
        Preset("online", (2, 3, 4), 4, "seed 001", _online),
        Preset("guinote", (2, 4), 2, "seed 004 + Guiñote rules", _guinote),
        Preset("subastado", (3, 4), 3, "seeds 000, 004", _subastado),
        Preset("cabrero", (3, 4, 5, 6), 4, "seed 004 + Cabrero rules", _cabrero),
    )
}

def preset_variant(name: str, players: int | None = None) -> Variant:
    """The preset's own variant (unvalidated defaults) for a player count."""
    preset = PRESETS.get(name)
    if preset is None:
        raise InvalidVariantError("unknown_preset", name=name, known=", ".join(PRESETS))
    n = preset.default_players if players is None else players
    if n not in preset.players:
        raise InvalidVariantError(
            "bad_players", preset=name, players=n,
            allowed=", ".join(str(p) for p in preset.players))
    settings = preset.settings(n)
    return Variant(preset=name, players=n, **settings)  # type: ignore[arg-type]


def _base_variant(name: str, players: int) -> Variant:
    """The preset's defaults for ``players``, also for a count the preset does not list
    (the last two players of a Cabrero elimination match: their hands' variant must
    print like any other)."""
    preset = PRESETS[name]
    if players in preset.players:
        return preset_variant(name, players)
    settings = preset.settings(preset.default_players)
    return Variant(preset=name, players=players, **settings)  # type: ignore[arg-type]


def option_choices(name: str) -> tuple[str, ...]:
    """The words option ``name`` takes (``true``/``false`` for a switch); ``()`` for a
    number (see :func:`option_minimum`)."""
    if name in _WORDS:
        return _WORDS[name]
    if name in _BOOLS:
        return ("true", "false")
    if name in _INTS or name in _OPTIONAL_INTS:
        return ()
    raise InvalidVariantError("unknown_option", option=name)


def option_minimum(name: str) -> int | None:
    """The smallest number a numeric option takes (``None`` for words and switches)."""
    return _INTS.get(name, _OPTIONAL_INTS.get(name))


def option_may_be_none(name: str) -> bool:
    """Whether a numeric option may be ``none`` (off)."""
    return name in _OPTIONAL_INTS


def coerce_option(name: str, value: object) -> OptionValue:
    """Check one option's value (from text or JSON) and return it typed."""
    if name in _WORDS:
        if isinstance(value, str) and value in _WORDS[name]:
            return value
        raise InvalidVariantError("bad_option_value", option=name, value=value,
                                  allowed=", ".join(_WORDS[name]))
    if name in _BOOLS:
        if isinstance(value, bool):
            return value
        if value in ("true", "false"):
            return value == "true"
        raise InvalidVariantError("bad_option_value", option=name, value=value,
                                  allowed="true, false")
    if name in _INTS or name in _OPTIONAL_INTS:
        lowest = _INTS.get(name, _OPTIONAL_INTS.get(name, 0))
        if name in _OPTIONAL_INTS and value in (None, "none"):
            return None
        number: int | None = None
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        elif isinstance(value, str) and re.fullmatch(r"-?\d{1,6}", value.strip()):
            number = int(value)
        if number is None or number < lowest:
            allowed = f"an integer from {lowest}"
            if name in _OPTIONAL_INTS:
                allowed += ", or none"
            raise InvalidVariantError("bad_option_value", option=name, value=value,
                                      allowed=allowed)
        return number
    raise InvalidVariantError("unknown_option", option=name)


def make_variant(preset: str, options: Mapping[str, object]) -> Variant:
    """A validated variant from a preset name and option overrides (RULES.md names)."""
    if not isinstance(preset, str):
        raise InvalidVariantError("unknown_preset", name=repr(preset), known=", ".join(PRESETS))
    typed = {str(k): coerce_option(str(k), v) for k, v in options.items()}
    players = typed.pop("players", None)
    if players is not None and not isinstance(players, int):
        raise InvalidVariantError("bad_option_value", option="players", value=players,
                                  allowed="an integer")
    variant = replace(preset_variant(preset, players), **typed)  # type: ignore[arg-type]
    validate(variant)
    return variant


_TEXT = re.compile(r"([a-z_]+)\s*(?:\((.*)\))?", re.S)   # on stripped text: linear
MAX_TEXT = 1000          # no variant text is longer; a longer one is refused unread


def parse_variant(text: str) -> Variant:
    """Read ``preset`` or ``preset(option=value,...)``."""
    if not isinstance(text, str):
        raise InvalidVariantError("bad_variant_text", text=repr(text))
    if len(text) > MAX_TEXT:
        raise InvalidVariantError("bad_variant_text", text=text[:40] + "...")
    m = _TEXT.fullmatch(text.strip())
    if not m:
        raise InvalidVariantError("bad_variant_text", text=text)
    name, inner = m.group(1), m.group(2)
    options: dict[str, object] = {}
    if inner is not None and inner.strip():
        for part in inner.split(","):
            key, eq, value = part.partition("=")
            key, value = key.strip(), value.strip()
            if not eq or not key or not value:
                raise InvalidVariantError("bad_variant_text", text=text)
            if key in options:
                raise InvalidVariantError("duplicate_option", option=key)
            options[key] = value
    return make_variant(name, options)


VariantLike = Variant | str


def as_variant(v: VariantLike) -> Variant:
    """A variant, or its text read (:func:`parse_variant`)."""
    if isinstance(v, Variant):
        return v
    if isinstance(v, str):
        return parse_variant(v)
    raise InvalidVariantError("bad_variant_text", text=repr(v))


def validate(v: Variant, *, any_player_count: bool = False) -> None:
    """Refuse option combinations that cannot be dealt or played (RULES.md §11).

    ``any_player_count`` admits player counts the preset does not list (the last two
    players of a Cabrero elimination match)."""
    preset = PRESETS[v.preset]
    if not any_player_count and v.players not in preset.players:
        raise InvalidVariantError("bad_players", preset=v.preset, players=v.players,
                                  allowed=", ".join(str(p) for p in preset.players))
    if v.deck not in (36, 40):
        raise InvalidVariantError("bad_option_value", option="deck", value=v.deck,
                                  allowed="40, 36")
    if v.hand_size % v.deal_packet:
        raise InvalidVariantError("packet_does_not_divide", packet=v.deal_packet,
                                  hand=v.hand_size)
    dealt = v.players_dealt * v.hand_size
    if dealt > v.deck:
        raise InvalidVariantError("too_many_cards", dealt=dealt, deck=v.deck)
    rest = v.deck - dealt
    if v.trump in ("dealer_last", "declarer") and rest:
        raise InvalidVariantError("not_all_dealt", trump=v.trump, rest=rest)
    if v.trump in ("turn_up", "dead_turn_up"):
        if rest < 1:
            raise InvalidVariantError("no_turn_up_card")
        drawn = rest if v.trump == "turn_up" else rest - 1
        if drawn % v.players_dealt:
            raise InvalidVariantError("stock_not_multiple", stock=drawn,
                                      players=v.players_dealt)
    if (v.trump == "declarer") != (v.scoring == "contract"):
        raise InvalidVariantError("declarer_needs_contract")
