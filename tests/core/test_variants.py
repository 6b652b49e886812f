"""RULES.md §9 (presets) and §11 (options, defaults, refused combinations)."""

from __future__ import annotations

from typing import Any

import pytest

from tute import (
    PRESETS,
    InvalidVariantError,
    Variant,
    make_variant,
    parse_variant,
)
from tute.core.variants import preset_variant


def test_option_defaults_of_rules_11() -> None:
    v = parse_variant("parejas")
    assert (v.ranking, v.deck, v.deal_packet, v.stock_obligations) == ("tute", 40, 1, "none")
    assert (v.must_undertrump, v.partner_exception) == (False, False)
    assert (v.swap, v.swap_timing, v.swap_min_stock) == ("seven", "own_lead", 1)
    assert (v.sing_who, v.forty_first) == ("winner", "strict")
    assert (v.sing_while_stock_only, v.sing_use_or_lose) == (False, False)
    assert (v.tute_set, v.tute_timing, v.tute_effect) == (
        "kings_or_knights", "after_won_trick", "win_hand")
    assert (v.no_tute_after_sing, v.last_trick_bonus, v.double_game_at, v.manilla) == (
        False, 10, None, None)
    assert (v.scoring, v.min_bid, v.bid_step, v.match, v.match_target) == (
        "highest", 60, 5, "first_to", 1)


def test_default_players_per_preset() -> None:
    expected = {"parejas": 4, "habanero": 2, "individual": 2, "tres": 3, "corriente": 2,
                "arrastre": 2, "online": 4, "guinote": 2, "subastado": 3, "cabrero": 4}
    assert {name: p.default_players for name, p in PRESETS.items()} == expected


@pytest.mark.parametrize(("text", "settings"), [
    ("parejas", {"players": 4, "hand_size": 10, "trump": "dealer_last"}),
    ("habanero", {"players": 2, "hand_size": 8, "trump": "turn_up",
                  "sing_while_stock_only": True, "forty_first": "if_held"}),
    ("individual", {"hand_size": 10, "stock_obligations": "full", "trump": "turn_up"}),
    ("individual(players=3)", {"hand_size": 10, "stock_obligations": "full",
                               "trump": "dead_turn_up", "swap": "none"}),
    ("tres", {"deck": 36, "hand_size": 12, "trump": "dealer_last"}),
    ("corriente", {"hand_size": 6, "trump": "turn_up", "swap": "seven_and_two",
                   "swap_timing": "after_won_trick", "sing_while_stock_only": True,
                   "forty_first": "if_held"}),
    ("arrastre", {"hand_size": 8, "trump": "turn_up", "sing_while_stock_only": True,
                  "forty_first": "if_held", "stock_obligations": "full"}),
    ("online(players=2)", {"hand_size": 8, "trump": "turn_up", "swap": "seven_and_two",
                           "swap_timing": "after_won_trick", "sing_who": "winner_or_partner",
                           "sing_use_or_lose": True, "no_tute_after_sing": True,
                           "forty_first": "strict", "sing_while_stock_only": True}),
    ("online(players=3)", {"deck": 36, "hand_size": 12, "trump": "dealer_last",
                           "sing_who": "winner_or_partner", "sing_use_or_lose": True,
                           "sing_while_stock_only": False}),
    ("online", {"hand_size": 10, "trump": "dealer_last", "swap": "seven_and_two",
                "no_tute_after_sing": True, "stock_obligations": "none"}),
])
def test_presets_of_rules_9(text: str, settings: dict[str, Any]) -> None:
    v = parse_variant(text)
    for name, value in settings.items():
        assert getattr(v, name) == value, name


def test_stock_sizes() -> None:
    assert parse_variant("habanero").stock_size == 23
    assert parse_variant("corriente").stock_size == 27
    assert parse_variant("individual(players=3)").stock_size == 9
    assert parse_variant("parejas").stock_size == 0


@pytest.mark.parametrize(("text", "canonical"), [
    ("habanero", "habanero"),
    ("habanero(swap_timing=after_won_trick,swap=seven_and_two)",
     "habanero(swap=seven_and_two,swap_timing=after_won_trick)"),
    ("online(players=2)", "online(players=2)"),
    ("online(players=4)", "online"),
    ("habanero(hand_size=8)", "habanero"),
    (" parejas ( must_undertrump = true ) ", "parejas(must_undertrump=true)"),
    ("parejas()", "parejas"),
    ("habanero(last_trick_bonus=0,forty_first=off)", "habanero(forty_first=off,last_trick_bonus=0)"),
])
def test_variant_text_is_canonical(text: str, canonical: str) -> None:
    v = parse_variant(text)
    assert str(v) == canonical
    assert parse_variant(str(v)) == v


def test_json_values_as_in_scenarios() -> None:
    v = make_variant("online", {"players": 2, "stock_obligations": "trump_on_trump",
                                "must_undertrump": True, "swap_min_stock": 2})
    assert v.must_undertrump is True and v.swap_min_stock == 2
    assert str(v) == "online(players=2,stock_obligations=trump_on_trump,must_undertrump=true,swap_min_stock=2)"


