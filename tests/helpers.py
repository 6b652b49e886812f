"""Small helpers to set up positions in unit tests."""

from __future__ import annotations

import random
from collections.abc import Sequence

from tute import Game, Variant, parse_action, parse_card
from tute.core.cards import deck


def deal(variant: str | Variant, hands: dict[int, str], turn_up: str | None = None,
         stock: str = "", dealer: int = 0) -> Game:
    """A game where the named cards are where the test says, the rest filled in.

    ``hands`` maps seats to space-separated card codes (partial hands are completed with
    the lowest unused cards, suit by suit); ``stock`` lists the first stock cards.
    """
    v = variant if isinstance(variant, Variant) else Variant.parse(variant)
    fixed = {seat: [parse_card(c) for c in text.split()] for seat, text in hands.items()}
    top = [parse_card(c) for c in stock.split()]
    up = parse_card(turn_up) if turn_up else None
    used = {c for cards in fixed.values() for c in cards} | set(top)
    if up is not None:
        used.add(up)
    free = [c for c in deck(v.deck) if c not in used]
    full: list[list[str]] = []
    for seat in range(v.players):
        cards = list(fixed.get(seat, []))
        while len(cards) < v.hand_size:
            cards.append(free.pop(0))
        full.append([c.code for c in cards])
    if v.trump == "dealer_last" and up is not None and up.code not in full[dealer]:
        raise AssertionError("dealer_last: put the turn-up in the dealer's hand")
    if v.trump == "dealer_last":
        up_in_hand = up
        rest_stock: list[str] = []
        return Game.from_hands(v, full, up_in_hand.code if up_in_hand else None, rest_stock,
                               dealer=dealer)
    rest = [c.code for c in top] + [c.code for c in free]
    return Game.from_hands(v, full, up.code if up else None, rest, dealer=dealer)


def run(g: Game, script: str) -> None:
    """Apply ``seat:action`` items in order, e.g. ``"0:Ao 1:4o 0:40"``."""
    for item in script.split():
        seat, _, text = item.partition(":")
        g.apply(int(seat), parse_action(text.replace("_", " ")))


def legal(g: Game, seat: int) -> set[str]:
    return {str(a) for a in g.legal_actions(seat)}


def codes(cards: Sequence[object]) -> list[str]:
    return [str(c) for c in cards]


def random_play(g: Game, rng: random.Random, steps: int | None = None,
                declare: float = 0.0) -> Game:
    """The tests' one random playout: legal actions chosen by ``rng`` until the hand ends
    (or ``steps`` actions were applied); before each turn, each open out-of-turn
    declaration is taken with probability ``declare``.  Returns ``g``."""
    done = 0
    while not g.is_over and (steps is None or done < steps):
        if declare:
            for s in g.seats_with_declarations():
                if rng.random() < declare and not g.is_over:
                    g.apply(s, rng.choice(g.legal_actions(s)))
                    done += 1
            if g.is_over:
                break
        seat = g.to_act
        if seat is None:
            break
        g.apply(seat, rng.choice(g.legal_actions(seat)))
        done += 1
    return g


def random_position(variant: str | Variant, seed: int, steps: int,
                    declare: float = 0.0) -> Game:
    """A game ``steps`` random actions in (fewer if the hand ends first)."""
    rng = random.Random(seed)
    return random_play(Game.new(variant, seed=rng.randrange(1 << 30)), rng, steps, declare)


# every preset, and the player counts each may be played with: the round trips'
# and the research environments' cases
EVERY_PRESET = ["parejas", "habanero", "individual", "individual(players=3)", "tres",
                "corriente", "arrastre", "online", "online(players=2)", "online(players=3)",
                "guinote", "guinote(players=4)", "subastado", "subastado(players=4)",
                "cabrero(players=3)", "cabrero", "cabrero(players=5)", "cabrero(players=6)"]
