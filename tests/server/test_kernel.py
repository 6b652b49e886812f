"""The votes, leaving and the chat as the table's kernel has them (issue 47):
proposing, agreeing, refusing and expiring a vote, an abandon and a chat message are
functions of the state (and the time) that return events or a typed refusal; ``apply``
folds the events into the state, the same live and on a replay; a vote's deadline is a
stored fact (an event stored before it was said reads as lapsed)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tute.core.variants import parse_variant
from tute.server.social.chat import ChatError
from tute.server.store import Event
from tute.server.tables import decide, votes
from tute.server.tables.decide import TableError
from tute.server.tables.events import (
    Abandoned,
    AnnulExpired,
    Annulled,
    AnnulVoted,
    AutomaticSet,
    OptionsSet,
    RematchRefused,
    RematchVoted,
    Said,
    Seated,
    Started,
    TableEvent,
    stored,
    typed,
)
from tute.server.tables.options import Options
from tute.server.tables.state import TableState, apply, replay
from tute.server.tables.votes import ANNUL_SECONDS, REMATCH_SECONDS, AnnulError, RematchError
from tute.server.wire.hub import SPECTATOR

NOW = 1_800_000_000.0


class Table:
    """A table's state and the events it was made of, as the store keeps them."""

    def __init__(self) -> None:
        self.state = TableState(Options(parse_variant("habanero"), "random", 0.0))
        self.log: list[Event] = []

    def apply(self, events: list[TableEvent]) -> None:
        for e in events:
            seq = self.state.seq + 1
            apply(self.state, seq, e)
            self.log.append(stored(seq, e))

    def replayed(self) -> TableState:
        """The table as a restart rebuilds it from its stored events."""
        return replay("habanero", "random", self.log)


def _table() -> Table:
    """Ana (0) and Bea (1) at a running match of habanero."""
    t = Table()
    t.apply([OptionsSet("habanero", "random", 0.0), Seated(0, "Ana", False, "a"),
             Seated(1, "Bea", False, "b"), Started(7)])
    return t


def _refused(kind: type[Exception], key: str, call: Callable[[], object]) -> None:
    with pytest.raises(kind) as refused:
        call()
    assert getattr(refused.value, "key", None) == key


def test_an_annulment_proposed_agreed_and_kept_by_a_replay() -> None:
    t = _table()
    state = t.state
    _refused(AnnulError, "no_annul_vote",                # nothing to refuse
             lambda: votes.annul(state, 1, False, NOW))
    _refused(AnnulError, "not_seated", lambda: votes.annul(state, None, True, NOW))
    proposed = votes.annul(state, 0, True, NOW)
    assert proposed.events == [AnnulVoted(0, [0], NOW + ANNUL_SECONDS)]
    assert proposed.after is None
    t.apply(proposed.events)
    vote = state.annul_vote
    assert vote is not None and (vote.proposer, vote.agreed) == (0, {0})
    again = t.replayed()
    assert again.annul_vote == vote                      # a restart finds it open
    done = votes.annul(again, 1, True, NOW + 30)
    assert isinstance(done.events[-1], Annulled) and done.events[-1].agreed == [0, 1]
    assert done.after is not None and done.after.annulled and done.lone is None
    apply(again, again.seq + 1, done.events[0])
    assert again.annul_vote is None and again.match is not None and again.match.annulled


def test_an_annulment_lapses_at_its_stored_deadline() -> None:
    t = _table()
    state = t.state
    t.apply(votes.annul(state, 0, True, NOW).events)
    assert votes.annul_expired(state, NOW + ANNUL_SECONDS - 1) == []
    assert votes.annul_expired(state, NOW + ANNUL_SECONDS) == [AnnulExpired()]
    _refused(AnnulError, "no_annul_vote",                # lapsed: nothing to refuse
             lambda: votes.annul(state, 1, False, NOW + ANNUL_SECONDS))
    anew = votes.annul(state, 1, True, NOW + ANNUL_SECONDS + 1)   # a new proposal
    assert anew.events == [AnnulVoted(1, [1], NOW + 2 * ANNUL_SECONDS + 1)]
    t.apply(anew.events)
    vote = state.annul_vote
    assert vote is not None and (vote.proposer, vote.agreed) == (1, {1})
    t.apply([AnnulExpired()])
    assert state.annul_vote is None


def test_a_vote_stored_before_its_deadline_was_reads_as_lapsed() -> None:
    t = _table()
    state = t.state
    t.apply([typed(Event(state.seq + 1, "annul_vote", {"seat": 0, "agreed": [0]}))])
    assert state.annul_vote is not None and not state.annul_vote.open(NOW)
    assert votes.annul_expired(state, NOW) == [AnnulExpired()]


