"""Deals anyone can verify, over the wire: the table publishes each hand's commitment
before the deal, a person's client adds its seed, the server seed is revealed when the
hand ends, and the kept record carries every proof -- ``tute verify`` accepts it and
rejects it with one card moved, one seed changed or a hand dealt before its commitment.
The secret seeds never reach a page before their time."""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from server_harness import Server, recv, until
from tute.core.records import parse_record
from tute.tools.verify import verify_record


def _kind(kind: str) -> Any:
    return lambda m: m.get("type") == "event" and m["event"]["kind"] == kind


def _error(ws: Any) -> str:
    return str(until(ws, lambda m: m.get("type") == "error")["key"])


def _verify(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tute.cli", "verify", str(path), "--lang",
                           "en"], capture_output=True, text=True, timeout=60)


def test_a_match_dealt_verifiably_from_commitment_to_tute_verify(db: str, tmp_path: Path
                                                                 ) -> None:
    s = Server(db, robot_delay=0.0)
    try:
        ana = s.account("Ana")
        table = ana.new_table("habanero(match_target=2)", robot_level="heuristic")
        vera = s.account("Vera", "127.0.0.3")
        with ana.ws(table) as w, vera.ws(table, watch=True) as wv:
            state = until(w, _kind("state"))
            until(wv, _kind("state"))
            first = state["deal"]
            assert first["algorithm"] == "hmac-sha256-fy/1"
            assert re.fullmatch(r"[0-9a-f]{64}", first["next"]) and first["seeded"] == []
            # what no client may add
            wv.send(json.dumps({"type": "seed", "seed": "spectator"}))
            assert _error(wv) == "not_seated"
            for bad in ("a b", "", "ñ", "x" * 64 + "y", 7):
                w.send(json.dumps({"type": "seed", "seed": bad}))
                assert _error(w) in ("bad_client_seed", "request_malformed"), bad
            w.send(json.dumps({"type": "seed", "seed": "ana-seed-1"}))
            given = until(w, _kind("client_seed"))
            assert given["event"]["seat"] == 0 and given["deal"]["seeded"] == [0]
            w.send(json.dumps({"type": "seed", "seed": "again"}))
            assert _error(w) == "seed_given"
            assert ana.post(f"/api/tables/{table}/start").status_code == 200
            started = until(w, _kind("start"))
            public = started["event"]
            assert set(public) >= {"commitment", "seq"}
            assert not {"seed", "next_seed", "deal", "escrow"} & set(public)
            deal = started["deal"]
            assert deal["hand"]["commitment"] == first["next"]
            assert deal["hand"]["clients"] == [{"seat": 0, "client_seed": "ana-seed-1"}]
            assert deal["next"] == public["commitment"] != first["next"]
            w.send(json.dumps({"type": "automatic", "on": True}))
            commitments = [first["next"], public["commitment"]]
            while True:                            # each hand's seed revealed at its end
                m = recv(w, 120)
                if m.get("type") != "event":
                    continue
                e = m["event"]
                assert "next_seed" not in e and "deal" not in e
                if e["kind"] in ("next_hand", "match_over"):
                    k = len(commitments) - 2       # the hand that ended
                    digest = hashlib.sha256(bytes.fromhex(e["revealed"])).hexdigest()
                    assert digest == commitments[k]
                    assert m["deal"]["revealed"] == {"commitment": digest,
                                                     "server_seed": e["revealed"]}
                    if e["kind"] == "match_over":
                        break
                    commitments.append(e["commitment"])
        hands = len(commitments) - 1
        # the kept record carries every proof, and tute verify derives every deal again
        r = ana.get(f"/api/games/{table}-1/record.tute")
        assert r.status_code == 200
        record = parse_record(r.text)
        assert [c.verdict for c in verify_record(record)] == ["ok"] * hands
        assert record.hands[0].proof is not None
        assert record.hands[0].proof.client_seeds[0][:2] == (0, "ana-seed-1")
        path = tmp_path / "kept.tute"
        path.write_text(r.text, encoding="utf-8")
        done = _verify(path)
        assert done.returncode == 0, done.stderr
        assert done.stdout.count("verified") == hands
        # one seed changed, a hand dealt before its commitment, one card moved
        seed = re.search(r'\[ServerSeed "([0-9a-f]{64})"\]', r.text)
        assert seed is not None
        changed = r.text.replace(seed.group(1), "ab" * 32, 1)
        path.write_text(changed, encoding="utf-8")
        done = _verify(path)
        assert done.returncode == 1 and "does NOT match" in done.stdout
        dealt = re.search(r'\[Dealt "(\d+)"\]', r.text)
        assert dealt is not None
        early = r.text.replace(dealt.group(0), '[Dealt "0"]', 1)
        path.write_text(early, encoding="utf-8")
        done = _verify(path)
        assert done.returncode == 1 and "before its commitment" in done.stdout
        deck = re.search(r'\[Deck "([^"]+)"\]', r.text)
        assert deck is not None
        cards = deck.group(1).split()
        cards[-1], cards[-2] = cards[-2], cards[-1]      # the last two cards swapped
        moved = r.text.replace(deck.group(1), " ".join(cards), 1)
        path.write_text(moved, encoding="utf-8")
        done = _verify(path)
        assert done.returncode == 1, done.stdout      # not the seeds' deck, or not a replay
    finally:
        s.stop()


def test_a_restarted_table_deals_the_same_verifiable_hands(db: str) -> None:
    """The pending commitment and the seeds given are events: a table rebuilt from its
    store deals exactly what it would have dealt."""
    s = Server(db, robot_delay=0.0)
    try:
        ana = s.account("Ana")
        table = ana.new_table("parejas")
        with ana.ws(table) as w:
            until(w, _kind("state"))
            w.send(json.dumps({"type": "seed", "seed": "kept"}))
            until(w, _kind("client_seed"))
        runtime = s.table(table)
        pending, given = runtime.state.pending, dict(runtime.state.client_seeds)
        assert pending is not None and given[0][0] == "kept"
    finally:
        s.stop()
    s = Server(db, robot_delay=0.0)
    try:
        again = s.table(table)
        assert again.state.pending == pending and again.state.client_seeds == given
    finally:
        s.stop()
