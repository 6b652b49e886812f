"""The one driver loop: moves a game forward by asking its players (DESIGN.md).

It asks the seat to act for its action and, while a declaration window is open, first
gives every other seat with a declaration open the chance to take it (a player answers
with a declaration or None; that answer is the driver's question, not a rules action).
Players see only views.  Used by the terminal, the arena and the server's robots.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from tute.core.actions import Action
from tute.core.game import Game
from tute.core.views import PlayerView


class Player(Protocol):
    def start_hand(self, view: PlayerView) -> None: ...
    def observe(self, seat: int, action: Action, view: PlayerView) -> None: ...
    def choose(self, view: PlayerView) -> Action: ...
    def declare(self, view: PlayerView) -> Action | None: ...


Listener = Callable[[Game, int, Action], None]


def asked(game: Game) -> tuple[tuple[int, bool], ...]:
    """Who the driver asks next, in order: ``(seat, True)`` for each seat with a
    declaration open (it may answer None), then ``(to_act, False)`` for its action.
    The server's robots ask in the same order (:mod:`tute.server.tables.autoplay`)."""
    if game.is_over:
        return ()
    out = [(seat, True) for seat in game.seats_with_declarations()]
    if game.to_act is not None:
        out.append((game.to_act, False))
    return tuple(out)


def step(game: Game, players: Sequence[Player], on_action: Listener | None = None) -> bool:
    """Make one move (out-of-turn declarations first); False once the hand is over."""
    if game.is_over:
        return False
    for seat, declaring in asked(game):
        if declaring:
            answer = players[seat].declare(game.view(seat))
            if answer is not None:
                _apply(game, players, seat, answer, on_action)
                if game.is_over:
                    return False
    to_act = game.to_act                      # after the declarations: asked again
    if to_act is None:
        return False
    _apply(game, players, to_act, players[to_act].choose(game.view(to_act)), on_action)
    return not game.is_over


def _apply(game: Game, players: Sequence[Player], seat: int, action: Action,
           on_action: Listener | None) -> None:
    game.apply(seat, action)
    if on_action is not None:
        on_action(game, seat, action)
    for s, p in enumerate(players):
        if getattr(p, "observes", True):         # a bot that ignores it: no view to make
            p.observe(seat, action, game.view(s))


def play_hand(game: Game, players: Sequence[Player],
              on_action: Listener | None = None) -> None:
    """Play ``game`` to its end."""
    for s, p in enumerate(players):
        p.start_hand(game.view(s))
    while step(game, players, on_action):
        pass
