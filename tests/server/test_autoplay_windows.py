"""The site's tables and the declaration windows (issue 46): the table's robots are asked
as the core driver asks (:class:`tute.core.driver.Questions`) -- a robot partner who sings
a 20 out of turn is asked again and declares his manilla before the leader leads -- and a
person's page still offers what is left.  A table without its server: the robots' move
(:meth:`Autoplay._robot_move`) on a stand-in for the table, its moves applied to the game
as the table applies them."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import run
from tute import Game
from tute.core.actions import Action, Manilla, Play, SingTwenty
from tute.core.cards import Suit
from tute.core.views import PlayerView
from tute.server.tables.autoplay import Autoplay, robot_seed
from tute.server.tables.robots import Thinkers
from tute.server.wire.views import seat_part

ISSUE = "parejas(manilla=20,sing_who=both_one_each)"
WINDOWS = [ISSUE, "parejas(manilla=10,sing_who=winner_or_partner)",
           "parejas(sing_who=both_one_each)", "online", "guinote(players=4,manilla=10)"]


@dataclass
class _Match:
    game: Game


@dataclass
class Stand:
    """What the robots' move reads of a table."""

    game: Game
    robot_seats: set[int]
    robot_level: str = "heuristic"
    id: str = "t"
    turn: int = 0
    thinkers: Thinkers = field(default_factory=lambda: Thinkers(workers=1))

    @property
    def match(self) -> _Match:
        return _Match(self.game)

    def played_by_robot(self) -> set[int]:
        return self.robot_seats

    def has_people(self) -> bool:
        return len(self.robot_seats) < self.game.players

    def table_seat(self, game_seat: int) -> int:
        return game_seat

    def robot_seed_for(self, seq: int, seat: int, view: PlayerView) -> int:
        return robot_seed(seq, seat)

    def robot_samples(self) -> int | None:
        return None


def issue_deal() -> Game:
    """The issue's hand (tests/core/test_driver_windows.py): seat 0 has won the first
    trick; seat 2, its partner, holds a 20 in oros and the manilla of copas."""
    g = Game.new(ISSUE, seed=random.Random(753261808).randrange(1 << 30))
    run(g, "1:4e 2:6e 3:7e 0:Re")
    return g


def robots_move(t: Stand) -> tuple[int, Action] | None:
    move = asyncio.run(Autoplay(t)._robot_move())                   # type: ignore[arg-type]
    if move is None:
        return None
    seat, action, seq = move
    assert seq == t.turn
    t.game.apply(seat, action)
    t.turn += 1
    return seat, action


def test_a_robot_partner_sings_his_20_and_then_declares_his_manilla() -> None:
    t = Stand(issue_deal(), {0, 1, 2, 3})
    moves = [robots_move(t) for _ in range(3)]
    assert moves[:2] == [(2, SingTwenty(Suit.OROS)), (2, Manilla(Suit.COPAS))]
    assert moves[2] is not None and moves[2][0] == 0 and isinstance(moves[2][1], Play)


def test_a_persons_page_offers_his_manilla_after_his_20() -> None:
    """A person in seat 2: the robots do not wait for him (the leader, a robot, leads);
    until then his page offers every declaration left."""
    g = issue_deal()
    assert {"20o", "manilla c"} <= set(seat_part(g.view(2)).legal)
    g.apply(2, SingTwenty(Suit.OROS))
    assert seat_part(g.view(2)).legal == ["manilla c"]
    t = Stand(g, {0, 1, 3})
    seat, action = robots_move(t) or (None, None)
    assert seat == 0 and isinstance(action, Play)                   # the lead closes it


def test_a_person_to_act_is_waited_for_after_the_robots_declare() -> None:
    t = Stand(issue_deal(), {1, 2, 3})
    assert robots_move(t) == (2, SingTwenty(Suit.OROS))
    assert robots_move(t) == (2, Manilla(Suit.COPAS))
    assert robots_move(t) is None                                   # seat 0 is a person


class Noting(Thinkers):
    """The table's robots, noting what each is offered out of turn and who says no."""

    def __init__(self) -> None:
        super().__init__(workers=1)
        self.asked: dict[int, frozenset[Action]] = {}
        self.declined: set[int] = set()

    async def declare(self, level: str, seed: int, view: PlayerView, table: str = "",
                      people: bool = True, samples: int | None = None) -> Action | None:
        self.asked[view.seat] = frozenset(view.legal)
        answer = await super().declare(level, seed, view, table, people, samples)
        if answer is None:
            self.declined.add(view.seat)
        return answer


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(WINDOWS), seed=st.integers(0, 2**32),
       level=st.sampled_from(["random", "heuristic"]))
def test_robots_leave_no_declaration_unasked_when_a_window_closes(
        variant: str, seed: int, level: str) -> None:
    """Robots only: whenever a robot leads into a closing window, every other seat with a
    declaration open was asked for it in this move, with exactly that offered, and said
    no (the heuristic robot always declares: then nothing is left open at all)."""
    g = Game.new(variant, seed=seed)
    thinkers = Noting()
    t = Stand(g, set(range(g.players)), level, thinkers=thinkers)
    asked, declined = thinkers.asked, thinkers.declined
    while not g.is_over:
        to_act = g.to_act
        open_now = {s: frozenset(g.legal_actions(s)) for s in g.seats_with_declarations()}
        move = robots_move(t)
        assert move is not None
        seat, _ = move
        if seat == to_act:                       # the move's end: nothing left unasked
            for s, left in open_now.items():
                assert s in declined and asked[s] == left, (s, left)
                if level == "heuristic":
                    raise AssertionError(f"the heuristic robot declines nothing: {s}")
            asked.clear()
            declined.clear()
