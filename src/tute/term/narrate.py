"""Words for what happens at the table, shared by ``tute replay`` and ``tute play``."""

from __future__ import annotations

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
)
from tute.core.cards import Card
from tute.core.game import Game
from tute.core.result import HandResult
from tute.core.variants import Variant
from tute.i18n import MESSAGES
from tute.term.style import Style

YOU = {"es": "Tú", "pt": "Você", "it": "Tu", "en": "You"}   # the player's name in tute play


def reader_seat(names: tuple[str, ...]) -> int | None:
    """The seat named "Tú" (or "You", …) in a record of ``tute play``: its moves are told
    in the second person ("cambias", not "Tú cambia")."""
    return next((s for s, n in enumerate(names) if n in YOU.values()), None)


def said(style: Style, key: str, seat: int | None, you: int | None, **params: object
         ) -> str:
    """A message about ``seat``: in the second person when that seat is ``you`` (the
    catalogs keep those forms as ``KEY_you``: "cantas las cuarenta", not "Tú canta")."""
    if you is not None and seat == you and f"{key}_you" in MESSAGES:
        params.pop("who", None)
        return style.t(f"{key}_you", **params)
    return style.t(key, **params)


def said_of_side(style: Style, key: str, v: Variant, winner: int, you: int | None,
                 **params: object) -> str:
    """A message about a side: "ganas" when it is ``you`` alone, "ganáis" for your pair,
    "Ana + Lucía ganan" for another pair (the plural: ``KEY_pair``)."""
    if you is not None and you >= 0 and winner == v.side_of(you):
        form = f"{key}_us" if v.partnerships else f"{key}_you"
        if form in MESSAGES:
            return style.t(form, **params)
    if v.partnerships and f"{key}_pair" in MESSAGES:
        return style.t(f"{key}_pair", **params)
    return style.t(key, **params)


def describe(style: Style, g: Game, names: tuple[str, ...], seat: int, action: Action,
             turn_up_before: Card | None, you: int | None = None) -> str:
    """One action in words, said after it was applied to ``g`` (``you``: the seat that
    reads it, told in the second person)."""
    who = names[seat]

    def t(key: str, **params: object) -> str:
        return said(style, key, seat, you, **params)
    if isinstance(action, Play):
        return f"{who} {style.card(action.card)}"
    if isinstance(action, (SingTwenty, SingForty)):
        suit = g.trump if isinstance(action, SingForty) else action.suit
        shown = next(c for c in reversed(g.view(seat).cantes_shown) if c.suit == suit)
        if isinstance(action, SingForty):
            return t("term_sings_forty", who=who, cards=style.cards(shown.cards))
        return t("term_sings_twenty", who=who, suit=style.suit_name(suit),
                 cards=style.cards(shown.cards))
    if isinstance(action, Swap):
        took = style.card(turn_up_before) if turn_up_before else "-"
        gave = style.card(g.turn_up) if g.turn_up else "-"
        return t("term_swaps", who=who, took=took, gave=gave)
    if isinstance(action, DeclareTute):
        return t("term_tute", who=who)
    if isinstance(action, Bid):
        return t("term_bids", who=who, points=action.points)
    if isinstance(action, Pass):
        return t("term_passes", who=who)
    if isinstance(action, NameTrump):
        return t("term_names_trump", who=who, suit=style.suit_name(action.suit))
    if isinstance(action, Manilla):
        return t("term_manilla", who=who, suit=style.suit_name(action.suit))
    return f"{who} {action}"  # pragma: no cover


def side_names(v: Variant, names: tuple[str, ...]) -> list[str]:
    """A label per side: the pair's names in partnership games, else each name."""
    if v.partnerships:
        return [f"{names[s]} + {names[s + 2]}" for s in range(2)]
    return list(names)


def count_lines(style: Style, g: Game, names: tuple[str, ...], r: HandResult,
                you: int | None = None) -> list[str]:
    """The count at the end of a hand (``you``: the reader's seat in this hand)."""
    t = style.t
    sides = side_names(g.variant, names)
    if r.void:
        return [t("term_void")]
    lines = []
    for side, name in enumerate(sides):
        if g.variant.dealer_sits_out and side == g.dealer:
            continue
        last = t("term_last_trick") if r.last_trick == side and r.tute is None else ""
        lines.append(t("term_count_side", side=name, cards=r.card_points[side], last=last,
                       cantes=r.cantes[side], total=r.totals[side]))
    if r.tute is not None:
        lines.append(said_of_side(style, "term_tute_wins", g.variant, r.tute, you,
                                  side=sides[r.tute]))
    if r.contract is not None:
        c = r.contract
        key = "term_contract_made" if c.made else "term_contract_failed"
        lines.append(said(style, key, c.declarer, you, who=names[c.declarer], bid=c.bid))
    elif r.porotos is not None:
        losers = [names[s] for s, p in enumerate(r.porotos) if p]
        lines.append(t("term_porotos", who=", ".join(losers) if losers else "-"))
    elif r.winner is not None:
        lines.append(said_of_side(style, "term_hand_winner", g.variant, r.winner, you,
                                  side=sides[r.winner]) +
                     (" " + t("term_double") if r.games == 2 else ""))
    return lines


def trump_line(style: Style, g: Game) -> str:
    up = g.turn_up
    if g.trump is None:
        return style.t("term_no_trump_yet")
    card = style.card_name(up) if up is not None and g.variant.trump != "declarer" else "-"
    return style.t("term_trump", suit=style.suit_name(g.trump), card=card)

