"""Property tests over random games of every preset and random option combinations."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reference import card_points, legal_plays, trick_winner
from tute import (
    ALL_CARDS,
    Action,
    Card,
    Game,
    InvalidVariantError,
    Play,
    TuteError,
    Variant,
    make_variant,
)
from tute.core.actions import (
    FORTY,
    MANILLAS,
    NAME_TRUMPS,
    PASS,
    PLAYS,
    SWAP,
    TUTE,
    TWENTIES,
    Bid,
    DeclareTute,
    Manilla,
    SingForty,
    SingTwenty,
    Swap,
)
from tute.core.cards import deck
from tute.core.variants import PRESETS

PLAYABLE = ("parejas", "habanero", "individual", "tres", "corriente", "arrastre", "online",
            "guinote", "subastado", "cabrero")

RULE_OPTIONS: dict[str, list[Any]] = {
    "stock_obligations": ["none", "trump_on_trump", "full"],
    "must_undertrump": [True, False],
    "partner_exception": [True, False],
    "swap": ["none", "seven", "seven_and_two"],
    "swap_timing": ["own_lead", "after_won_trick", "anytime"],
    "swap_min_stock": [0, 1, 2, 5],
    "sing_who": ["winner", "winner_or_partner", "both_one_each"],
    "forty_first": ["strict", "if_held", "off"],
    "sing_while_stock_only": [True, False],
    "sing_use_or_lose": [True, False],
    "tute_set": ["kings_or_knights", "kings", "kings_and_knights", "off"],
    "tute_timing": ["after_won_trick", "anytime"],
    "tute_effect": ["win_hand", "win_match"],
    "no_tute_after_sing": [True, False],
    "last_trick_bonus": [0, 10, 25],
    "ranking": ["tute", "guinote"],
    "manilla": [None, 10, 30],
    "double_game_at": [None, 80, 101],
}
# how the cards are dealt; most combinations of these cannot be dealt
SHAPE_OPTIONS: dict[str, list[Any]] = {
    "deck": [40, 36],
    "hand_size": [4, 6, 8, 9, 10, 12],
    "deal_packet": [1, 2, 3, 4],
    "trump": ["dealer_last", "turn_up", "dead_turn_up"],
}


def _dealable_shapes(players: int) -> list[dict[str, Any]]:
    out = []
    for deck_size in (40, 36):
        for hand in range(1, deck_size // players + 1):
            for packet in (1, 2, 3, 4):
                for trump in SHAPE_OPTIONS["trump"]:
                    shape = {"deck": deck_size, "hand_size": hand, "deal_packet": packet,
                             "trump": trump}
                    try:
                        make_variant("parejas" if players == 4 else "tres" if players == 3
                                     else "habanero", {"players": players, **shape})
                    except InvalidVariantError:
                        continue
                    out.append(shape)
    return out


SHAPES = {n: _dealable_shapes(n) for n in (2, 3, 4)}


@st.composite
def option_sets(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    """Any options at all: many of these combinations must be refused."""
    preset = draw(st.sampled_from(PLAYABLE))
    options: dict[str, Any] = {"players": draw(st.sampled_from(PRESETS[preset].players))}
    table = {**RULE_OPTIONS, **SHAPE_OPTIONS}
    names = draw(st.lists(st.sampled_from(sorted(table)), max_size=8, unique=True))
    for name in names:
        options[name] = draw(st.sampled_from(table[name]))
    return preset, options


@st.composite
def variants(draw: st.DrawFn) -> Variant:
    """Valid variants: a preset, a dealable shape now and then, random rule options."""
    preset = draw(st.sampled_from(PLAYABLE))
    players = draw(st.sampled_from(PRESETS[preset].players))
    options: dict[str, Any] = {"players": players}
    contract = PRESETS[preset].settings(players).get("scoring") == "contract"
    if not contract and players in SHAPES and draw(st.booleans()):
        options.update(draw(st.sampled_from(SHAPES[players])))
    names = draw(st.lists(st.sampled_from(sorted(RULE_OPTIONS)), max_size=10, unique=True))
    for name in names:
        options[name] = draw(st.sampled_from(RULE_OPTIONS[name]))
    if contract:
        options.pop("sing_who", None)      # only the declarer sings in Subastado
        if draw(st.booleans()):
            options["min_bid"] = draw(st.sampled_from([60, 70, 100]))
            options["bid_step"] = draw(st.sampled_from([5, 10]))
    return make_variant(preset, options)


def _cards_in(obj: object, found: list[Card]) -> None:
    if isinstance(obj, Card):
        found.append(obj)
    elif isinstance(obj, Variant):
        return
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            _cards_in(getattr(obj, f.name), found)
    elif isinstance(obj, (tuple, list, frozenset, set)):
        for x in obj:
            _cards_in(x, found)
    elif isinstance(obj, dict):
        for x in obj.values():
            _cards_in(x, found)


class Shown:
    """Cards shown to everybody, worked out from the history (independently of views)."""

    def __init__(self, g: Game) -> None:
        self.cards: set[Card] = set()
        if g.variant.trump == "dealer_last" and g.turn_up is not None:
            self.cards.add(g.turn_up)

    def note(self, g: Game, seat: int, action: object, turn_up_before: Card | None,
             stock_before: int, live_before: bool) -> None:
        if isinstance(action, (SingTwenty, SingForty)):
            suit = g.trump if isinstance(action, SingForty) else action.suit
            assert suit is not None
            marriage_low = "S" if g.variant.ranking == "guinote" else "C"
            for c in ALL_CARDS:
                if c.suit == suit and c.rank.value in ("R", marriage_low):
                    self.cards.add(c)
        elif isinstance(action, Swap):
            assert turn_up_before is not None
            self.cards.add(turn_up_before)      # the swapper now holds it
            assert g.turn_up is not None
            self.cards.add(g.turn_up)           # the 7 / 2 now shows
        elif isinstance(action, DeclareTute):
            self.cards.update(g.hand(seat))
        elif isinstance(action, Manilla):
            for c in ALL_CARDS:
                if c.suit == action.suit and c.rank.value in ("A", "3"):
                    self.cards.add(c)
        if live_before and g.view(0).turn_up_in_stock is False and turn_up_before:
            self.cards.add(turn_up_before)      # taken by the last draw, face up


def _check_invariants(g: Game, played: set[Card], shown: Shown) -> None:
    loc = g.locations()
    everything: list[Card] = [c for cards in loc.values() for c in cards]
    assert len(everything) == len(set(everything)), "a card is in two places"
    assert set(everything) == set(deck(g.variant.deck)), "a card is lost or invented"
    for seat in range(g.players):
        view = g.view(seat)
        assert set(view.hand) == loc[f"hand{seat}"]
        assert view.hand_counts == tuple(len(loc[f"hand{s}"]) for s in range(g.players))
        found: list[Card] = []
        _cards_in(view, found)
        own = loc[f"hand{seat}"] | set(view.own_draws)
        for card in found:
            if card in own or card in played or card in shown.cards:
                continue
            if card == g.turn_up:          # the face-up turn-up (or the dead one)
                continue
            raise AssertionError(f"seat {seat}'s view shows hidden card {card}")
        for other, known in enumerate(view.known_cards):
            assert known <= loc[f"hand{other}"]


def _check_reference(g: Game, seat: int) -> None:
    """The engine's legal plays equal the naive reading of RULES.md §4."""
    v = g.variant
    if g.phase == "auction":
        return
    trick = list(g.trick)
    strict = g.phase == "strict" or v.stock_obligations == "full"
    partner_winning = False
    if trick and v.partnerships:
        seats = [s for s, _ in g.view(seat).trick]
        w = seats[trick_winner(trick, g.trump or trick[0].suit, v.ranking)]
        partner_winning = w % 2 == seat % 2
    assert g.trump is not None
    expected = legal_plays(g.hand(seat), trick, g.trump, strict=strict,
                           trump_on_trump=v.stock_obligations == "trump_on_trump",
                           must_undertrump=v.must_undertrump,
                           partner_winning=partner_winning,
                           partner_exception=v.partner_exception, ranking=v.ranking)
    actual = {a.card for a in g.legal_actions(seat) if isinstance(a, Play)}
    assert actual == expected, (g, seat, trick)


