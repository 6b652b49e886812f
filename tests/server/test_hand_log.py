"""The hand's log ("historial de la mano"): every trick with who took it and every
announcement where it came, for every game; only what everybody saw; over the socket
to a player and a spectator alike."""

from __future__ import annotations

import json
from typing import Any

import pytest

from server_harness import Server, until
from tute.bots import HeuristicBot
from tute.core.actions import Play
from tute.core.driver import step
from tute.core.game import Game
from tute.core.variants import PRESETS, parse_variant
from tute.server.wire.views import encode, hand_log


def wire_log(g: Game) -> list[dict[str, Any]]:
    """The hand's log as it goes over the wire."""
    sent: list[dict[str, Any]] = json.loads(encode(hand_log(g)))
    return sent


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_log_is_the_hand_trick_by_trick(preset: str) -> None:
    v = parse_variant(preset)
    for seed in range(3):
        g = Game.new(v, seed=seed)
        bots = [HeuristicBot(s) for s in range(g.players)]
        steps = 0
        while not g.is_over:
            log = wire_log(g)
            plays = [(s, a.card.code) for s, a in g.history if isinstance(a, Play)]
            tricks = [e for e in log if e["kind"] == "trick"]
            assert [tuple(c) for e in tricks for c in e["cards"]] == plays
            assert [e["n"] for e in tricks] == list(range(1, len(tricks) + 1))
            whole = [e for e in tricks if len(e["cards"]) == v.players_dealt]
            assert [e["winner"] for e in whole] == list(g.trick_winners)
            assert all(e["winner"] is None for e in tricks if e not in whole)
            said = [(e["seat"], e["action"]) for e in log if e["kind"] == "said"]
            assert said == [(s, str(a)) for s, a in g.history if not isinstance(a, Play)]
            if not step(g, bots):
                break
            steps += 1
        assert steps > 0


def test_the_log_over_the_socket_says_only_what_everybody_saw(db: str) -> None:
    s = Server(db)
    try:
        ana = s.account("Ana")
        table = ana.new_table("parejas", name="Ana")
        vera = s.account("Vera", "127.0.0.3")
        with ana.ws(table) as wa, vera.ws(table, watch=True) as wv:
            until(wa, lambda m: m.get("event", {}).get("kind") == "state")
            wa.send(json.dumps({"type": "log"}))
            refused = until(wa, lambda m: m.get("type") == "error")
            assert refused["key"] == "no_match_running" and refused["message"]
            assert ana.post(f"/api/tables/{table}/start").status_code == 200
            until(wa, lambda m: m.get("view", {}).get("legal"))   # robots played to Ana
            t = s.table(table)
            assert t.match is not None
            for w in (wa, wv):
                w.send(json.dumps({"type": "log"}))
                got = until(w, lambda m: m.get("type") == "log")
                assert got["entries"] == wire_log(t.match.game)
                assert got["hand"] == 1
                text = json.dumps(got)
                hidden = [c.code for s_ in range(4) for c in t.match.game.hand(s_)]
                assert not any(f'"{code}"' in text for code in hidden)   # no card in a hand
            wa.send(json.dumps({"type": "log", "hand": 1}))
            assert until(wa, lambda m: m.get("type") == "error")["key"] == "request_malformed"
    finally:
        s.stop()
