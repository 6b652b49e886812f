"""Tute as an OpenSpiel game (``pip install -e '.[rl]'``), registered with pyspiel as
``python_tute``: one hand, the deal as chance nodes (one card drawn at a time, every
card left alike), then the players' decisions as :mod:`tute.rl.codec` numbers them::

    import pyspiel
    import tute.rl.spiel  # registers the game
    game = pyspiel.load_game("python_tute(preset=habanero)")

Parameters: ``preset`` (``parejas`` by default), ``players`` (0: the preset's),
``options`` (house rules as ``name:value`` joined by ``;`` -- OpenSpiel's
parameters take no ``=`` -- e.g. ``swap_timing:anytime;last_trick_bonus:0``), ``dealer`` and ``reward`` (``points`` or
``win``).  The information state (perfect recall: the seat's dealt cards, its draws
and every action in order) and the observation (the seat's view now,
:func:`tute.rl.codec.observe`) come as strings and tensors; neither holds a card the
seat cannot see.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from tute.core.cards import deck
from tute.core.deal import deal_from_deck
from tute.core.game import Game
from tute.core.variants import Variant, make_variant
from tute.rl.codec import REWARDS, Hand, actions_of, observation_size, observe

_DEFAULTS: dict[str, Any] = {"preset": "parejas", "players": 0, "options": "",
                             "dealer": 0, "reward": "points"}
_GAME_TYPE = pyspiel.GameType(
    short_name="python_tute",
    long_name="Python Tute (Spanish trick-taking card games)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS)


def variant_of(params: dict[str, Any]) -> Variant:
    """The variant the game's parameters name."""
    options: dict[str, object] = {}
    if int(params.get("players", 0)):
        options["players"] = int(params["players"])
    for item in str(params.get("options", "")).split(";"):
        if item.strip():
            key, _, value = item.replace(":", "=", 1).partition("=")
            options[key.strip()] = value.strip()
    return make_variant(str(params.get("preset", "parejas")), options)


def _longest(v: Variant) -> int:
    """Decisions a hand may take at most: every card, every declaration, the auction
    (each seat declining a declaration before each move counted too)."""
    cards = v.players_dealt * v.hand_size
    return cards * v.players + 60 + (len(actions_of(v)) if v.trump == "declarer" else 0)


