"""Seed 004's discard signals: void in the suit led, a public master of a suit held
with more cards says "more of this suit", a card without points of a suit held without
ace or three says "weak here"; the partner reads them from the public history and
weighs deals by them; ``expert-signals`` plays whole hands."""

from __future__ import annotations

from helpers import deal, run
from tute.bots import Budget, make_bot
from tute.bots.signals import DISAGREE, agrees, read, signal
from tute.core.cards import Suit
from tute.core.driver import play_hand
from tute.core.game import Game
from tute.core.position import from_view

STRONG = "Ae 4e 5e 6e 2b 4b 5b 6b 7b Sb"      # the ace of espadas and more espadas
WEAK = "2e 4e 5e 6e 7e 2b 4b 5b 6b 7b"        # nothing of points anywhere


def _discard(hand: str) -> Game:
    g = deal("parejas", {0: "Sc", 1: hand, 3: "5o"}, turn_up="5o", dealer=3)
    run(g, "0:Sc")
    return g


def test_a_clear_winner_says_more_of_its_suit() -> None:
    g = _discard(STRONG)
    view = g.view(1)
    said = signal(view, view.legal)
    assert said is not None and str(said) == "Ae"
    run(g, "1:Ae")
    assert read(g.view(3)) == [(1, Suit.ESPADAS, True, 1)]
    assert read(g.view(0)) == []                        # not seat 0's partner


def test_a_low_card_says_weak_in_its_suit() -> None:
    g = _discard(WEAK)
    view = g.view(1)
    said = signal(view, view.legal)
    assert said is not None and str(said)[0] == "2"
    run(g, f"1:{said}")
    assert read(g.view(3)) == [(1, said.card.suit, False, 1)]


def test_no_signal_when_following_suit_or_leading() -> None:
    g = deal("parejas", {0: "Sc", 1: "Ac 2e", 3: "5o"}, turn_up="5o", dealer=3)
    assert signal(g.view(0), g.view(0).legal) is None       # leading
    run(g, "0:Sc")
    assert signal(g.view(1), g.view(1).legal) is None       # it holds copas


def test_a_deal_that_contradicts_the_signal_weighs_less() -> None:
    g = _discard(STRONG)
    run(g, "1:Ae")
    view = g.view(3)
    said = read(view)
    assert agrees(view, g, said) == 1.0                     # the true deal agrees
    hidden = [c for s in (0, 1, 2) for c in g.hand(s)]
    spades = [c for c in hidden if c.suit == Suit.ESPADAS]
    others = [c for c in hidden if c.suit != Suit.ESPADAS and c.suit != Suit.COPAS]
    counts = view.hand_counts
    one = others[:counts[1]]
    rest = [c for c in hidden if c not in one]
    hands = [rest[:counts[0]], one, rest[counts[0]:], list(g.hand(3))]
    assert len(hands[2]) == counts[2] and spades
    contrary = from_view(view, hands, [])
    assert agrees(view, contrary, said) == DISAGREE


def test_expert_signals_plays_whole_hands() -> None:
    g = Game.new("parejas", seed=4)
    play_hand(g, [make_bot("expert-signals", seed=s, budget=Budget(samples=6))
                  for s in range(4)])
    assert g.is_over
