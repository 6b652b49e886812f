"""``tute demo``: a random game, dealt from a seed, printed trick by trick."""

from __future__ import annotations

import random
from typing import TextIO

from tute.core.actions import DeclareTute, Play, SingForty, SingTwenty, Swap
from tute.core.game import Game
from tute.core.variants import parse_variant
from tute.i18n import card_name, render, suit_name


def play_demo(variant_text: str, seed: int, lang: str, out: TextIO) -> int:
    variant = parse_variant(variant_text)
    game = Game.new(variant, seed=seed)
    rng = random.Random(seed)

    def say(key: str, **params: object) -> None:
        out.write(render(key, params, lang) + "\n")

    say("demo_header", variant=str(variant), seed=seed, dealer=game.dealer,
        trump=suit_name(game.trump, lang),
        card=card_name(game.turn_up.code, lang) if game.turn_up else "-")
    for seat in range(variant.players):
        say("demo_hand", seat=seat, cards=" ".join(c.code for c in game.hand(seat)))
    trick: list[str] = []
    trick_no = 1
    while not game.is_over:
        acting = [s for s in game.seats_with_declarations() if rng.random() < 0.5]
        acting.append(game.acting)
        for seat in acting:
            action = rng.choice(game.legal_actions(seat))
            tricks_before = sum(game.tricks_won)
            game.apply(seat, action)
            if isinstance(action, Play):
                trick.append(f"{seat}:{action.card.code}")
                if sum(game.tricks_won) != tricks_before:
                    winner = game.trick_winner_seats[-1]
                    say("demo_trick", n=trick_no, cards="  ".join(trick), seat=winner)
                    trick, trick_no = [], trick_no + 1
            elif isinstance(action, (SingTwenty, SingForty)):
                suit = game.trump if isinstance(action, SingForty) else action.suit
                say("demo_cante", seat=seat, points=40 if isinstance(action, SingForty) else 20,
                    suit=suit_name(suit, lang))
            elif isinstance(action, Swap):
                say("demo_swap", seat=seat, card=card_name(game.turn_up.code, lang)
                    if game.turn_up else "-")
            elif isinstance(action, DeclareTute):
                say("demo_tute", seat=seat)
            if game.is_over:
                break
    result = game.result()
    assert result is not None
    for side in range(result.sides):
        say("demo_side", side=side, cards=result.card_points[side],
            cantes=result.cantes[side], total=result.totals[side])
    say("demo_winner", side=result.winner)
    return 0