@pytest.mark.parametrize(("preset", "options", "key"), [
    ("nope", {}, "unknown_preset"),
    ("parejas", {"players": 3}, "bad_players"),
    ("habanero", {"players": 4}, "bad_players"),
    ("parejas", {"colour": "red"}, "unknown_option"),
    ("parejas", {"must_undertrump": "yes"}, "bad_option_value"),
    ("parejas", {"must_undertrump": 1}, "bad_option_value"),
    ("parejas", {"swap": "eight"}, "bad_option_value"),
    ("parejas", {"deck": 32}, "bad_option_value"),
    ("parejas", {"hand_size": 0}, "bad_option_value"),
    ("parejas", {"hand_size": True}, "bad_option_value"),
    ("parejas", {"last_trick_bonus": -5}, "bad_option_value"),
    # RULES.md §11: combinations that cannot be dealt or played
    ("habanero", {"hand_size": 20}, "no_turn_up_card"),
    ("parejas", {"trump": "turn_up"}, "no_turn_up_card"),
    ("habanero", {"trump": "dealer_last"}, "not_all_dealt"),
    ("parejas", {"deal_packet": 3}, "packet_does_not_divide"),
    ("individual", {"players": 3, "hand_size": 9, "trump": "turn_up"}, "stock_not_multiple"),
    ("parejas", {"trump": "dead_turn_up", "hand_size": 8}, "stock_not_multiple"),
    ("individual", {"players": 3, "trump": "turn_up"}, "stock_not_multiple"),
    ("parejas", {"hand_size": 11}, "too_many_cards"),
    ("tres", {"deck": 40}, "not_all_dealt"),
])
def test_refused_options_and_combinations(preset: str, options: dict[str, Any],
                                          key: str) -> None:
    with pytest.raises(InvalidVariantError) as e:
        make_variant(preset, options)
    assert e.value.key == key
    assert str(e.value)


@pytest.mark.parametrize(("text", "settings"), [
    ("guinote", {"players": 2, "ranking": "guinote", "hand_size": 6, "deal_packet": 3,
                 "trump": "turn_up", "partner_exception": True,
                 "swap_timing": "after_won_trick", "sing_who": "both_one_each",
                 "tute_set": "off", "match": "cumulative", "match_target": 101}),
    ("guinote(players=4)", {"hand_size": 6, "partnerships": True}),
    ("subastado", {"players": 3, "deck": 36, "hand_size": 12, "trump": "declarer",
                   "sing_who": "declarer", "tute_set": "off", "scoring": "contract",
                   "match": "cumulative", "match_target": 500, "partnerships": False}),
    ("subastado(players=4)", {"deck": 40, "hand_size": 10, "partnerships": False}),
    ("cabrero", {"players": 4, "deck": 40, "hand_size": 10, "trump": "dealer_last",
                 "scoring": "cabrero", "match": "elimination", "match_target": 4,
                 "partnerships": False, "dealer_sits_out": False}),
    ("cabrero(players=3)", {"deck": 36, "hand_size": 12}),
    ("cabrero(players=5)", {"deck": 40, "hand_size": 10, "dealer_sits_out": True}),
    ("cabrero(players=6)", {"deck": 40, "hand_size": 8, "dealer_sits_out": True}),
])
def test_presets_of_the_other_variants(text: str, settings: dict[str, Any]) -> None:
    v = parse_variant(text)
    for name, value in settings.items():
        assert getattr(v, name) == value, name


@pytest.mark.parametrize(("preset", "options"), [
    ("parejas", {"ranking": "guinote"}), ("parejas", {"manilla": 20}),
    ("parejas", {"double_game_at": 101}), ("parejas", {"match": "series"}),
    ("subastado", {"min_bid": 70, "bid_step": 10}), ("habanero", {"hand_size": 4}),
])
def test_every_option_of_rules_11_is_accepted(preset: str, options: dict[str, Any]) -> None:
    v = make_variant(preset, options)
    for name, value in options.items():
        assert getattr(v, name) == value


def test_declarer_trump_goes_with_contract_scoring() -> None:
    with pytest.raises(InvalidVariantError) as e:
        make_variant("parejas", {"trump": "declarer"})
    assert e.value.key in ("declarer_needs_contract", "unsupported_option")
    with pytest.raises(InvalidVariantError):
        make_variant("parejas", {"scoring": "contract"})


@pytest.mark.parametrize("text", ["", "(", "parejas(", "parejas(x)", "parejas(a=1,a=2)",
                                  "Parejas", "parejas(swap=)", "1parejas"])
def test_unreadable_variant_text(text: str) -> None:
    with pytest.raises(InvalidVariantError):
        parse_variant(text)


def test_preset_variant_and_with_options() -> None:
    v = preset_variant("habanero")
    assert isinstance(v, Variant)
    w = v.with_options(swap="none")
    assert w.swap == "none" and v.swap == "seven"
    assert str(w) == "habanero(swap=none)"
    assert parse_variant("parejas").partnerships
    assert not parse_variant("tres").partnerships
    assert parse_variant("parejas").num_sides == 2
    assert parse_variant("individual(players=3)").num_sides == 3


def test_variant_texts_are_read_in_linear_time() -> None:
    import time

    from tute.core.errors import InvalidVariantError
    from tute.core.variants import parse_variant

    assert str(parse_variant("  habanero ( match_target = 2 )  ")) == "habanero(match_target=2)"
    for text in ("habanero" + " " * 900 + "x", " " * 900, "habanero(" + " " * 900,
                 "x" * 5000, "habanero(" + "a=b," * 2000 + ")"):
        began = time.perf_counter()
        with pytest.raises(InvalidVariantError):
            parse_variant(text)
        assert time.perf_counter() - began < 0.05, text[:20]
