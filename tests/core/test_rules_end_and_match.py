"""RULES.md §7 (end of a hand, ties, tute) and §8 (a match)."""

from __future__ import annotations

import random

import pytest

from helpers import deal, random_play, run
from tute import Game, Match, WrongPhaseError


def _random_hand(text: str, seed: int) -> Game:
    g = Game.new(text, seed=seed)
    rng = random.Random(seed)
    while not g.is_over:
        seat = g.to_act
        assert seat is not None
        g.apply(seat, rng.choice([a for a in g.legal_actions(seat) if str(a) != "tute"]))
    return g


def test_highest_total_wins_and_totals_add_up() -> None:
    for seed in range(30):
        g = _random_hand("parejas", seed)
        r = g.result()
        assert r is not None
        assert sum(r.card_points) == 130
        assert r.totals == tuple(p + c for p, c in zip(r.card_points, r.cantes, strict=True))
        if r.totals[0] != r.totals[1]:
            assert r.winner == (0 if r.totals[0] > r.totals[1] else 1)
        last_winner = g.view(0).last_trick
        assert last_winner


def test_three_player_tie_for_first_goes_to_the_most_recent_trick() -> None:
    found = 0
    for seed in range(3000):
        g = _random_hand("tres", seed)
        r = g.result()
        assert r is not None
        best = max(r.totals)
        tied = [s for s in range(3) if r.totals[s] == best]
        if len(tied) < 2:
            continue
        found += 1
        winners = g.trick_winner_seats
        expected = next(w for w in reversed(winners) if w in tied)
        assert r.winner == expected
        if found >= 3:
            break
    assert found, "no tie for first found to check"


def test_last_trick_bonus_option() -> None:
    r = _random_hand("parejas(last_trick_bonus=0)", 3).result()
    assert r is not None and sum(r.card_points) == 120
    r = _random_hand("parejas(last_trick_bonus=25)", 3).result()
    assert r is not None and sum(r.card_points) == 145


def test_tute_hand_counts_no_card_points() -> None:
    g = deal("habanero", {0: "Ao Ro Rc Re Rb", 1: "4o"}, turn_up="Ab", stock="7e", dealer=1)
    run(g, "0:Ao 1:4o 0:tute")
    r = g.result()
    assert r is not None
    assert r.card_points == (0, 0) and r.tute == 0 and r.winner == 0 and r.games == 1


def test_match_first_to_with_the_deal_rotating() -> None:
    m = Match("habanero(match_target=3)", seed=5)
    dealers = []
    rng = random.Random(5)
    while not m.is_over:
        g = m.game
        dealers.append(g.dealer)
        with pytest.raises(WrongPhaseError):
            m.next_hand()
        while not g.is_over:
            seat = g.to_act
            assert seat is not None
            g.apply(seat, rng.choice(g.legal_actions(seat)))
        m.next_hand()
    score = m.score()
    assert max(score.hands_won) == 3 and score.winner == score.hands_won.index(3)
    assert len(score.results) == sum(score.hands_won)
    assert dealers == [i % 2 for i in range(len(dealers))]
    with pytest.raises(WrongPhaseError):
        m.next_hand()


def test_match_replays_from_its_seed() -> None:
    a, b = Match("parejas", seed=8), Match("parejas", seed=8)
    assert a.game.locations() == b.game.locations()
    assert Match("parejas", seed=9).game.locations() != a.game.locations()


def test_a_match_copy_is_independent_and_plays_the_same() -> None:
    import random

    from tute.core.match import Match

    m = Match("habanero(match_target=2)", seed=5)
    rng = random.Random(3)
    twin: Match | None = None
    while not m.is_over:
        random_play(m.game, rng)
        if twin is None:
            twin = m.copy()
            before = m.score()
            twin.next_hand()                       # the copy moves on...
            assert m.score() == before and m.game.is_over   # ...the original does not
            again = m.copy()
            again.next_hand()
            assert [str(c) for c in again.game.hand(0)] == [str(c) for c in twin.game.hand(0)]
        m.next_hand()


def test_a_match_annulled_by_agreement_ends_for_nobody() -> None:
    """Seed 001's "anular partida": the match ends where it is, without a winner; no
    hand is scored or dealt after it, and it cannot be annulled twice."""
    m = Match("habanero(match_target=3)", seed=7)
    g = m.game
    seat = g.to_act
    assert seat is not None
    g.apply(seat, g.legal_actions(seat)[0])
    m.annul()
    assert m.is_over and m.annulled and m.winner is None
    assert m.score().winner is None and m.score().results == ()
    with pytest.raises(WrongPhaseError):
        m.annul()
    with pytest.raises(WrongPhaseError):
        m.deal_next()
    copy = m.copy()
    assert copy.annulled and copy.is_over