def play_out(g: Game, rng: random.Random, check: bool = True) -> list[tuple[int, Any]]:
    played: set[Card] = set()
    shown = Shown(g)
    actions: list[tuple[int, Any]] = []
    all_kinds: list[Action] = [*PLAYS, *TWENTIES, FORTY, SWAP, TUTE, *MANILLAS, PASS,
                               Bid(60), Bid(95), *NAME_TRUMPS]
    while not g.is_over:
        to_act = g.to_act
        assert to_act is not None
        if check:
            _check_reference(g, to_act)
            # a random action that is not legal is refused and changes nothing
            bad = rng.choice(all_kinds)
            seat = rng.randrange(g.players)
            if bad not in g.legal_actions(seat):
                before = (g.state_fields(), g.locations(), g.history)
                with pytest.raises(TuteError):
                    g.apply(seat, bad)
                assert (g.state_fields(), g.locations(), g.history) == before
        candidates = [s for s in g.seats_with_declarations() if rng.random() < 0.5]
        candidates.append(to_act)
        for seat in candidates:
            legal = g.legal_actions(seat)
            assert legal, "the seat to act always has something to do"
            action = rng.choice(legal)
            up, stock, live = g.turn_up, g.stock_left, g.view(0).turn_up_in_stock
            tricks_before = sum(g.tricks_won)
            g.apply(seat, action)
            actions.append((seat, action))
            if isinstance(action, Play):
                played.add(action.card)
            if check:
                shown.note(g, seat, action, up, stock, live)
                _check_invariants(g, played, shown)
                if sum(g.tricks_won) > tricks_before:
                    assert not g.trick
            if g.is_over:
                break
    return actions


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=variants(), seed=st.integers(0, 2**32), dealer=st.integers(0, 5),
       play_seed=st.integers(0, 2**32))
