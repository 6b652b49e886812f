"""Achievements in a real browser: Ana plays a competitive match by clicking against
Bea (a person at another address, over the socket); the table tells who earned what,
with its badge; the profile shows the badges, dates and progress -- on a desktop and on
a phone, with screenshots to look at."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from browser_kit import DESKTOP, PHONE, browsing, click, fast, needs_chromium, shot, wait_until
from server_harness import Playing, Server

pytestmark = needs_chromium


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(f"sqlite:///{tmp_path / 'ach.db'}")
    yield s
    s.stop()


def _log_in(page: object, port: int, name: str) -> None:
    page.goto(f"http://127.0.0.1:{port}/")  # type: ignore[attr-defined]
    page.wait_for_selector("#variant option", state="attached")  # type: ignore[attr-defined]
    page.click("#login-open")  # type: ignore[attr-defined]
    page.fill("#login-name", name)  # type: ignore[attr-defined]
    page.fill("#login-password", "naipes de la abuela")  # type: ignore[attr-defined]
    page.click("#login")  # type: ignore[attr-defined]
    page.wait_for_selector("#account-in:not([hidden])")  # type: ignore[attr-defined]


def test_an_achievement_told_at_the_table_and_seen_on_the_profile(server: Server) -> None:
    from tute.server.site.economy import winning_seats

    ana = server.account("Ana")
    bea = server.account("Bea", "127.0.0.2")
    table = ana.post("/api/tables", {"variant": "habanero", "name": "Ana",
                                     "competitive": True, "bet": 10}).json()["id"]
    assert bea.post(f"/api/tables/{table}/seats", {"seat": 1, "name": "Bea"}
                    ).status_code == 200
    with browsing() as browser, Playing(bea, table) as b:
        page = browser.new_context(viewport=DESKTOP).new_page()
        _log_in(page, server.port, "Ana")
        page.goto(f"http://127.0.0.1:{server.port}/?table={table}")
        page.wait_for_selector("#table:not([hidden])")
        fast(page)
        time.sleep(0.3)
        assert ana.post(f"/api/tables/{table}/start").status_code == 200
        for _ in range(1500):
            if not page.is_hidden("#after"):
                break
            legal = page.query_selector_all("#hand button[data-legal]")
            if legal and not page.query_selector("#trick[data-closed]"):
                click(legal[0])
            if page.is_visible("#count-ok"):
                click(page.locator("#count-ok"))
            page.wait_for_timeout(80)
        b.wait()
        t = server.lobby.tables[table]
        assert t.match is not None
        won = 0 in winning_seats(t.match, list(t.seats))
        page.wait_for_selector("#count .earned-news", timeout=15000)
        news = page.inner_text("#count")
        said = "¡Consigues «Primera victoria»!" if won else "¡Bea consigue «Primera victoria»!"
        assert said in news, news
        badge = page.query_selector("#count .earned-news svg.ach-badge")
        assert badge is not None
        box = badge.bounding_box()
        assert box is not None and box["width"] >= 30 and box["height"] >= 30   # in sight
        shot(page, "achievement-told-desktop")
        mine = {a["key"]: a for a in ana.get("/api/me").json()["achievements"]}
        page.click("#back")
        page.wait_for_selector("#lobby:not([hidden])")
        page.click("#profile-open")
        page.wait_for_selector("#profile-achievements li")
        earned = page.query_selector_all("#profile-achievements li.earned")
        assert len(earned) == sum(1 for a in mine.values() if a["at"] is not None)
        assert ("Primera victoria" in page.inner_text("#profile-achievements li.earned")
                if won else not earned or "Primera victoria" not in
                " ".join(e.inner_text() for e in earned))
        habanero = page.inner_text("#profile-achievements li[data-key='games_habanero']")
        assert "Asiduo: Tute habanero" in habanero and "1 de 10" in habanero
        assert "Toca un logro" in page.inner_text("#profile-ach-detail")
        page.click("#profile-achievements li[data-key='games_habanero']")
        assert page.inner_text("#profile-ach-detail") == \
            "Asiduo: Tute habanero · Juega 10 partidas de Tute habanero."
        # a badge is drawn (the sprite's drawing, not an empty box): its pixels vary
        first = page.query_selector("#profile-achievements li svg.ach-badge")
        assert first is not None
        png = first.screenshot()
        assert len(set(png[100:4000])) > 20
        page.query_selector("#profile-achievements").scroll_into_view_if_needed()
        shot(page, "achievements-profile-desktop")
        # the rankings, per game: the stored results (XP, played, won), Ana's place marked
        page.click("#profile-close")
        page.click("#rank-periods button[data-period='day']")
        page.select_option("#rank-game", "habanero")
        wait_until(page, "document.querySelectorAll('#rank-rows tr').length === 2")
        rows = page.eval_on_selector_all(   # each cell's own text (the face is a drawing)
            "#rank-rows tr", "(trs) => trs.map((tr) => Array.from(tr.cells).map((td) => "
            "Array.from(td.childNodes).filter((n) => n.nodeType === 3)"
            ".map((n) => n.textContent).join('').trim()))")
        stored = ana.get("/api/rankings?period=day&game=habanero").json()
        assert page.query_selector_all("#rank-rows tr td svg.avatar")
        assert rows == [
            [str(x["place"]), x["name"], str(x["xp"]), "1",
             f"{x['won']} ({100 * x['won']} %)"] for x in stored["rows"]]
        assert {x["name"]: x["xp"] for x in stored["rows"]} == (
            {"Ana": 20, "Bea": 5} if won else {"Ana": 5, "Bea": 20})
        mine = page.query_selector("#rank-rows tr.mine")
        assert mine is not None and "Ana" in mine.inner_text()
        place = 1 if won else 2
        assert page.inner_text("#rank-mine") == f"Tu puesto: {place}.º de 2 · " \
            f"{20 if won else 5} XP"
        page.query_selector("#rankings").scroll_into_view_if_needed()
        shot(page, "rankings-per-game-desktop")
        table = page.query_selector("#rankings table").bounding_box()
        panel = page.query_selector("#rankings").bounding_box()
        assert table is not None and panel is not None
        assert table["x"] + table["width"] <= panel["x"] + panel["width"]   # inside it
        page.select_option("#rank-game", "guinote")
        wait_until(page, "!document.querySelector('#rank-empty').hidden")
        assert page.inner_text("#rank-mine") == "Aún no estás en esta clasificación."
        phone = browser.new_context(viewport=PHONE).new_page()
        _log_in(phone, server.port, "Ana")
        phone.click("#profile-open")
        phone.wait_for_selector("#profile-achievements li")
        phone.query_selector("#profile-achievements").scroll_into_view_if_needed()
        shot(phone, "achievements-profile-phone")
        row = phone.query_selector("#profile-achievements li")
        assert row is not None
        r = row.bounding_box()
        assert r is not None and r["x"] >= 0 and r["x"] + r["width"] <= PHONE["width"] + 1
