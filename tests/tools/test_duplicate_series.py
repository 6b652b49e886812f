"""A duplicate series' deals and robots: every deal an ordinary verifiable hand of its
published commitment, the same cards for everybody; the robots play the same for two
people who play the same, and answer a different play from their own view."""

from __future__ import annotations

import hashlib

import pytest

from tute.core.deal import deck_order
from tute.core.errors import InvalidDealError
from tute.core.game import Game
from tute.core.records import format_record, parse_record, record_of_games
from tute.duplicate.series import commitments, deal_game, deal_seed, robot_action
from tute.tools.verify import verify_record

MASTER = hashlib.sha256(b"series").hexdigest()


def test_each_deal_is_verifiable_from_the_commitments_published() -> None:
    published = commitments(MASTER, 8)
    assert len(set(published)) == 8
    decks = set()
    for n in range(1, 9):
        g = deal_game("parejas", MASTER, n)
        assert g.proof is not None and g.proof.commitment == published[n - 1]
        assert g.dealer == (n - 1) % 4
        assert deal_game("parejas", MASTER, n).deal == g.deal        # everybody's cards
        decks.add(tuple(deck_order(g.variant, g.deal)))
        record = parse_record(format_record(record_of_games([g])))
        assert [c.verdict for c in verify_record(record)] == ["ok"]
    assert len(decks) == 8
    with pytest.raises(InvalidDealError):
        deal_seed(MASTER, 0)
    with pytest.raises(InvalidDealError):
        deal_seed("not hex", 1)


def _play(person: int, number: int = 3, level: str = "pimc") -> list[str]:
    """Deal ``number`` of habanero: seat 0 plays its ``person``-th legal card each time,
    the series' robot the other seat."""
    g: Game = deal_game("habanero", MASTER, number)
    while not g.is_over:
        seat = g.to_act
        assert seat is not None
        view = g.view(seat)
        if seat == 0:
            legal = list(view.legal)
            action = legal[min(person, len(legal) - 1)]
        else:
            action = robot_action(level, MASTER, number, seat, view)
        g.apply(seat, action)
    return [f"{s} {a}" for s, a in g.history]


def test_the_robots_play_the_same_for_the_same_play() -> None:
    first = _play(0)
    assert _play(0) == first                       # another person, the same moves
    other = _play(1)
    assert other != first                          # a different play, answered
    assert _play(1) == other
