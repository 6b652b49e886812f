"""A record's decisions, in one replay: every position a seat decided in, then judged.

:func:`steps` replays the record once and keeps the position before each of the seat's
actions; :func:`analyze` judges them all, :func:`decision_at` one of them (a server
judges a hand decision by decision -- with the same salt, so the same verdict).  A
decision's deals are seeded by the settings' seed and the decision's place in the
record, so the analysis of a record depends on nothing else.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tute.analysis.judge import Decision, judge
from tute.analysis.sampling import DEFAULT, Settings
from tute.core.actions import Action
from tute.core.game import Game
from tute.core.records import GameRecord, replay
from tute.core.variants import Variant

Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class Step:
    """A position the seat decided in."""

    hand: int                # 1 the first
    index: int               # of the action in the hand (0 the first)
    seat: int                # the seat in the hand (the match seat may sit elsewhere)
    game: Game               # the position before the action (a copy: never changed)
    action: Action

    @property
    def salt(self) -> int:
        return self.hand * 1_000 + self.index


def steps(record: GameRecord, seat: int) -> tuple[Step, ...]:
    """The match seat's decisions in the record, in order (none in a hand it sat out)."""
    out: list[Step] = []

    def visit(h: int, i: int, g: Game, seat_map: tuple[int, ...]) -> None:
        if seat in seat_map:
            mine = seat_map.index(seat)
            who, action = record.hands[h].actions[i]
            if who == mine:
                out.append(Step(h + 1, i, mine, g.copy(), action))
    replay(record, before=visit)
    return tuple(out)


def judge_step(step: Step, settings: Settings) -> Decision:
    return judge(step.game.copy(), step.seat, step.action, step.hand, settings, step.salt)


def analyze(record: GameRecord, seat: int, settings: Settings = DEFAULT,
            progress: Progress | None = None) -> list[Decision]:
    """Every decision of the match seat ``seat`` in the record, judged from its view."""
    found = steps(record, seat)
    out: list[Decision] = []
    for count, step in enumerate(found, start=1):
        out.append(judge_step(step, settings))
        if progress is not None:
            progress(count, len(found))
    return out


def decision_points(record: GameRecord, seat: int, hand: int) -> list[int]:
    """The indexes, in hand ``hand``'s actions (1 the first hand), of the match seat's
    decisions (none where it sat the hand out)."""
    return [s.index for s in steps(record, seat) if s.hand == hand]


def decision_at(record: GameRecord | tuple[Step, ...], seat: int, hand: int, index: int,
                settings: Settings = DEFAULT) -> Decision:
    """One decision of :func:`analyze` on its own (the same judgement): action ``index``
    of hand ``hand``, which must be the seat's (see :func:`decision_points`).  Given the
    record's :func:`steps` (kept by a caller that judges many), nothing is replayed."""
    found = record if isinstance(record, tuple) else steps(record, seat)
    for step in found:
        if (step.hand, step.index) == (hand, index):
            return judge_step(step, settings)
    raise ValueError(f"action {index} of hand {hand} is not seat {seat}'s")


@dataclass(frozen=True, slots=True)
class Restart:
    """A recorded hand as it stood at one of a seat's decisions, to be played again
    from there ("jugar de nuevo desde aquí"): its deal, what was played before, whose
    decision it is."""

    variant: Variant          # the hand's (Cabrero: of the players still in)
    game: Game                # the hand as dealt, nothing played (a copy)
    before: tuple[tuple[int, Action], ...]    # the actions before the decision
    seat: int                 # the seat in the hand whose decision it is
    names: tuple[str, ...]    # each seat's name in the hand
    hand: int                 # 1 the first
    index: int                # of the decision in the hand's actions (0 the first)

    @property
    def trick(self) -> int:
        """The trick the decision is in (1 the first; 0: the auction)."""
        g = self.at()
        return 0 if g.phase == "auction" else sum(g.tricks_won) + 1

    def at(self) -> Game:
        """The position at the decision (a new game each time)."""
        g = self.game.copy()
        for who, action in self.before:
            g.apply(who, action)
        return g


def restart_at(record: GameRecord, seat: int, hand: int, index: int) -> Restart:
    """Hand ``hand`` of the record (1 the first) at action ``index``, which must be the
    match seat ``seat``'s decision (see :func:`decision_points`); ValueError, in words,
    where it is not."""
    found: list[Restart] = []

    def visit(h: int, i: int, g: Game, seat_map: tuple[int, ...]) -> None:
        if (h + 1, i) != (hand, index) or seat not in seat_map:
            return
        actions = record.hands[h].actions
        mine = seat_map.index(seat)
        if actions[i][0] == mine:
            found.append(Restart(g.variant, Game(g.variant, g.deal), tuple(actions[:i]),
                                 mine, tuple(record.names[m] for m in seat_map), hand, i))
    if not 1 <= hand <= len(record.hands):
        raise ValueError(f"hand goes from 1 to {len(record.hands)}")
    replay(record, before=visit)
    if not found:
        raise ValueError(f"action {index} of hand {hand} is not seat {seat}'s")
    return found[0]
