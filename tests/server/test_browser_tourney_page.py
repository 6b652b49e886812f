"""A tournament's page, looked at in a real browser (issue 46's low findings): the
header's chips follow the entry fee at once (paid on entering, back on leaving); a
finished tournament offers its download (JSON for ``tute verify``, or TPN); the
standings' tie-breaks are explained (an abbr's title and a legend); and a tournament's
table says that it is one, and which round."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import update

from browser_kit import PHONE, browsing, needs_chromium, register, shot, wait_until
from server_harness import Server
from tute.server.db.schema import tourneys
from tute.server.site.tourneys import TourneyBook

pytestmark = needs_chromium


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(f"sqlite:///{tmp_path / 'tourney.db'}", robot_delay=0.0)
    yield s
    s.stop()


def _chips(page: Any) -> str:
    return str(page.inner_text("#me-chips"))


def test_the_fee_the_download_and_the_tie_breaks(server: Server) -> None:
    book = TourneyBook(server.lobby.store.engine)
    copa = book.create("Copa de Otoño", "habanero", 3, 20, 30, "random", time.time() + 3600)
    past = book.create("Copa de Verano", "habanero", 3, 0, 30, "random", time.time() + 3600)
    with server.lobby.store.engine.begin() as c:          # over (no games: an empty file)
        c.execute(update(tourneys).where(tourneys.c.id == past.id).values(status="over"))
    with browsing() as browser:
        page = browser.new_context(viewport=PHONE).new_page()
        page.on("dialog", lambda d: d.accept())
        register(page, server.port, "Ana")
        before = _chips(page)
        assert "1000" in before.replace(".", "").replace(",", ""), before
        page.wait_for_selector(f"#tourney-list button[data-tourney='{copa.id}']")
        page.click(f"#tourney-list button[data-tourney='{copa.id}']")
        page.click("#tourney-box:not([hidden]) #tourney-join:not([hidden])")
        page.wait_for_selector("#tourney-leave:not([hidden])")
        wait_until(page, "document.getElementById('me-chips').textContent.includes('980')")
        page.click("#tourney-leave")                     # the fee back, before the start
        page.wait_for_selector("#tourney-join:not([hidden])")
        wait_until(page, "document.getElementById('me-chips').textContent === "
                         f"{before!r}")
        assert page.is_hidden("#tourney-export")          # not over: nothing to download

        page.click("#tourney-close")
        page.click(f"#tourney-list button[data-tourney='{past.id}']")
        page.wait_for_selector("#tourney-box:not([hidden]) #tourney-export:not([hidden])")
        json_href = page.get_attribute("#tourney-export-json", "href")
        tpn_href = page.get_attribute("#tourney-export-tpn", "href")
        assert json_href == f"/api/tourneys/{past.id}/export"
        assert tpn_href == f"/api/tourneys/{past.id}/export?format=tpn"
        for href, kind in ((json_href, "application/json"), (tpn_href, "text/plain")):
            got = page.request.get(f"http://127.0.0.1:{server.port}{href}")
            assert got.status == 200 and got.headers["content-type"].startswith(kind)
            assert "attachment" in got.headers["content-disposition"]
        assert "Descargar el torneo" in page.inner_text("#tourney-export")
        # the tie-breaks' headings explained: each an abbr with its meaning, and a legend
        page.wait_for_selector("#tourney-standings:not([hidden])")
        titles = {a.inner_text(): a.get_attribute("title")
                  for a in page.query_selector_all("#tourney-head abbr")}
        assert "Buchholz" in titles["Buch."] and "rivales" in titles["Buch."], titles
        assert "Sonneborn-Berger" in titles["S\u2011B"], titles
        legend = page.inner_text("#tourney-legend")
        assert "Buch.: Buchholz" in legend and "S\u2011B: Sonneborn-Berger" in legend, legend
        page.locator("#tourney-box").scroll_into_view_if_needed()
        shot(page, "tourney-phone-download-legend")


def test_a_tournament_table_says_which_tournament_and_round(server: Server) -> None:
    book = TourneyBook(server.lobby.store.engine)
    bea = server.account("Bea", "127.0.0.2")
    with browsing() as browser:
        page = browser.new_context(viewport=PHONE).new_page()
        register(page, server.port, "Ana")
        t = book.create("Copa del Casino", "habanero", 2, 0, 30, "random", time.time() + 6)
        page.reload()
        page.wait_for_selector(f"#tourney-list button[data-tourney='{t.id}']")
        page.click(f"#tourney-list button[data-tourney='{t.id}']")
        page.click("#tourney-box:not([hidden]) #tourney-join:not([hidden])")
        page.wait_for_selector("#tourney-leave:not([hidden])")
        assert bea.post(f"/api/tourneys/{t.id}/join").status_code == 200
        page.wait_for_selector("#table:not([hidden])", timeout=60_000)   # paired: taken
        page.wait_for_selector("#tourney-at:not([hidden])")
        assert page.inner_text("#tourney-at") == "Torneo Copa del Casino · ronda 1"
        shot(page, "tourney-phone-table-label")
