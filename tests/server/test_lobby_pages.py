"""The lobby's live feed (``/lobby/ws``) and the help page of each variant
(``/help/{variant}``), over real HTTP and WebSockets."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from websockets.sync.client import connect

from server_harness import Server, until
from tute.core.variants import parse_variant
from tute.i18n import LANGS, load_catalog
from tute.server.tables.lobby import offered_variants
from tute.tools.rules_text import rules_summary


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(f"sqlite:///{tmp_path / 'l.db'}")
    yield s
    s.stop()


def test_the_lobby_feed_sends_the_tables_now_and_when_they_change(server: Server) -> None:
    with connect(f"ws://127.0.0.1:{server.port}/lobby/ws", open_timeout=10) as ws:
        first = json.loads(ws.recv(timeout=10))
        assert first == {"type": "tables", "tables": []}
        table = server.client().new_table("parejas", robots=False, name="Luis")
        listed = until(ws, lambda m: m["type"] == "tables" and bool(m["tables"]), timeout=10)
        (row,) = listed["tables"]
        assert row["id"] == table and row["status"] == "open" and row["partnerships"]
        assert [s["name"] for s in row["seats"]] == ["Luis"]
        ws.send("{}")                                  # a page's noise changes nothing
        other = server.client()
        assert other.post(f"/api/tables/{table}/seats",
                          {"seat": 2, "name": "Bea"}).status_code == 200
        seated = until(ws, lambda m: m["type"] == "tables" and len(m["tables"][0]["seats"]) == 2,
                       timeout=10)
        assert {s["seat"]: s["name"] for s in seated["tables"][0]["seats"]} == {0: "Luis", 2: "Bea"}


def test_the_lobby_feed_refuses_another_sites_page(server: Server) -> None:
    from websockets.exceptions import InvalidStatus, WebSocketException

    with pytest.raises((InvalidStatus, WebSocketException, OSError)), \
            connect(f"ws://127.0.0.1:{server.port}/lobby/ws", open_timeout=10,
                    additional_headers={"origin": "http://evil.example"}) as ws:
        ws.recv(timeout=5)


@pytest.mark.parametrize("lang", LANGS)
def test_every_offered_game_has_its_help_page_in_every_language(server: Server,
                                                                lang: str) -> None:
    http = server.client()
    words = load_catalog(lang)["web"]
    for v in offered_variants():
        r = http.get(f"/help/{quote(str(v))}?lang={lang}")
        assert r.status_code == 200, (str(v), r.text)
        assert r.headers["content-type"].startswith("text/html")
        page = r.text
        assert f'<html lang="{lang}">' in page
        title = words[f"web_preset_{v.preset}"]
        for line in rules_summary(v, lang, title):      # the rules in force, all of them
            assert _escaped(line) in page, (str(v), line)
        assert _escaped(words[f"web_preset_{v.preset}"]) in page
        assert "web_" not in page and "rank_word" not in page


def test_a_help_page_follows_the_options_of_the_table(server: Server) -> None:
    """Seed 001's "trump on trump" and "no tute" change what the page says."""
    http = server.client()
    plain = http.get("/help/online(players=2)?lang=es").text
    changed = http.get("/help/" + quote("online(players=2,stock_obligations=trump_on_trump,"
                                        "tute_set=off)") + "?lang=es").text
    v = parse_variant("online(players=2,stock_obligations=trump_on_trump,tute_set=off)")
    assert plain != changed
    for line in rules_summary(v, "es", "Tute online"):
        assert _escaped(line) in changed
    guinote = http.get("/help/guinote?lang=it").text
    assert "A 11, 3 10, R 4, S 3, C 2" in guinote and "(swap)" not in guinote
    assert "Guiñote" in http.get("/help/guinote?lang=es").text
    assert "sota" in http.get("/help/guinote?lang=es").text


def test_a_bad_variant_gets_a_page_that_says_so_and_runs_nothing(server: Server) -> None:
    http = server.client()
    r = http.get("/help/" + quote("<script>alert(1)</script>") + "?lang=es")
    assert r.status_code == 404
    assert "<script>" not in r.text and "&lt;script&gt;" in r.text
    r = http.get("/help/" + quote("habanero(players=9)") + "?lang=en")
    assert r.status_code == 404 and "players" in r.text


def _escaped(text: str) -> str:
    from html import escape

    return escape(text)
