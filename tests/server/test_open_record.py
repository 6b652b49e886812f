"""A record from a person's own computer, opened on the replay page: ``.tute`` or
``.tpn``, read and replayed by the server's rules and kept nowhere; what is not a record
is refused in words, and a file too large is refused before it is read."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from server_harness import Server
from tute.core.notation import format_notation
from tute.core.records import parse_record

SEED002 = Path(__file__).resolve().parents[2] / "examples" / "seed002.tute"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(f"sqlite:///{tmp_path_factory.mktemp('open') / 'o.db'}")
    yield s
    s.stop()


def test_a_record_and_its_notation_replay_alike(server: Server) -> None:
    c = server.client()
    text = SEED002.read_text(encoding="utf-8")
    record = parse_record(text)
    tpn = format_notation([record, record])            # two matches in one file
    one = c.post("/api/records/open", {"text": text})
    assert one.status_code == 200, one.text
    body = one.json()
    assert body["game"]["names"] == ["Tú", "Ada"] and body["game"]["games"] == 1
    assert body["game"]["result"]["winner"] is None             # a match to 5, 1-0
    steps = body["replay"]["steps"]
    assert steps[0]["move"] is None and steps[-1]["result"] is not None
    two = c.post("/api/records/open", {"text": tpn, "game": 2}).json()
    assert two["game"]["games"] == 2 and two["replay"]["steps"] == steps
    # nothing was kept: the person has no game, the site no new match
    assert c.get("/api/games").status_code in (200, 401)
    with server.lobby.store.engine.connect() as conn:
        from sqlalchemy import func, select

        from tute.server.db.schema import matches
        assert conn.execute(select(func.count()).select_from(matches)).scalar() == 0


@pytest.mark.parametrize(("body", "key"), [
    ({"text": "[Event \"x\"]\n"}, "record_error"),
    ({"text": "% TPN 1\n[Board \"1\"]\n"}, "record_error"),
    ({"text": "hello"}, "record_error"),
    ({"text": 5}, "request_malformed"),
    ({"text": "x", "hand": 0}, "request_malformed"),
    ({"text": "x", "extra": 1}, "request_malformed"),
    ({}, "request_malformed"),
])
def test_what_is_not_a_record_is_refused_in_words(server: Server, body: dict[str, object],
                                                   key: str) -> None:
    r = server.client().post("/api/records/open", body)
    assert r.status_code in (400, 404) and r.json()["key"] == key, r.text
    assert r.json()["error"]


def test_a_moved_card_is_named_by_its_line(server: Server) -> None:
    text = SEED002.read_text(encoding="utf-8").replace("1. 0 swap, 0 2c", "1. 0 swap, 0 3c")
    r = server.client().post("/api/records/open", {"text": text})
    assert r.status_code == 400 and r.json()["key"] == "record_error"
    assert "3c" in r.json()["error"]


def test_a_hand_or_game_beyond_the_file_and_a_file_too_large(server: Server) -> None:
    c = server.client()
    text = SEED002.read_text(encoding="utf-8")
    r = c.post("/api/records/open", {"text": text, "hand": 2})
    assert r.status_code == 404 and r.json()["key"] == "no_such_hand"
    r = c.post("/api/records/open", {"text": text, "game": 2})
    assert r.status_code == 400 and r.json()["key"] == "record_error"
    big = c.post("/api/records/open", {"text": "x" * (300 * 1024)})
    assert big.status_code == 413 and big.json()["key"] == "request_too_large"
    # another route keeps the ordinary limit
    other = c.post("/api/tables", {"variant": "x" * (20 * 1024)})
    assert other.status_code == 413


@pytest.mark.parametrize(("lang", "said"), [
    ("es", "línea 14: asiento 0 3c: no tienes el 3 de copas"),
    ("pt", "linha 14: lugar 0 3c: você não tem o 3 de copas"),
    ("it", "riga 14: posto 0 3c: non hai il 3 di coppe"),
    ("en", "line 14: seat 0 3c: you do not hold the 3 of copas"),
])
def test_a_bad_record_is_refused_in_the_pages_language(server: Server, lang: str,
                                                       said: str) -> None:
    """What is wrong with a file, and the rule behind it, in the reader's language --
    not the notation's English."""
    text = SEED002.read_text(encoding="utf-8").replace("1. 0 swap, 0 2c", "1. 0 swap, 0 3c")
    r = server.client().post(f"/api/records/open?lang={lang}", {"text": text})
    assert r.status_code == 400 and r.json()["error"] == said, r.text
    tpn = format_notation([parse_record(SEED002.read_text(encoding="utf-8"))])
    r = server.client().post(f"/api/records/open?lang={lang}", {"text": tpn, "game": 3})
    whole = {"es": "el archivo tiene 1 partida, no la 3", "en": "the file holds 1 match, not 3",
             "pt": "o ficheiro tem 1 partida, não a 3", "it": "il file ha 1 partita, non la 3"}
    assert r.json()["error"] == whole[lang], r.text            # the whole file's: no line