def test_random_games_keep_every_invariant(variant: Variant, seed: int, dealer: int,
                                           play_seed: int) -> None:
    dealer %= variant.players
    g = Game.new(variant, seed=seed, dealer=dealer)
    _check_invariants(g, set(), Shown(g))
    actions = play_out(g, random.Random(play_seed))
    result = g.result()
    assert result is not None
    if result.tute is None:
        dead = g.locations()["dead"]
        expected = 120 + variant.last_trick_bonus - sum(card_points(c, variant.ranking)
                                                        for c in dead)
        if result.void:
            expected = 0
        assert sum(result.card_points) == expected
        played_cards = variant.deck - len(dead)
        if not result.void:
            assert sum(result.tricks_won) == played_cards // variant.players_dealt
        assert result.totals == tuple(p + c for p, c in zip(result.card_points, result.cantes, strict=True))
        if variant.scoring == "highest":
            assert result.winner is not None
            assert result.totals[result.winner] == max(result.totals)
    # same seed + same actions -> the same game
    again = Game.new(variant, seed=seed, dealer=dealer)
    for seat, action in actions:
        again.apply(seat, action)
    assert again.result() == result
    assert again.locations() == g.locations()
    for seat in range(variant.players):
        assert again.view(seat) == g.view(seat)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=variants(), seed=st.integers(0, 2**32), play_seed=st.integers(0, 2**32))
def test_check_and_may_end_agree_with_apply(variant: Variant, seed: int, play_seed: int
                                            ) -> None:
    """``check`` refuses exactly what ``apply`` refuses, with the same error, changing
    nothing; ``may_end`` is False only for moves after which the hand goes on (the
    server tries on a copy only the moves that may end it)."""
    rng = random.Random(play_seed)
    g = Game.new(variant, seed=seed)
    every: list[Action] = [*PLAYS, *TWENTIES, FORTY, SWAP, TUTE, *MANILLAS, PASS,
                           Bid(60), Bid(95), *NAME_TRUMPS]
    while not g.is_over:
        for seat in range(g.players):
            for action in rng.sample(every, 6) + list(g.legal_actions(seat)):
                before = (g.state_fields(), g.locations(), g.history)
                tried = g.copy()
                try:
                    tried.apply(seat, action)
                except TuteError as refused:
                    with pytest.raises(type(refused)) as caught:
                        g.check(seat, action)
                    assert str(caught.value) == str(refused)
                else:
                    g.check(seat, action)
                    if not g.may_end(seat, action):
                        assert not tried.is_over, (seat, action)
                assert (g.state_fields(), g.locations(), g.history) == before
        to_act = g.to_act
        assert to_act is not None
        g.apply(to_act, rng.choice(g.legal_actions(to_act)))


@settings(max_examples=400, deadline=None)
@given(option_sets())
def test_option_combinations_play_or_are_refused(case: tuple[str, dict[str, Any]]) -> None:
    preset, options = case
    try:
        variant = make_variant(preset, options)
    except InvalidVariantError as e:
        assert str(e)
        return
    g = Game.new(variant, seed=1)
    play_out(g, random.Random(2), check=False)
    assert g.is_over


@pytest.mark.parametrize("text", [
    "parejas", "habanero", "individual", "individual(players=3)", "tres", "corriente",
    "arrastre", "online", "online(players=2)", "online(players=3)",
    "parejas(must_undertrump=true)", "parejas(partner_exception=true)",
    "tres(must_undertrump=true)", "habanero(stock_obligations=trump_on_trump)",
    "parejas(sing_who=both_one_each,sing_use_or_lose=true,forty_first=if_held)",
    "parejas(trump=turn_up,hand_size=8,swap=seven_and_two,swap_timing=anytime)",
    "habanero(tute_timing=anytime,tute_set=kings_and_knights,swap_min_stock=0)",
    "online(players=2,forty_first=off,sing_use_or_lose=false)",
    "guinote", "guinote(players=4)", "guinote(players=4,hand_size=4,deal_packet=2,manilla=10)",
    "subastado", "subastado(players=4,manilla=20)", "subastado(min_bid=100,bid_step=10)",
    "cabrero(players=3)", "cabrero", "cabrero(players=5)", "cabrero(players=6)",
    "parejas(double_game_at=80,manilla=10,sing_who=both_one_each)",
    "habanero(hand_size=4,ranking=guinote)",
])
def test_every_preset_plays_many_hands(text: str) -> None:
    rng = random.Random(text)
    v = Variant.parse(text)
    for i in range(40):
        g = Game.new(v, seed=i, dealer=i % v.players)
        play_out(g, rng, check=i < 20)
        r = g.result()
        assert r is not None
        if r.tute is None:
            dead = g.locations()["dead"]
            assert sum(r.card_points) == 130 - sum(card_points(c) for c in dead)
