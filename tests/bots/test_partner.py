"""A partner people like: the search bots never take their partner's sure trick without
a reason (hand-built positions), and do where winning it themselves lets them sing."""

from __future__ import annotations

from helpers import deal, run
from tute.bots import make_bot
from tute.bots.partner import humane, partner_sure
from tute.core.actions import Play

FREE = "parejas(partner_exception=true)"      # a partner's trick: any card may go on it


def test_the_last_to_play_does_not_trump_the_partners_trick() -> None:
    g = deal(FREE, {0: "4o", 1: "Ao", 2: "5o", 3: "2b 4b 7b 2c 4c 5c 6c 2e 4e 5e"},
             turn_up="7b", dealer=3)
    run(g, "0:4o 1:Ao 2:5o")
    view = g.view(3)
    legal = [a for a in view.legal if isinstance(a, Play)]
    assert any(a.card.suit.value == "b" for a in legal)        # trumping is allowed
    assert partner_sure(view)
    kept = humane(view, legal)
    assert kept and all(a.card.suit.value != "b" for a in kept if isinstance(a, Play))
    for level in ("pimc", "expert"):
        chosen = make_bot(level, seed=3).choose(view)
        assert isinstance(chosen, Play) and chosen.card.suit.value != "b", (level, chosen)


def test_a_partners_master_trump_is_sure_before_the_last_to_play() -> None:
    g = deal(FREE, {0: "3b", 1: "4b", 2: "Ab 2b 2c 4c 5c 6c 2e 4e 5e 6e", 3: "7b"},
             turn_up="7b", dealer=3)
    run(g, "0:3b 1:4b")
    view = g.view(2)
    assert partner_sure(view)               # the as is in the seat's own hand: 3b wins
    legal = [a for a in view.legal if isinstance(a, Play)]
    assert "Ab" in {str(a) for a in legal}
    assert "Ab" not in {str(a) for a in humane(view, legal)}


def test_an_opponents_trick_or_an_unsure_one_is_played_for() -> None:
    g = deal(FREE, {0: "Ao", 1: "4o", 2: "5o", 3: "2b 4b 7b 2c 4c 5c 6c 2e 4e 5e"},
             turn_up="7b", dealer=3)
    run(g, "0:Ao 1:4o 2:5o")                 # the opponent's as: trump it if it pays
    view = g.view(3)
    legal = [a for a in view.legal if isinstance(a, Play)]
    assert not partner_sure(view) and humane(view, legal) == legal
    g = deal(FREE, {0: "3o", 1: "2o", 2: "Ao 2b 2c 4c 5c 6c 2e 4e 5e 6e", 3: "7b"},
             turn_up="7b", dealer=3)
    run(g, "0:3o 1:2o")                      # seat 3 may still trump the partner's 3
    view = g.view(2)
    legal = [a for a in view.legal if isinstance(a, Play)]
    assert "Ao" in {str(a) for a in legal}
    assert not partner_sure(view) and humane(view, legal) == legal


def test_winning_it_oneself_to_sing_is_a_reason() -> None:
    g = deal(FREE, {0: "4o", 1: "Ao", 2: "5o", 3: "Rb Cb 7b 2c 4c 5c 6c 2e 4e 5e"},
             turn_up="7b", dealer=3)
    run(g, "0:4o 1:Ao 2:5o")
    view = g.view(3)
    legal = [a for a in view.legal if isinstance(a, Play)]
    assert partner_sure(view) and humane(view, legal) == legal   # the forty is a reason
