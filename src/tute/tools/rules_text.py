"""The rules in force, in words: ``?`` at the terminal's prompt, the browser's help page."""

from __future__ import annotations

from tute.core.cards import Rank
from tute.core.tables import rank_order, rank_points
from tute.core.variants import Variant
from tute.i18n import render


def rules_summary(v: Variant, lang: str = "es", title: str | None = None) -> list[str]:
    """The rules of ``v`` as lines; the first names the game by ``title`` (the variant's
    text by default, what the terminal's player types)."""
    def t(key: str, **params: object) -> str:
        return render(key, params, lang)

    lines = [t("rules_variant", variant=title or str(v), players=v.players,
               sides=t("rules_pairs") if v.partnerships else t("rules_each"))]
    lines.append(t("rules_deal", cards=v.hand_size, deck=v.deck,
                   trump=t("rules_trump_" + v.trump)))
    if v.has_stock:
        lines.append(t("rules_stock_" + v.stock_obligations))
        lines.append(t("rules_strict"))
        if v.swap != "none" and v.trump == "turn_up":
            lines.append(t("rules_swap_" + v.swap) + " " + t("rules_swap_when_" + v.swap_timing))
    else:
        lines.append(t("rules_strict_always"))
    if v.must_undertrump:
        lines.append(t("rules_undertrump"))
    if v.partner_exception and v.partnerships:
        lines.append(t("rules_partner_exception"))
    who = v.sing_who if v.partnerships or v.sing_who == "declarer" else "winner"
    lines.append(t("rules_cantes_" + who))          # without partners: the winner sings
    lines.append(t("rules_forty_" + v.forty_first))
    if v.sing_while_stock_only and v.has_stock:
        lines.append(t("rules_sing_stock_only"))
    if v.sing_use_or_lose:
        lines.append(t("rules_use_or_lose"))
    if v.tute_set == "off":
        lines.append(t("rules_no_tute"))
    else:
        lines.append(t("rules_tute_" + v.tute_set) + " " + t("rules_tute_" + v.tute_effect))
        if v.tute_timing == "anytime":
            lines.append(t("rules_tute_anytime"))
        if v.no_tute_after_sing:
            lines.append(t("rules_no_tute_after_sing"))
    if v.manilla is not None:
        lines.append(t("rules_manilla", points=v.manilla))
    if v.scoring == "contract":
        lines.append(t("rules_contract", min=v.min_bid, step=v.bid_step))
    elif v.scoring == "cabrero":
        lines.append(t("rules_cabrero"))
    else:
        lines.append(t("rules_highest", bonus=v.last_trick_bonus, points=card_points(v)))
    if v.double_game_at is not None:
        lines.append(t("rules_double_game", points=v.double_game_at))
    lines.append(t("rules_match_" + v.match, target=v.match_target))
    return lines


def card_points(v: Variant) -> str:
    """The cards that count, the strongest first: ``A 11, 3 10, R 4, C 3, S 2`` (Tute),
    ``A 11, 3 10, R 4, S 3, C 2`` (Guiñote) -- from the core's one table of points."""
    ranks = [Rank(r) for r in rank_order(v.ranking)[::-1]]
    return ", ".join(f"{r.value} {rank_points(r, v.ranking)}" for r in ranks
                     if rank_points(r, v.ranking))
