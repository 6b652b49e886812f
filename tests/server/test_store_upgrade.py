"""A store written before the table became typed events (tests/golden/store_v1, made by
that version: ``make.py`` there says how) loads with today's code: every table replays
to the state that version's replay made of it, a running match plays on to its end, a
kept match reads back.  And every kind of event round-trips through the store's form."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path
from typing import Any

import msgspec
import pytest

from tute.core.actions import parse_action
from tute.core.records import replay as replay_record
from tute.core.result import Contract, HandResult
from tute.server.store import Event, Store
from tute.server.tables import events as ev
from tute.server.tables.kept import Kept
from tute.server.tables.log import replay
from tute.server.tables.robots import Thinkers
from tute.server.tables.runtime import TableRuntime
from tute.server.wire.moves import move

GOLDEN = Path(__file__).parent.parent / "golden" / "store_v1"


@pytest.fixture()
def store(tmp_path: Path) -> Any:
    shutil.copy(GOLDEN / "store.sqlite", tmp_path / "store.sqlite")
    s = Store(f"sqlite:///{tmp_path / 'store.sqlite'}")
    yield s
    s.close()


def _as_then(shown: dict[str, Any]) -> dict[str, Any]:
    """A public event as that version showed it: a move's public form has since gained the
    move typed for a page (wire/moves.py), which must be the one its action names."""
    if "move" not in shown:
        return shown
    assert shown["kind"] == "action"
    assert shown["move"] == msgspec.to_builtins(move(parse_action(shown["action"])))
    return {k: v for k, v in shown.items() if k != "move"}


def test_every_table_of_yesterdays_store_replays_as_it_did(store: Store) -> None:
    expected = json.loads((GOLDEN / "expected.json").read_text(encoding="utf-8"))
    kinds: set[str] = set()
    for table_id, then in expected.items():
        record = store.load(table_id)
        assert record is not None, table_id
        state = replay(record.variant, record.robot_level, record.events, record.seats)
        m = state.match
        now = {"seq": state.seq, "history": [_as_then(e.data) for e in state.history],
               "over": None if m is None else m.is_over,
               "hand": None if m is None else m.hand_number,
               "points": None if m is None else list(m.score().points),
               "to_act": None if m is None else m.game.to_act,
               "annulled": None if m is None else m.annulled}
        assert now == then, table_id
        assert state.seats == {r.seat: r for r in record.seats}
        kinds |= {e.kind for e in record.events}
    assert kinds >= {"options", "seat", "start", "action", "next_hand", "match_over",
                     "practice", "invite", "automatic", "editing", "abandon",
                     "annul_vote", "annulled"}


def test_a_running_match_of_yesterdays_store_plays_on(store: Store) -> None:
    expected = json.loads((GOLDEN / "expected.json").read_text(encoding="utf-8"))
    running = [t for t, then in expected.items() if then["over"] is False
               and not any(e["kind"] == "practice" for e in then["history"])]
    assert len(running) == 1
    record = store.load(running[0])
    assert record is not None

    async def play_on() -> None:
        t, missing = TableRuntime.restore(record, store, Thinkers(workers=1), 100.0)
        assert not missing
        assert t.abandoned == {3} and t.invited == {77} and t.automatic == {3}
        start = next(e for e in record.events if e.kind == "start")
        assert t.escrow == f"1.{start.data['escrow']}" and not t.practice
        while t.match is not None and not t.match.is_over:
            to_act = t.match.game.to_act
            assert to_act is not None
            legal = t.match.game.view(to_act).legal
            assert await t.act(t.table_seat(to_act), str(legal[0]))
        t.shut()
    asyncio.run(play_on())
    again = store.load(running[0])
    assert again is not None and again.status == "over"
    assert [e.seq for e in again.events] == list(range(1, len(again.events) + 1))
    state = replay(again.variant, again.robot_level, again.events, again.seats)
    assert state.match is not None and state.match.is_over and not state.missing


def test_a_kept_match_of_yesterdays_store_reads_back(store: Store) -> None:
    kept = Kept(store.engine)
    with store.engine.connect() as c:
        rows = c.exec_driver_sql("SELECT table_id, number, status, result "
                                 "FROM tute_matches").all()
    assert {r[2] for r in rows} == {"over", "annulled"}
    for table_id, number, status, result in rows:
        done = replay_record(kept.record(table_id, number))
        if status == "over":
            assert list(done.match.score().points) == json.loads(result)["points"]


WON = HandResult((70, 60), (20, 0), (90, 60), (6, 4), 0, 0)
CONTRACT = HandResult((40, 90, 0), (0, 40, 0), (40, 130, 0), (3, 6, 1), None, 1, winners=(0, 2),
                      contract=Contract(1, 140, False))
POROTOS = HandResult((30, 50, 40), (0, 0, 0), (30, 50, 40), (2, 4, 3), None, 1, tute=None,
                     winners=(1, 2), porotos=(1, 0, 0), capote=None, void=False)
EVENTS: list[ev.TableEvent] = [
    ev.OptionsSet("parejas", "expert", 30.0, True, 50, False, False, True),
    ev.OptionsSet("habanero", "random", 0.0),
    ev.Seated(1, "Ana", False, "k" * 64, 7, "p" * 32), ev.Seated(2, "Ada (robot)", True),
    ev.Started(2**62, True, "9f2c"), ev.Started(5), ev.Practice("same_address"),
    ev.Acted(0, parse_action("Ao")), ev.Acted(3, parse_action("20o"), True), ev.HandEnded(2, WON),
    ev.MatchEnded(None, CONTRACT), ev.MatchEnded(1, POROTOS), ev.Invited(3, "Zoe"),
    ev.Settled([ev.SeatGain(0, 50, 20), ev.SeatGain(2, -100, 5)]), ev.Settled([]),
    ev.AutomaticSet(2, True), ev.Editing(False), ev.Abandoned(1), ev.AnnulVoted(0, [0, 2]),
    ev.AnnulRefused(2), ev.AnnulExpired(), ev.Annulled([0, 1]),
    ev.Said("a7", "Ana", 0, "¡hola!"), ev.Said("g1f", "Eva", -1, "ya", True),
]


@pytest.mark.parametrize("event", EVENTS, ids=lambda e: type(e).__name__)
def test_each_kind_of_event_round_trips_through_the_store(event: ev.TableEvent) -> None:
    row = ev.stored(5, event)
    again = ev.typed(Event(row.seq, row.kind, json.loads(json.dumps(row.data))))
    assert again == event
    shown = ev.public(5, event)
    assert shown["seq"] == 5 and shown["kind"] == row.kind
    secrets = {"seat": ("player", "where", "account"), "start": ("seed", "escrow")}
    for secret in secrets.get(row.kind, ()):
        assert secret not in shown                   # stays on the server


def test_what_is_not_an_event_is_refused_in_words() -> None:
    for kind, data in (("action", {"seat": "x", "action": "Ao"}), ("nonsense", {}),
                       ("start", {}), ("seat", {"seat": 1})):
        with pytest.raises(ev.EventError) as e:
            ev.typed(Event(4, kind, data))
        assert "4" in e.value.localized("es")
    assert ev.typed(Event(2, "seat", {"seat": 0, "name": "A", "kind": "robot"})) == \
        ev.Seated(0, "A", True)                       # the oldest form of a seat
    assert isinstance(msgspec.to_builtins(EVENTS[0]), dict)


def test_a_start_stored_before_attempts_has_the_matchs_own_escrow() -> None:
    from tute.core.variants import parse_variant
    from tute.server.tables.options import Options
    from tute.server.tables.state import TableState, apply

    state = TableState(Options(parse_variant("habanero"), "random", 0.0))
    apply(state, 1, ev.Started(5))
    assert state.escrow == "1" and state.matches == 1 and state.match is not None
    apply(state, 2, ev.Started(6, False, "ab12"))
    assert state.escrow == "2.ab12"
