"""Play it again from here over HTTP (``POST /api/games/{id}/again``): a kept hand
restarted at one of a seat's decisions at a new private practice table -- the same
cards, everything before the decision as it was, the person at that seat, robots at the
others; played to its end and kept; the deal hidden from everyone else; every bad ask
a typed error that makes no table."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest

from server_harness import Playing, Server, play_out, public, until
from tute.analysis.walk import restart_at, steps
from tute.core.errors import TuteError
from tute.core.game import Game
from tute.core.records import parse_record, replay
from tute.server.tables.events import OptionsSet, Seated, Started, stored
from tute.server.tables.state import replay as replay_table
from tute.server.tables.state import stage

SEED002 = Path(__file__).parent.parent.parent / "examples" / "seed002.tute"


def _decisions(record_text: str, seat: int) -> list[int]:
    done = replay(parse_record(record_text))
    return [i for i, (who, _a) in enumerate(done.games[0].history)
            if done.seat_maps[0][who] == seat]


def _nth_decision(record_text: str, seat: int, nth: int) -> int:
    """The seat's nth decision in the first hand, or its last where the hand ended
    sooner (a tute ends it at once: a random deal may give one in the second trick)."""
    mine = _decisions(record_text, seat)
    return mine[min(nth, len(mine) - 1)]


def test_a_kept_hand_is_played_again_from_a_decision(tmp_path: Path) -> None:
    s = Server(f"sqlite:///{tmp_path / 'a.db'}")
    try:
        ana = s.account("Ana")
        game = f"{play_out(ana, 'parejas(match_target=1)', robot_level='heuristic')}-1"
        text = ana.get(f"/api/games/{game}/record.tute").text
        original = replay(parse_record(text)).games[0]
        index = _nth_decision(text, 0, 4)                     # her fifth decision
        at = Game(original.variant, original.deal)
        for who, action in original.history[:index]:
            at.apply(who, action)
        r = ana.post(f"/api/games/{game}/again",
                     {"hand": 1, "seat": 0, "index": index, "robot_level": "heuristic"})
        assert r.status_code == 200, r.text
        table_id, seat = r.json()["id"], r.json()["seat"]
        assert seat == 0
        t = s.table(table_id)
        assert t.options.private and not t.options.spectators and not t.options.competitive
        assert t.match is not None
        g = t.match.game
        assert g.deal == original.deal and g.to_act == 0 and g.tricks_won == at.tricks_won
        assert list(g.history) == list(original.history[:index])
        staged = [e for e in public(t) if e["kind"] == "staged"]
        assert len(staged) == 1                              # the deal is not public
        assert set(staged[0]) == {"kind", "seq", "dealer", "game", "hand", "trick"}
        assert (staged[0]["game"], staged[0]["hand"], staged[0]["trick"]) == (game, 1, sum(at.tricks_won) + 1)
        with Playing(ana, table_id) as p:
            p.wait()
        again = f"{table_id}-1"
        kept = replay(parse_record(ana.get(f"/api/games/{again}/record.tute").text))
        played = kept.games[0]
        assert played.is_over and played.deal == original.deal
        assert list(played.history[:index]) == list(original.history[:index])
        bob = s.account("Bob")                               # her table was private
        assert bob.post(f"/api/games/{again}/again",
                        {"hand": 1, "seat": 0, "index": index}).status_code == 404
    finally:
        s.stop()


def _kind(kind: str) -> Callable[[dict[str, Any]], bool]:
    return lambda m: m.get("type") == "event" and m["event"]["kind"] == kind


def test_the_others_keep_their_names_as_robots(tmp_path: Path) -> None:
    """Played again, every other seat is a robot named after whoever sat there in the
    hand -- Ana's partner Lucía is "Lucía (robot)" (the table shows "Lucía" with a robot
    badge), the robots keep theirs -- not a person renamed "Bruno"."""
    s = Server(f"sqlite:///{tmp_path / 'n.db'}", robot_delay=0.0)
    try:
        ana, lucia = s.account("Ana"), s.account("Lucía", "127.0.0.2")
        table = ana.new_table("parejas(match_target=1)", robots=False,
                              robot_level="heuristic")
        assert lucia.post(f"/api/tables/{table}/seats", {"seat": 2, "name": "Lucía"}
                          ).status_code == 200
        assert ana.post(f"/api/tables/{table}/robots").status_code == 200
        with ana.ws(table) as wa, lucia.ws(table) as wl:
            until(wa, _kind("state"))
            until(wl, _kind("state"))
            assert ana.post(f"/api/tables/{table}/start").status_code == 200
            until(wa, _kind("start"))
            for w in (wa, wl):
                w.send(json.dumps({"type": "automatic", "on": True}))
            until(wa, _kind("match_over"), timeout=120)
        game = f"{table}-1"
        before = {r.seat: r.name for r in s.table(table).seats.values()}
        assert before[2] == "Lucía" and before[1].endswith(" (robot)")
        text = ana.get(f"/api/games/{game}/record.tute").text
        for who, seat, robots in ((ana, 0, (1, 2, 3)), (lucia, 2, (0, 1, 3))):
            r = who.post(f"/api/games/{game}/again",
                         {"hand": 1, "seat": seat, "index": _nth_decision(text, seat, 2)})
            assert r.status_code == 200, r.text
            again = s.table(r.json()["id"]).seats
            for other in robots:
                assert again[other].kind == "robot"
                assert again[other].name == (before[other] if other in (1, 3)
                                             else f"{before[other]} (robot)"), again
            assert again[seat].kind == "human" and again[seat].name == before[seat]
    finally:
        s.stop()


def test_bad_asks_make_no_table(tmp_path: Path) -> None:
    s = Server(f"sqlite:///{tmp_path / 'b.db'}")
    try:
        ana = s.account("Ana")
        game = f"{play_out(ana, 'parejas(match_target=1)', robot_level='heuristic')}-1"
        text = ana.get(f"/api/games/{game}/record.tute").text
        theirs, mine = _decisions(text, 1)[0], _decisions(text, 0)[0]
        tables = set(s.lobby.tables)
        url = f"/api/games/{game}/again"
        for body, status, key in (
                ({"hand": 1, "seat": 0, "index": theirs}, 404, "again_no_decision"),
                ({"hand": 2, "seat": 0, "index": 0}, 404, "again_no_decision"),
                ({"hand": 1, "seat": 7, "index": 0}, 404, "again_no_decision"),
                ({"hand": 1, "seat": 0, "index": 9999}, 404, "again_no_decision"),
                ({"hand": 1, "seat": 0}, 400, None),
                ({"hand": 1, "seat": 0, "index": -1}, 400, None),
                ({"hand": 1, "seat": 0, "index": mine, "sneaky": 1}, 400, None),
                ({"hand": 1, "seat": 0, "index": mine, "robot_level": "god"}, 400,
                 "unknown_bot"),
                ({"hand": 1, "seat": 0, "index": mine, "name": "   "}, 400, None)):
            bad = ana.post(url, body)
            assert bad.status_code == status and bad.json()["error"], (body, bad.text)
            assert key is None or bad.json()["key"] == key, (body, bad.text)
        assert ana.post("/api/games/zzz-1/again",
                        {"hand": 1, "seat": 0, "index": 0}).status_code == 404
        assert ana.post(f"/api/games/{game[:-2]}-9/again",
                        {"hand": 1, "seat": 0, "index": 0}).status_code == 404
        assert set(s.lobby.tables) == tables                # nothing was made
    finally:
        s.stop()


def test_a_staged_hand_is_rebuilt_from_the_stored_events() -> None:
    """A restart (or another process adopting the table) replays the ``staged`` event
    to the same position; one that cannot be dealt is refused before anything."""
    record = parse_record(SEED002.read_text(encoding="utf-8"))
    step = steps(record, 0)[20]
    again = restart_at(record, 0, step.hand, step.index)
    v = again.variant
    event = stage(v, again.game.deal, again.before, "abc-1", again.hand, again.trick)
    events = [OptionsSet(str(v), "heuristic", 0.0), Seated(0, "Ana", False, "k"),
              Seated(1, "Bruno (robot)", True), Started(7), event]
    state = replay_table(str(v), "heuristic", [stored(i + 1, e)
                                                for i, e in enumerate(events)])
    assert state.match is not None
    g = state.match.game
    assert g.deal == step.game.deal and list(g.history) == list(step.game.history)
    assert g.to_act == again.seat == step.seat
    broken = msgspec.structs.replace(event, hands=(event.hands[1], event.hands[1]))
    with pytest.raises((TuteError, ValueError)):
        replay_table(str(v), "heuristic", [stored(i + 1, e) for i, e in
                                           enumerate([*events[:4], broken])])