class TuteGame(pyspiel.Game):  # type: ignore[misc]
    """One hand of a variant, dealt by chance."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**_DEFAULTS, **(params or {})}
        self.variant = variant_of(p)
        if p["reward"] not in REWARDS:
            raise ValueError(f"reward is one of {REWARDS}")
        self.reward = str(p["reward"])
        self.dealer = int(p["dealer"]) % self.variant.players
        self.cards = deck(self.variant.deck)
        self.num_actions = len(actions_of(self.variant)) + 1
        self.history_slots = _longest(self.variant)
        points = 300.0 if self.reward == "points" else 1.0
        info = pyspiel.GameInfo(
            num_distinct_actions=self.num_actions,
            max_chance_outcomes=40,
            num_players=self.variant.players,
            min_utility=-points,
            max_utility=points,
            utility_sum=None,
            max_game_length=self.variant.deck + self.history_slots)
        super().__init__(_GAME_TYPE, info, p)

    def new_initial_state(self) -> TuteState:
        return TuteState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> TuteObserver:
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return TuteObserver(self, recall)


class TuteState(pyspiel.State):  # type: ignore[misc]
    """A hand being dealt (chance) or played."""

    def __init__(self, game: TuteGame) -> None:
        super().__init__(game)
        self.tute = game
        self.drawn: list[int] = []                 # the deck so far, by card index
        self.hand: Hand | None = None
        self.moves: list[tuple[int, int]] = []     # (seat, action number) in order

    def current_player(self) -> int:
        if self.hand is None:
            return int(pyspiel.PlayerId.CHANCE)
        seat = self.hand.current
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        assert self.hand is not None and player == self.hand.current
        return self.hand.legal()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = [c.index for c in self.tute.cards if c.index not in self.drawn]
        return [(k, 1.0 / len(left)) for k in left]

    def _apply_action(self, action: int) -> None:
        if self.hand is None:
            self.drawn.append(int(action))
            if len(self.drawn) == len(self.tute.cards):
                by_index = {c.index: c for c in self.tute.cards}
                deal = deal_from_deck(self.tute.variant, [by_index[k] for k in self.drawn],
                                      self.tute.dealer)
                self.hand = Hand.deal(Game(self.tute.variant, deal))
            return
        seat = self.hand.current
        assert seat is not None
        self.hand.apply(int(action))
        self.moves.append((seat, int(action)))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == int(pyspiel.PlayerId.CHANCE):
            card = next(c for c in self.tute.cards if c.index == action)
            return f"deal {card.code}"
        assert self.hand is not None or action < self.tute.num_actions
        acts = actions_of(self.tute.variant)
        return "decline" if action == len(acts) else str(acts[action])

    def is_terminal(self) -> bool:
        return self.hand is not None and self.hand.current is None

    def returns(self) -> list[float]:
        if self.hand is None:
            return [0.0] * self.tute.variant.players
        return self.hand.rewards(self.tute.reward)

    def __str__(self) -> str:
        if self.hand is None:
            return f"dealing: {len(self.drawn)} cards"
        g = self.hand.game
        return "\n".join([*(f"{s}: {' '.join(c.code for c in g.hand(s))}"
                            for s in range(g.n)),
                          "trick: " + " ".join(c.code for c in g.trick)])


class TuteObserver:
    """A seat's information state (``perfect_recall``) or its observation now."""

    def __init__(self, game: TuteGame, perfect_recall: bool) -> None:
        v = game.variant
        self.game = game
        self.recall = perfect_recall
        n = v.players
        if perfect_recall:
            draws = v.stock_size // max(1, v.players_dealt) + 2
            self.pieces = [("seat", n), ("dealt", 40), ("turn_up", 40), ("draws", draws * 40),
                           ("moves", game.history_slots * (n + game.num_actions))]
        else:
            self.pieces = [("observation", observation_size(v))]
        self.tensor = np.zeros(sum(k for _, k in self.pieces), np.float32)
        self.dict: dict[str, Any] = {}
        at = 0
        for name, k in self.pieces:
            self.dict[name] = self.tensor[at:at + k]
            at += k

    def set_from(self, state: TuteState, player: int) -> None:
        self.tensor.fill(0.0)
        if state.hand is None:
            return
        g = state.hand.game
        if not self.recall:
            self.dict["observation"][:] = observe(g, player)
            return
        n = g.variant.players
        self.dict["seat"][player] = 1.0
        for c in g.deal.hands[player]:
            self.dict["dealt"][c.index] = 1.0
        if g.deal.turn_up is not None:
            self.dict["turn_up"][g.deal.turn_up.index] = 1.0
        for k, c in enumerate(g.view(player).own_draws):
            self.dict["draws"][k * 40 + c.index] = 1.0
        width = n + self.game.num_actions
        seen = [(s, a) for s, a in state.moves       # another's silence is not seen
                if s == player or a != state.hand.decline]  # (nor that it was asked)
        for k, (seat, number) in enumerate(seen[:self.game.history_slots]):
            self.dict["moves"][k * width + (seat - player) % n] = 1.0
            self.dict["moves"][k * width + n + number] = 1.0

    def string_from(self, state: TuteState, player: int) -> str:
        if state.hand is None:
            return f"seat {player}: dealing"
        g = state.hand.game
        view = g.view(player)
        if self.recall:
            moves = " ".join(f"{s}:{state._action_to_string(s, a)}"
                             for s, a in state.moves
                             if s == player or a != state.hand.decline)
            return (f"seat {player} dealt {' '.join(c.code for c in g.deal.hands[player])}"
                    f" up {g.deal.turn_up.code if g.deal.turn_up else '-'}"
                    f" draws {' '.join(c.code for c in view.own_draws)} | {moves}")
        return (f"seat {player} hand {' '.join(c.code for c in view.hand)}"
                f" trick {' '.join(c.code for _, c in view.table.trick)}"
                f" trump {view.trump.value if view.trump else '-'}"
                f" stock {view.stock_left} points {list(view.table.points_taken)}"
                f" cantes {list(view.table.cantes)} to_act {view.to_act}")


pyspiel.register_game(_GAME_TYPE, TuteGame)
