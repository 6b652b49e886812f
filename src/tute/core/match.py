"""A match: hands in a row with the deal rotating, until a side wins (RULES.md §8).

>>> from tute.bots import make_bot
>>> from tute.core.driver import play_hand
>>> m = Match("habanero(match_target=3)", seed=1)
>>> robots = [make_bot("heuristic", seed=s) for s in range(2)]
>>> while not m.is_over:
...     play_hand(m.game, robots)   # or through m.game.legal_actions / apply
...     _ = m.next_hand()           # once the hand is over: score it, deal the next
>>> m.winner, m.score().hands_won
(1, (2, 3))

Each hand's shuffle comes from the match seed, so a match replays from its seed and
its actions.  Formats (``match``, ``match_target``): ``first_to`` N hands won;
``series`` of N hands, most wins, a tie played on hand by hand (Subastado: most points);
``two_ahead``: at least N hands won and 2 more than every other side; ``cumulative``:
points summed until a side has at least N at the end of a hand (the highest then wins,
a tie plays on; a tute sets its side's score to N); ``elimination`` (Cabrero): a player
with N porotos is out, the last player left wins.  With ``double_game_at`` a double game
counts as two hands won; with ``tute_effect = win_match`` a tute wins at once.

In an elimination match the game's seats are the players still in, in order:
``seat_map[game_seat]`` is the match seat.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable
from dataclasses import dataclass

from tute.core.errors import WrongPhaseError
from tute.core.game import Game
from tute.core.result import HandResult
from tute.core.variants import PRESETS, Variant, VariantLike, as_variant, validate


@dataclass(frozen=True, slots=True)
class MatchScore:
    hands_won: tuple[int, ...]          # per side (double games count two)
    points: tuple[int, ...]             # per side: cumulative / contract points
    porotos: tuple[int, ...]            # per match seat (elimination)
    players_in: tuple[int, ...]         # match seats still in
    results: tuple[HandResult, ...]     # every finished hand, in order
    winner: int | None                  # side (or match seat), once the match is over


class Match:
    def __init__(self, variant: VariantLike, seed: int | str | bytes | None = None,
                 dealer: int = 0, first_game: Game | None = None) -> None:
        self.variant = as_variant(variant)
        self.seed = seed
        self._rng = random.Random(seed)
        v = self.variant
        self._results: list[HandResult] = []
        self._won = [0] * v.num_sides
        self._points = [0] * v.num_sides
        self._porotos = [0] * v.players
        self._in = list(range(v.players))
        self._winner: int | None = None
        self.annulled = False                # ended by agreement, for nobody (annul)
        self._scored = False                 # the current hand has been scored
        if first_game is not None:
            dealer = first_game.dealer
        self.first_dealer = dealer
        self.dealer = dealer                 # a match seat
        self.seat_map: tuple[int, ...] = tuple(self._in)
        self.game = self._deal() if first_game is None else self._check_game(first_game)

    def copy(self) -> Match:
        """An independent copy (its game copied too): what a server tries a move on."""
        m = Match.__new__(Match)
        m.__dict__.update(self.__dict__)
        m._rng = random.Random()
        m._rng.setstate(self._rng.getstate())
        for name in ("_results", "_won", "_points", "_porotos", "_in"):
            setattr(m, name, list(getattr(self, name)))
        m.game = self.game.copy()
        return m

    # ------------------------------------------------------------------ dealing
    def hand_variant(self) -> Variant:
        """The variant of the next hand (Cabrero: for the players still in)."""
        v = self.variant
        k = len(self._in)
        if k == v.players:
            return v
        preset = PRESETS[v.preset]
        if k in preset.players:
            shape = preset.settings(k)
            deck, hand = shape.get("deck", 40), shape.get("hand_size", v.hand_size)
        else:                           # two players left in Cabrero: all 40 cards
            deck, hand = 40, 40 // k
        assert isinstance(deck, int) and isinstance(hand, int)
        w = dataclasses.replace(v, players=k, deck=deck, hand_size=hand)
        validate(w, any_player_count=True)
        return w

    def _deal(self) -> Game:
        self.seat_map = tuple(self._in)
        dealer = self._in.index(self.dealer)
        return Game.new(self.hand_variant(), seed=self._rng.getrandbits(64), dealer=dealer)

    def _check_game(self, game: Game) -> Game:
        """A hand dealt elsewhere (a record, a server's shuffle) must fit the match."""
        self.seat_map = tuple(self._in)
        if game.variant != self.hand_variant():
            raise WrongPhaseError("match_wrong_variant", variant=str(game.variant))
        if game.dealer != self._in.index(self.dealer):
            raise WrongPhaseError("match_wrong_dealer", dealer=game.dealer)
        return game

    # ------------------------------------------------------------------ state
    @property
    def is_over(self) -> bool:
        return self._winner is not None or self.annulled

    def annul(self) -> None:
        """End the match here without a winner, by its players' agreement (seed 001's
        "anular partida"): no hand is played or dealt after it; it counts for nobody."""
        if self.is_over:
            raise WrongPhaseError("match_over")
        self.annulled = True

    @property
    def winner(self) -> int | None:
        return self._winner

    @property
    def hand_number(self) -> int:
        """1 for the first hand."""
        return len(self._results) + 1

    def score(self) -> MatchScore:
        return MatchScore(tuple(self._won), tuple(self._points), tuple(self._porotos),
                          tuple(self._in), tuple(self._results), self._winner)

    # ------------------------------------------------------------------ scoring
    def next_hand(self, next_game: Game | None = None) -> HandResult:
        """Score the finished current hand; deal the next unless the match is over
        (``next_game``: a hand dealt elsewhere, by the next dealer)."""
        result = self.record_hand()
        if self._winner is None:
            self.deal_next(next_game)
        return result

    def record_hand(self) -> HandResult:
        """Score the finished current hand (once)."""
        result = self.game.result()
        if result is None:
            raise WrongPhaseError("hand_not_over")
        if self._scored or self.is_over:
            raise WrongPhaseError("match_over" if self.is_over else "hand_scored")
        self._record(result)
        self._scored = True
        return result

    def deal_next(self, next_game: Game | None = None) -> Game:
        """Deal the next hand once the current one is scored."""
        if self.is_over:
            raise WrongPhaseError("match_over")
        if not self._scored:
            raise WrongPhaseError("hand_not_over")
        self.dealer = self._next_dealer()
        self.game = self._deal() if next_game is None else self._check_game(next_game)
        self._scored = False
        return self.game

    def _next_dealer(self) -> int:
        n = self.variant.players              # the deal passes to the next player still in
        return next(s for s in ((self.dealer + i) % n for i in range(1, n + 1))
                    if s in self._in)

    def upcoming(self) -> tuple[Variant, int]:
        """The next hand's variant and dealer (a seat of that hand's game), once the
        current hand is scored: what a hand dealt elsewhere must be."""
        if self.is_over:
            raise WrongPhaseError("match_over")
        if not self._scored:
            raise WrongPhaseError("hand_not_over")
        return self.hand_variant(), self._in.index(self._next_dealer())

    def _record(self, result: HandResult) -> None:
        self._results.append(result)
        if not result.void:
            if self.variant.match == "elimination":
                self._score_elimination(result)
            else:
                self._score_sides(result)

    def _score_elimination(self, r: HandResult) -> None:
        losers = ([s for s, p in enumerate(r.porotos) if p] if r.porotos is not None
                  else [s for s in range(r.sides) if s not in r.winners])
        for s in losers:
            self._porotos[self.seat_map[s]] += 1
        target = self.variant.match_target
        self._in = [s for s in self._in if self._porotos[s] < target]
        if r.tute is not None and self.variant.tute_effect == "win_match":
            self._winner = self.seat_map[r.tute]
        elif len(self._in) == 1:
            self._winner = self._in[0]
        elif not self._in:                        # cannot happen: someone always escapes
            self._winner = min(self.seat_map, key=lambda s: self._porotos[s])

    def _score_sides(self, r: HandResult) -> None:
        v = self.variant
        target = v.match_target
        for w in r.winners:
            self._won[w] += r.games
        if r.contract is not None:
            c = r.contract
            self._points[c.declarer] += c.bid if c.made else -c.bid
        else:
            for side, total in enumerate(r.totals):
                self._points[side] += total
            if r.tute is not None and v.match == "cumulative":
                self._points[r.tute] = max(self._points[r.tute], target)
        if r.tute is not None and v.tute_effect == "win_match":
            self._winner = r.tute
            return
        played = sum(1 for x in self._results if not x.void)
        if v.match == "first_to":
            ahead = [s for s in range(len(self._won)) if self._won[s] >= target]
            if ahead:
                self._winner = max(ahead, key=lambda s: self._won[s])
        elif v.match == "series":
            figures = self._points if v.scoring == "contract" else self._won
            if played >= target:
                self._winner = _unique_max(figures)
        elif v.match == "two_ahead":
            for s, won in enumerate(self._won):
                others = [x for t, x in enumerate(self._won) if t != s]
                if won >= target and all(won >= x + 2 for x in others):
                    self._winner = s
        elif v.match == "cumulative" and any(p >= target for p in self._points):
            self._winner = _unique_max(self._points)


def _unique_max(values: list[int]) -> int | None:
    best = max(values)
    tops = [i for i, x in enumerate(values) if x == best]
    return tops[0] if len(tops) == 1 else None


def match_winners(variant: VariantLike, results: Iterable[HandResult]) -> list[int]:
    """The winners (sides) of the matches that hands of ``variant`` make, chained in
    order, as :class:`Match` scores them (double games, ``win_match``, cumulative
    points...).  Hands after the last finished match are left over.  Elimination
    matches are not chained this way (their hands shrink as players go out)."""
    v = as_variant(variant)
    if v.match == "elimination":
        raise WrongPhaseError("match_wrong_variant", variant=str(v))
    winners: list[int] = []
    board = Match(v, seed=0)
    for r in results:
        board._record(r)
        if board._winner is not None:
            winners.append(board._winner)
            board = Match(v, seed=0)
    return winners
