"""A duplicate series in a real browser (issue 33): on a phone, a person finds the open
series in the lobby, plays its deal at a table of its own, and from the table's end goes
to the series' page: the standings with the field (another person played the deal
before), the deal with the field's results drawn on a line and the link to its review
("¿Podía ganar?"); then, the series closed, on a desktop: the profile lists the series
with the place, and its page the master seed, the export to verify and the field's
plays."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import update

from browser_kit import (
    DESKTOP,
    PHONE,
    browsing,
    click,
    fast,
    inside_width,
    needs_chromium,
    register,
    shot,
    wait_until,
)
from server_harness import Server, until
from tute.server.db.schema import series as series_rows
from tute.server.site.series import SeriesBook

pytestmark = needs_chromium


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(f"sqlite:///{tmp_path / 'series.db'}", robot_delay=0.0)
    yield s
    s.stop()


def test_a_person_plays_a_series_deal_and_sees_the_field(server: Server) -> None:
    book = SeriesBook(server.lobby.store.engine)
    made = book.create("habanero", 1, "heuristic", 2.0)
    bea = server.account("Bea", "127.0.0.2")                  # the field: Bea played it
    r = bea.post(f"/api/series/{made.id}/play")
    assert r.status_code == 200, r.text
    with bea.ws(r.json()["id"]) as w:
        until(w, lambda m: m.get("event", {}).get("kind") == "state")
        w.send(json.dumps({"type": "automatic", "on": True}))
        until(w, lambda m: m.get("event", {}).get("kind") == "match_over", 120)

    with browsing() as browser:
        page = browser.new_context(viewport=PHONE).new_page()
        register(page, server.port, "Ana")
        fast(page)
        page.wait_for_selector(f"#series-list button[data-series='{made.id}']")
        listed = page.inner_text("#series-list")
        assert "Tute habanero" in listed or "habanero" in listed.lower(), listed
        assert "1 mano" in listed and "cierra en" in listed, listed
        page.locator("#series-panel").scroll_into_view_if_needed()
        inside_width(page, f"#series-list button[data-series='{made.id}']")
        shot(page, "series-phone-lobby")
        page.click(f"#series-list button[data-series='{made.id}']")
        page.wait_for_selector("#series-box:not([hidden])")
        assert page.inner_text("#series-progress") == "jugadas 0 de 1"
        assert page.is_visible("#series-no-standings")            # Bea's result: hidden
        assert "Bea" not in page.inner_text("#series-box")
        page.click("#series-play")
        page.wait_for_selector("#hand button.card")
        assert page.is_hidden("#annul")            # a series' deal is played out
        (table,) = [tid for tid, t in server.lobby.tables.items()
                    if t.options.series == made.id and t.seat_of(None) is None
                    and any(row.name == "Ana" for row in t.seats.values())]
        for _ in range(900):                                      # the deal, played out
            if not page.is_hidden("#after"):
                break
            if not page.is_hidden("#count-ok"):
                click(page.locator("#count-ok"))
            legal = page.query_selector_all("#hand button[data-legal]")
            if legal and not page.query_selector("#trick[data-closed]"):
                click(legal[0])
            page.wait_for_timeout(100)
        page.wait_for_selector("#series-see:not([hidden])")
        assert page.is_hidden("#again") and page.is_hidden("#rematch")
        # a series of one deal, played: no "next deal" to offer (it led to an error)
        wait_until(page, "document.querySelector('#series-next').hidden")
        shot(page, "series-phone-end")
        page.click("#series-see")
        page.wait_for_selector("#series-box:not([hidden]) #series-deals li")
        assert page.inner_text("#series-progress") == "jugadas 1 de 1"
        rows = page.query_selector_all("#series-rows tr")
        names = sorted(r.query_selector("td:nth-child(2)").inner_text() for r in rows)
        assert names == ["Ana", "Bea"]
        mine = page.inner_text("#series-rows tr.mine")
        assert "Ana" in mine
        deal = page.inner_text("#series-deals li")
        assert "Mano 1" in deal and "2 resultados" in deal and "el mejor" in deal, deal
        assert page.query_selector_all("#series-deals li .field-strip circle") != []
        dots = page.query_selector_all("#series-deals li .field-strip circle")
        assert len(dots) == 2                       # Bea's and Ana's (golden)
        for dot in dots:                            # on the strip, not off its ends
            assert 0 <= float(dot.get_attribute("cx") or -1) <= 120
        assert len(page.query_selector_all("#series-deals li .field-strip circle.you")) == 1
        link = page.get_attribute("#series-deals li a.could-win", "href")
        assert link is not None and link.startswith(f"/games/{table}-1")
        assert page.is_hidden("#series-play") and page.is_visible("#series-all-done")
        page.locator("#series-box").scroll_into_view_if_needed()
        for sel in ("#series-rows tr.mine", "#series-deals li .field-strip",
                    "#series-deals li a.could-win"):
            inside_width(page, sel)
        shot(page, "series-phone-page")

        with server.lobby.store.engine.begin() as c:            # the series closes
            c.execute(update(series_rows).where(series_rows.c.id == made.id)
                      .values(closes=made.opens))
        desk = browser.new_context(viewport=DESKTOP).new_page()
        desk.goto(f"http://127.0.0.1:{server.port}/")
        desk.context.add_cookies(page.context.cookies())
        desk.reload()
        desk.wait_for_selector("#account-in:not([hidden])")
        desk.click("#profile-open")
        desk.wait_for_selector("#profile-series li button")
        text = desk.inner_text("#profile-series")
        assert "jugadas 1 de 1" in text and "de 2" in text, text
        desk.click("#profile-series li button")
        desk.wait_for_selector("#series-box:not([hidden])")
        inside_width(desk, "#series-deals li .field-strip")
        assert made.master in desk.inner_text("#series-master")      # closed: revealed
        assert desk.get_attribute("#series-export", "href") == \
            f"/api/series/{made.id}/export"
        got = desk.request.get(f"http://127.0.0.1:{server.port}/api/series/{made.id}/export")
        assert got.status == 200 and made.master in got.text()     # the download works
        desk.click("#series-deals li details.field summary")
        field = desk.query_selector_all("#series-deals li details.field li")
        assert len(field) == 2 and all(li.query_selector("a") for li in field)
        assert "Ana" in desk.inner_text("#series-deals li details.field li.mine")
        shot(desk, "series-desktop-page")
