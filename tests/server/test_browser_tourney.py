"""A Swiss tournament in a real browser (issue 33): on a phone, a person finds the
tournament announced in the lobby, enters it (the fee leaves their chips), waits on its
page, is taken to their table when the round pairs them, plays (in automatic play), goes
back to the tournament from the table's end, is taken to the next round's table, and
sees the final standings with their tie-breaks, every round's games and the prizes;
two scripted people play the other seats.  Then a desktop's look at the same page."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from browser_kit import (
    DESKTOP,
    PHONE,
    browsing,
    click,
    inside_width,
    needs_chromium,
    register,
    shot,
    wait_until,
)
from server_harness import Server
from tourney_kit import check_tourney, play_tourney
from tute.server.site.tourneys import TourneyBook

pytestmark = needs_chromium
FEE = 20


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(f"sqlite:///{tmp_path / 'tourney.db'}", robot_delay=0.0)
    yield s
    s.stop()


def _play_at_table(page: object) -> None:
    """At the table the page took the person to: automatic play, then the way back."""
    page.wait_for_selector("#cloth")                             # type: ignore[attr-defined]
    for _ in range(300):
        if page.is_visible("#tourney-see"):                      # type: ignore[attr-defined]
            return
        if page.is_visible("#auto-on"):                          # type: ignore[attr-defined]
            click(page.locator("#auto-on"))                      # type: ignore[attr-defined]
        if page.is_visible("#count-ok"):                         # type: ignore[attr-defined]
            click(page.locator("#count-ok"))                     # type: ignore[attr-defined]
        page.wait_for_timeout(200)                               # type: ignore[attr-defined]
    raise AssertionError("the game did not end at the table")


def test_a_person_plays_a_tournament_in_the_browser(server: Server) -> None:
    book = TourneyBook(server.lobby.store.engine)
    t = book.create("Copa del Casino", "habanero", 2, FEE, 30, "random", time.time() + 12)
    others = [server.account(n, f"127.0.0.{k + 2}") for k, n in enumerate(("Bea", "Ciro"))]
    with browsing() as browser:
        page = browser.new_context(viewport=PHONE).new_page()
        register(page, server.port, "Ana")
        page.select_option("#speed", "fast")
        page.wait_for_selector(f"#tourney-list button[data-tourney='{t.id}']")
        listed = page.inner_text("#tourney-list")
        assert "Copa del Casino" in listed and "empieza en" in listed and "20 fichas" in listed
        page.click(f"#tourney-list button[data-tourney='{t.id}']")
        page.wait_for_selector("#tourney-box:not([hidden]) #tourney-join:not([hidden])")
        page.click("#tourney-join")
        page.wait_for_selector("#tourney-leave:not([hidden])")
        for c in others:
            assert c.post(f"/api/tourneys/{t.id}/join").status_code == 200
        threads = [threading.Thread(target=play_tourney, args=(c, t.id)) for c in others]
        for th in threads:
            th.start()
        page.locator("#tourney-box").scroll_into_view_if_needed()
        shot(page, "tourney-phone-waiting")
        assert "Ana" in page.inner_text("#tourney-entrants")
        for rnd in (1, 2):                          # taken to each round's table
            page.wait_for_selector("#table:not([hidden])", timeout=60_000)
            _play_at_table(page)
            if rnd == 1:
                shot(page, "tourney-phone-table-end")
            page.click("#tourney-see")
            page.wait_for_selector("#tourney-box:not([hidden])")
        for _ in range(200):                        # the last round's results in
            if "terminado" in page.inner_text("#tourney-state"):
                break
            page.wait_for_timeout(300)
        assert "terminado" in page.inner_text("#tourney-state")
        for th in threads:
            th.join(120)
        # the prize (or nothing) in the header's chips without a reload
        chips = page.request.get(f"http://127.0.0.1:{server.port}/api/me").json()["chips"]
        wait_until(page, "document.getElementById('me-chips').textContent"
                         f".replace(/\\D/g, '') === '{chips}'")
        rows = page.query_selector_all("#tourney-rows tr")
        assert len(rows) == 3
        assert "Ana" in page.inner_text("#tourney-rows tr.mine")
        assert page.query_selector_all(".tourney-boards li a[href^='/games/']")
        assert len(page.query_selector_all("#tourney-rounds h4")) == 2
        page.locator("#tourney-standings").scroll_into_view_if_needed()
        inside_width(page, "#tourney-rows tr.mine")
        shot(page, "tourney-phone-final")
        prize = page.inner_text("#tourney-rows tr:first-child td.prize")
        assert prize.strip().isdigit() and int(prize) > 0

        desk = browser.new_context(viewport=DESKTOP).new_page()
        desk.goto(f"http://127.0.0.1:{server.port}/")
        desk.context.add_cookies(page.context.cookies())
        desk.reload()
        desk.wait_for_selector(f"#tourney-list button[data-tourney='{t.id}']")
        desk.click(f"#tourney-list button[data-tourney='{t.id}']")
        desk.wait_for_selector("#tourney-box:not([hidden]) #tourney-rows tr")
        inside_width(desk, "#tourney-rows")
        shot(desk, "tourney-desktop-final")
    check_tourney(server.lobby.store.engine, t.id, FEE)


def test_an_arena_in_the_browser(server: Server) -> None:
    """An arena on a phone: entered while it runs, the person waiting on its page is
    taken to a table, plays, comes back and is shown the arena's own standings (points,
    games, wins, the streak) until it ends."""

    book = TourneyBook(server.lobby.store.engine)
    t = book.create("Arena nocturna", "habanero", 0, 0, 30, "random", time.time() - 30,
                    minutes=1)
    bea = server.account("Bea", "127.0.0.2")
    assert bea.post(f"/api/tourneys/{t.id}/join").status_code == 200
    other = threading.Thread(target=play_tourney, args=(bea, t.id))
    other.start()
    with browsing() as browser:
        page = browser.new_context(viewport=PHONE).new_page()
        register(page, server.port, "Ana")
        page.select_option("#speed", "fast")
        page.wait_for_selector(f"#tourney-list button[data-tourney='{t.id}']")
        assert "arena de 1 min" in page.inner_text("#tourney-list")
        page.click(f"#tourney-list button[data-tourney='{t.id}']")
        page.wait_for_selector("#tourney-join:not([hidden])")
        assert "Arena:" in page.inner_text("#tourney-about")
        page.click("#tourney-join")                     # while it runs: welcome
        page.wait_for_selector("#table:not([hidden])", timeout=30_000)
        _play_at_table(page)
        page.click("#tourney-see")
        page.wait_for_selector("#tourney-box:not([hidden]) #tourney-rows tr.mine")
        heads = [h.inner_text() for h in page.query_selector_all("#tourney-head th")]
        assert heads[3:6] == ["PJ", "PG", "×2"], heads
        mine = page.query_selector_all("#tourney-rows tr.mine td")
        assert int(mine[3].inner_text()) >= 1                 # a game played, counted
        page.locator("#tourney-box").scroll_into_view_if_needed()
        shot(page, "arena-phone")
        page.click("#tourney-close")                      # off the page: not paired
    other.join(120)
    assert book.get(t.id).status in ("over", "running")
