"""The analysis of a match a person opened from a file (the replay page's "Abrir una
partida"): named by the digest of its record (``file-...``), judged like a kept match's
when the file's text is sent again -- the file itself kept nowhere -- and every bad ask
a typed error that starts nothing: another file under this name, a bad name, a body too
large, too many reads."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server_harness import Client, Server
from tute.analysis import GRADES, Settings
from tute.core.notation import format_notation
from tute.core.records import parse_record, replay
from tute.server.tables import review
from tute.server.wire import edge

SEED002 = Path(__file__).resolve().parents[2] / "examples" / "seed002.tute"
QUICK = Settings(min_samples=4, max_samples=4)


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(f"sqlite:///{tmp_path / 'files.db'}", analysis=QUICK)
    yield s
    s.stop()


def _until_done(c: Client, game: str, lang: str = "es") -> dict[str, Any]:
    deadline = time.time() + 120
    while time.time() < deadline:
        body: dict[str, Any] = c.get(
            f"/api/games/{game}/analysis?hand=1&seat=0&lang={lang}").json()
        if body["status"] == "done":
            return body
        assert body["status"] == "running", body
        time.sleep(0.05)
    raise AssertionError("the analysis never finished")


def test_an_opened_match_is_judged_by_its_name_and_kept(server: Server) -> None:
    c = server.client()
    text = SEED002.read_text(encoding="utf-8")
    opened = c.post("/api/records/open", {"text": text}).json()
    game = opened["game"]["file"]
    record = parse_record(text)
    assert game == review.file_id(record) and edge.FILE_ID.fullmatch(game)
    # the same match in the portable notation, second of two: the same name
    tpn = format_notation([record, record])
    assert c.post("/api/records/open", {"text": tpn, "game": 2}).json()["game"]["file"] \
        == game
    assert c.get(f"/api/games/{game}/analysis?hand=1&seat=0").json() == {"status": "none"}
    r = c.post(f"/api/games/{game}/analysis", {"text": tpn, "game": 2, "hand": 1, "seat": 0})
    assert r.status_code == 202 and r.json()["status"] == "running", r.text
    done = replay(record)
    mine = [(i, str(a)) for i, (who, a) in enumerate(done.games[0].history)
            if done.seat_maps[0][who] == 0]
    body = _until_done(c, game)
    assert [(d["index"], d["played"]) for d in body["decisions"]] == mine
    assert all(d["grade"] in GRADES for d in body["decisions"])
    english = _until_done(c, game, "en")
    assert english["decisions"][0]["played_words"] != body["decisions"][0]["played_words"]
    # kept: another person, another process later, reads it without the file
    other = server.client()
    assert other.get(f"/api/games/{game}/analysis?hand=1&seat=0").json()["status"] == "done"
    again = other.post(f"/api/games/{game}/analysis", {"text": text, "hand": 1, "seat": 0})
    assert again.status_code == 200 and again.json()["status"] == "done"
    with server.lobby.store.engine.connect() as conn:     # kept: the judgement, no file
        from sqlalchemy import select

        from tute.server.db.schema import analyses, matches
        rows = conn.execute(select(analyses.c.table_id, analyses.c.data)).all()
        assert [r[0] for r in rows] == [game] and "Ada" not in rows[0][1]
        assert conn.execute(select(matches)).first() is None


def test_bad_asks_about_a_file_are_refused_and_start_nothing(server: Server) -> None:
    c = server.client()
    text = SEED002.read_text(encoding="utf-8")
    game = c.post("/api/records/open", {"text": text}).json()["game"]["file"]
    other = text.replace('[Seat1 "Ada"]', '[Seat1 "Eva"]')
    assert other != text
    refusals: list[tuple[str, dict[str, object], int, str]] = [
        (game, {"text": other, "hand": 1, "seat": 0}, 400, "analysis_not_this_file"),
        (game, {"text": "hello", "hand": 1, "seat": 0}, 400, "record_error"),
        (game, {"text": text, "hand": 1, "seat": 0, "game": 2}, 400, "record_error"),
        (game, {"text": text, "hand": 9, "seat": 0}, 404, "no_such_hand"),
        (game, {"text": text, "hand": 1, "seat": 5}, 404, "analysis_no_seat"),
        (game, {"hand": 1, "seat": 0}, 400, "request_malformed"),      # no text
        (game, {"text": text, "hand": 1, "seat": 0, "more": 1}, 400, "request_malformed"),
        ("file-" + "0" * 26, {"text": text, "hand": 1, "seat": 0}, 404, "no_such_game"),
        ("file-" + "G" * 27, {"text": text, "hand": 1, "seat": 0}, 404, "no_such_game"),
    ]
    for name, body, status, key in refusals:
        r = c.post(f"/api/games/{name}/analysis", body)
        assert (r.status_code, r.json()["key"]) == (status, key), (name, body, r.text)
    assert c.get(f"/api/games/{game}/analysis?hand=1&seat=0").json() == {"status": "none"}
    with server.lobby.store.engine.connect() as conn:
        from sqlalchemy import func, select

        from tute.server.db.schema import analyses
        assert conn.execute(select(func.count()).select_from(analyses)).scalar() == 0
    # a whole record may be sent on this path, not on a kept match's
    padded = text + "".join(f"; {i:06d} {'x' * 90}\n" for i in range(200))    # ~20 KB
    assert len(padded.encode()) > 16 * 1024
    assert c.post(f"/api/games/{game}/analysis", {"text": padded, "hand": 1, "seat": 5}
                  ).json()["key"] == "analysis_no_seat"                     # read: allowed
    big = c.post("/api/games/abc-1/analysis", {"text": padded, "hand": 1, "seat": 0})
    assert big.status_code == 413 and big.json()["key"] == "request_too_large"


def test_reading_files_to_judge_is_rationed(server: Server) -> None:
    c = server.client()
    text = SEED002.read_text(encoding="utf-8")
    game = c.post("/api/records/open", {"text": text}).json()["game"]["file"]
    other = text.replace('[Seat1 "Ada"]', '[Seat1 "Eva"]')
    keys = [c.post(f"/api/games/{game}/analysis", {"text": other, "hand": 1, "seat": 0}
                   ).json()["key"] for _ in range(review.FILE_READS + 1)]
    assert keys[:-1] == ["analysis_not_this_file"] * review.FILE_READS
    assert keys[-1] == "too_many_requests"
