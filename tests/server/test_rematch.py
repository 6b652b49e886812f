"""The rematch ("Otra con los mismos"): after a match, a person who is not the host
proposes another with the same seats; a refusal ends the proposal; once everybody agreed
it starts, the same people in the same seats.  Votes out of place are refused in words
and change nothing."""

from __future__ import annotations

import json
import time
from typing import Any

from server_harness import Playing, Server, two_at_a_table, until
from tute.server.wire.summary import RematchOpen


def _kind(kind: str) -> Any:
    return lambda m: m.get("type") == "event" and m["event"]["kind"] == kind


def _error(ws: Any) -> dict[str, Any]:
    got: dict[str, Any] = until(ws, lambda m: m.get("type") == "error")
    return got


def test_a_rematch_agreed_by_all_starts_with_the_same_people(db: str) -> None:
    s = Server(db)
    try:
        ana, bea, table = two_at_a_table(s)
        vera = s.account("Vera", "127.0.0.3")
        with vera.ws(table, watch=True) as wv, bea.ws(table) as wb:
            until(wv, _kind("state"))
            until(wb, _kind("state"))
            wb.send(json.dumps({"type": "rematch"}))           # before any match
            assert _error(wb)["key"] == "no_match_over"
            with Playing(ana, table) as a, Playing(bea, table) as b:
                time.sleep(0.3)
                assert ana.post(f"/api/tables/{table}/start").status_code == 200
                a.wait()
                b.wait()
            t = s.table(table)
            seats = {k: (r.name, r.kind) for k, r in t.seats.items()}
            wv.send(json.dumps({"type": "rematch"}))           # a spectator has no say
            assert _error(wv)["key"] == "not_seated"
            wb.send(json.dumps({"type": "rematch", "agree": False}))
            assert _error(wb)["key"] == "no_rematch_vote"      # nothing to refuse
            wb.send(json.dumps({"type": "rematch"}))           # Bea (not the host) asks
            voted = until(wv, _kind("rematch_vote"))["event"]
            assert voted["seat"] == 1 and voted["agreed"] == [1]
            assert t.rematch.open_vote() == RematchOpen(proposer=1, agreed=[1])
            seq = t.seq
            wb.send(json.dumps({"type": "rematch"}))           # again: nothing new
            wb.send(json.dumps({"type": "ping"}))
            until(wb, lambda m: m.get("type") == "pong")
            assert t.seq == seq
            # the host changes the game after Bea agreed: what she agreed to is void
            assert ana.post(f"/api/tables/{table}/options",
                            {"variant": "habanero(match_target=2)"}).status_code == 200
            assert t.rematch.open_vote() is None
            assert ana.post(f"/api/tables/{table}/options",
                            {"variant": "habanero"}).status_code == 200
            wb.send(json.dumps({"type": "rematch"}))           # asked anew
            until(wv, _kind("rematch_vote"))
            with ana.ws(table) as wa:
                state = until(wa, _kind("state"))
                assert state["table"]["rematch"] == {"proposer": 1, "agreed": [1]}
                wa.send(json.dumps({"type": "rematch", "agree": False}))
                assert until(wv, _kind("rematch_refused"))["event"]["seat"] == 0
                assert t.rematch.open_vote() is None and t.matches_started() == 1
                wb.send(json.dumps({"type": "rematch"}))       # asked again: agreed
                until(wa, _kind("rematch_vote"))
                wa.send(json.dumps({"type": "rematch", "agree": True}))
                until(wa, _kind("start"))
            assert t.matches_started() == 2 and t.match is not None and not t.match.is_over
            assert {k: (r.name, r.kind) for k, r in t.seats.items()} == seats
            assert t.rematch.open_vote() is None
            with bea.ws(table) as wb2:
                until(wb2, _kind("state"))
                wb2.send(json.dumps({"type": "rematch"}))      # in a running match
                assert _error(wb2)["key"] == "no_match_over"
            wb.send(json.dumps({"type": "rematch", "agree": "yes"}))
            assert _error(wb)["key"] == "request_malformed"
    finally:
        s.stop()
