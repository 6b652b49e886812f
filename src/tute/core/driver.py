"""The one driver loop: moves a game forward by asking its players (DESIGN.md).

It asks the seat to act for its action and, while a declaration window is open, first
gives every other seat with a declaration open the chance to take it (a player answers
with a declaration or None; that answer is the driver's question, not a rules action).
A seat that declares is asked again while it has a declaration left, until it answers
None: a partner who sings a 20 out of turn may then declare his manilla (or tute) in the
same window.  :class:`Questions` keeps that order, for the driver here, the research
environments (:mod:`tute.rl.codec`) and the server's robots
(:mod:`tute.server.tables.autoplay`).  Players see only views.  Used by the terminal,
the arena and the server's robots.
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


class Questions:
    """Who the driver asks, in order, during one move of ``game`` (the seat to act's
    action ends the move; a new move is a new :class:`Questions`).

    First each other seat with a declaration open (``(seat, True)``, in seat order; it
    may answer None), asked again after each declaration it makes while it has one left,
    until it declines (:meth:`decline`) or has none; then the seat to act
    (``(to_act, False)``).  Only the rules close a window (the lead): until then no
    declaration the engine offers a seat is left unasked."""

    __slots__ = ("declined", "game")

    def __init__(self, game: Game) -> None:
        self.game = game
        self.declined: set[int] = set()

    def next(self) -> tuple[int, bool] | None:
        """The question now: ``(seat, declaring)``, or None once the hand is over."""
        game = self.game
        if game.is_over:
            return None
        for seat in game.seats_with_declarations():
            if seat not in self.declined:
                return seat, True
        to_act = game.to_act
        return None if to_act is None else (to_act, False)

    def decline(self, seat: int) -> None:
        """``seat`` answered None: it is not asked again in this move."""
        self.declined.add(seat)


def step(game: Game, players: Sequence[Player], on_action: Listener | None = None) -> bool:
    """Make one move (out-of-turn declarations first); False once the hand is over."""
    questions = Questions(game)
    while (asked := questions.next()) is not None:
        seat, declaring = asked
        if not declaring:
            _apply(game, players, seat, players[seat].choose(game.view(seat)), on_action)
            return not game.is_over
        answer = players[seat].declare(game.view(seat))
        if answer is None:
            questions.decline(seat)
        else:
            _apply(game, players, seat, answer, on_action)
    return False


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