def test_a_rematch_proposed_voided_and_agreed() -> None:
    t = _table()
    state = t.state
    _refused(RematchError, "no_match_over", lambda: votes.rematch(state, 1, True, NOW))
    t.apply(votes.annul(state, 0, True, NOW).events)
    t.apply(votes.annul(state, 1, True, NOW).events)          # over: annulled
    _refused(RematchError, "no_rematch_vote", lambda: votes.rematch(state, 0, False, NOW))
    proposed = votes.rematch(state, 1, True, NOW)
    assert proposed.events == [RematchVoted(1, [1], NOW + REMATCH_SECONDS)]
    assert not proposed.start
    t.apply(proposed.events)
    assert votes.rematch(state, 1, True, NOW + 1).events == []      # said already
    again = t.replayed()
    assert again.rematch_vote == state.rematch_vote                  # kept by a restart
    apply(again, again.seq + 1, OptionsSet("habanero", "random", 0.0))   # the host's
    assert again.rematch_vote is None
    assert votes.rematch(state, 0, False, NOW + 2).events == [RematchRefused(0)]
    assert votes.rematch(state, 0, True, NOW + REMATCH_SECONDS).events == [
        RematchVoted(0, [0], NOW + 2 * REMATCH_SECONDS)]             # lapsed: anew
    agreed = votes.rematch(state, 0, True, NOW + 3)
    assert agreed.events == [RematchVoted(0, [0, 1], NOW + REMATCH_SECONDS)] and agreed.start
    t.apply(agreed.events)
    assert state.rematch_vote is None                                # it starts now


def _competitive() -> Table:
    """Ana (0) and Bea (1) at a running competitive match (100 chips each)."""
    t = Table()
    t.apply([OptionsSet("habanero", "random", 0.0, competitive=True, bet=100),
             Seated(0, "Ana", False, "a", 1), Seated(1, "Bea", False, "b", 2), Started(7)])
    return t


def test_who_left_is_decided_by_the_kernel_and_kept_by_a_replay() -> None:
    t = _competitive()
    _refused(TableError, "not_seated", lambda: decide.abandon(t.state, None, True))
    left = decide.abandon(t.state, 0)                    # away too long: it counts
    assert left.events == [Abandoned(0)] and left.counts
    t.apply(left.events)
    again = t.replayed()
    assert again.abandoned == {0} and 0 in again.automatic
    assert decide.abandon(again, 0, True).events == []   # gone already
    _refused(AnnulError, "not_seated",                   # who left has no say
             lambda: votes.annul(again, 0, True, NOW))
    friendly = _table()
    assert decide.abandon(friendly.state, 1).events == []   # away: no abandon there
    said = decide.abandon(friendly.state, 1, any_match=True)
    assert said.events == [Abandoned(1)] and not said.counts


def test_what_may_be_said_is_decided_by_the_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    t = _table()
    assert decide.say(t.state, "a1", "Ana", 0, "hola") == Said("a1", "Ana", 0, "hola")
    watched = decide.say(t.state, "a9", "Vera", SPECTATOR, "hola", spectator=True)
    assert watched.quiet                                 # never shown to the players
    t.apply([OptionsSet("habanero", "random", 0.0, chat_in_hand=False)])
    _refused(ChatError, "chat_closed_in_hand",
             lambda: decide.say(t.state, "a1", "Ana", 0, "hola"))
    t = _table()
    t.apply(votes.annul(t.state, 0, True, NOW).events)
    t.apply(votes.annul(t.state, 1, True, NOW).events)   # no hand: the chat opens
    said = decide.say(t.state, "a9", "Vera", SPECTATOR, "hola", spectator=True)
    assert not said.quiet
    monkeypatch.setattr(decide, "TABLE_MESSAGES", 1)
    t.apply([said])
    _refused(ChatError, "chat_full", lambda: decide.say(t.state, "a1", "Ana", 0, "hola"))


def _clock_plays(t: Table, clock: bool, auto: bool = True) -> int:
    """The seat to act next plays its first legal action (``clock``: the clock for it;
    ``auto`` and not ``clock``: automatic play; neither: the person): that seat."""
    m = t.state.match
    assert m is not None and m.game.to_act is not None
    seat = m.seat_map[m.game.to_act]
    action = m.game.legal_actions(m.game.to_act)[0]
    t.apply(decide.act(t.state, None, seat, str(action), auto or clock, clock).events)
    return seat


def test_the_clocks_count_is_state_and_kept_by_a_replay() -> None:
    t = _table()
    seat = _clock_plays(t, clock=True)
    assert t.state.timeouts == {seat: 1}
    assert decide.timed_out(t.state, seat, 2) == []
    assert t.replayed().timeouts == {seat: 1}          # a restart counts on from 1
    while t.state.match is not None and t.state.match.seat_map[
            t.state.match.game.to_act or 0] != seat:
        _clock_plays(t, clock=False, auto=False)      # the other person plays
    _clock_plays(t, clock=True)
    assert t.state.timeouts[seat] == 2
    assert decide.timed_out(t.state, seat, 2) == [AutomaticSet(seat, True)]
    t.apply([AutomaticSet(seat, True)])
    assert t.state.timeouts[seat] == 0 and seat in t.state.automatic
    assert decide.timed_out(t.state, seat, 0) == []    # already so
    t.apply([AutomaticSet(seat, False)])
    t.state.timeouts[seat] = 1                          # a timeout, then "volver"
    assert decide.automatic(t.state, seat, False) == []
    assert decide.automatic(t.state, seat, False, asked=True) == [AutomaticSet(seat, False)]
