"""Cabrero (RULES.md §9): porotos, capote, the dealer sitting out, elimination."""

from __future__ import annotations

import random

import pytest

from helpers import legal, random_play
from tute import Game, Match, parse_card, parse_variant
from tute.core.cards import deck
from tute.core.scoring import HandFigures, score_hand

CABRERO3 = parse_variant("cabrero(players=3)")
CABRERO4 = parse_variant("cabrero")


def figures(totals: tuple[int, ...], tricks: tuple[int, ...], *, sang: tuple[bool, ...] = (),
            winners: tuple[int, ...] = (), tute: int | None = None,
            playing: tuple[int, ...] = ()) -> HandFigures:
    n = len(totals)
    return HandFigures(points=totals, cantes=(0,) * n, tricks=tricks,
                       trick_winners=winners or (max(range(n), key=lambda s: tricks[s]),),
                       tute=tute, sang=sang or (False,) * n,
                       playing=playing or tuple(range(n)))


@pytest.mark.parametrize(("totals", "tricks", "losers"), [
    ((80, 31, 19), (6, 3, 3), {1}),              # the middle place
    ((60, 35, 35), (6, 3, 3), {1, 2}),           # 60/35/35: ranks 1, 2, 2
    ((55, 55, 20), (5, 5, 2), set()),            # 55/55/20: ranks 1, 1, 3: nobody at 2
    ((55, 55, 20), (6, 6, 0), {2}),              # ... but no trick is a poroto
    ((68, 29, 33, 0), (5, 2, 3, 0), {1, 2, 3}),  # n even: ranks 2 and 3, and no trick
    ((40, 40, 30, 20), (3, 3, 2, 2), {2}),       # 1, 1, 3, 4: rank 3 only
])
def test_porotos_to_the_middle_and_to_no_trick(totals: tuple[int, ...],
                                                tricks: tuple[int, ...],
                                                losers: set[int]) -> None:
    v = CABRERO3 if len(totals) == 3 else CABRERO4
    r = score_hand(v, figures(totals, tricks))
    assert r.porotos is not None
    assert {s for s, p in enumerate(r.porotos) if p} == losers
    assert set(r.winners) == set(range(len(totals))) - losers
    assert r.winner is None


def test_capote_makes_all_others_lose_unless_he_sang() -> None:
    r = score_hand(CABRERO3, figures((130, 0, 0), (12, 0, 0)))
    assert r.porotos == (0, 1, 1) and r.capote == 0
    r = score_hand(CABRERO3, figures((150, 0, 0), (12, 0, 0), sang=(True, False, False)))
    assert r.porotos == (1, 0, 0) and r.winners == (1, 2)


def test_two_players_left_lower_total_loses_ties_by_last_trick() -> None:
    two = parse_variant("cabrero(players=3)")
    r = score_hand(two, figures((70, 60, 0), (10, 9, 0), playing=(0, 1)))
    assert r.porotos is not None and r.porotos[1] == 1 and r.porotos[0] == 0
    r = score_hand(two, figures((65, 65, 0), (10, 9, 0), winners=(0, 1), playing=(0, 1)))
    assert r.porotos is not None and r.porotos[0] == 1 and r.porotos[1] == 0


def test_tute_gives_every_other_player_a_poroto() -> None:
    r = score_hand(CABRERO4, figures((0, 0, 0, 0), (1, 0, 0, 0), tute=2))
    assert r.porotos == (1, 1, 0, 1) and r.tute == 2


def test_five_players_the_dealer_sits_out() -> None:
    v = parse_variant("cabrero(players=5)")
    cards = [c.code for c in deck(40)]
    g = Game.from_deck(v, cards, dealer=2)
    assert g.hand(2) == ()
    assert [len(g.hand(s)) for s in range(5)] == [10, 10, 0, 10, 10]
    assert set(c.code for c in g.hand(3)) == set(cards[0::4])       # next(dealer) first
    assert parse_card(cards[-1]) in g.hand(1)                       # last card: prev(dealer)
    assert g.trump is parse_card(cards[-1]).suit
    assert g.to_act == 3 and g.view(0).sitting_out == 2
    rng = random.Random(1)
    seats = []
    while not g.is_over:
        seat = g.to_act
        assert seat is not None and seat != 2
        assert legal(g, 2) == set()
        seats.append(seat)
        g.apply(seat, rng.choice(g.legal_actions(seat)))
    r = g.result()
    assert r is not None and r.porotos is not None
    assert r.porotos[2] == 0 and 2 in r.winners
    assert r.tricks_won[2] == 0 and sum(r.tricks_won) == 10


def test_hands_with_a_sitting_out_dealer_from_explicit_hands() -> None:
    v = parse_variant("cabrero(players=6)")
    cards = [c.code for c in deck(40)]
    hands = [cards[i * 8:(i + 1) * 8] for i in range(5)]
    hands.insert(0, [])                                   # dealer 0 sits out
    g = Game.from_hands(v, hands, hands[5][-1], [], dealer=0)
    assert g.to_act == 1
    with pytest.raises(ValueError):
        Game.from_hands(v, [cards[:8], *hands[1:]], hands[5][-1], [], dealer=0)


def test_elimination_match_until_one_player_is_left() -> None:
    for seed in range(6):
        m = Match("cabrero(players=4)", seed=seed)
        rng = random.Random(seed)
        hands = 0
        while not m.is_over:
            g = m.game
            assert g.players == len(m.score().players_in)
            random_play(g, rng)
            m.next_hand()
            hands += 1
            assert hands < 200
        s = m.score()
        assert s.winner is not None and s.players_in == (s.winner,)
        assert all(p >= 4 for seat, p in enumerate(s.porotos) if seat != s.winner)
        assert s.porotos[s.winner] < 4
