"""A competitive table whose match is practice, in real browsers (issue 46, finding 7):
two accounts on one computer start a "competición · 100 fichas" table; from the start
each page says, for the whole match, that it is practice and why, the lobby's line of
the table says "práctica" instead of the bet, and the count says nothing moved."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from browser_kit import PHONE, browsing, click, needs_chromium, shot, wait_until
from server_harness import Server
from tute.server.site import ledger

pytestmark = needs_chromium


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(f"sqlite:///{tmp_path / 'bp.db'}")
    yield s
    s.stop()


def test_a_practice_match_at_a_competitive_table_is_said_so_to_the_end(server: Server
                                                                      ) -> None:

    with browsing() as browser:
        pages = []
        for name in ("Ana", "Bea"):
            page = browser.new_context(viewport=PHONE).new_page()
            page.goto(f"http://127.0.0.1:{server.port}/")
            page.wait_for_selector("#variant option", state="attached")
            page.click("#login-open")
            page.fill("#login-name", name)
            page.fill("#login-password", "naipes de la abuela")
            page.click("#register")
            page.wait_for_selector("#account-in:not([hidden])")
            pages.append(page)
        ana, bea = pages
        ana.select_option("#variant", "habanero")
        ana.check("#competitive")
        ana.fill("#bet", "100")
        ana.click("#friends")
        ana.wait_for_selector("#waiting:not([hidden])")
        lobby = browser.new_context(viewport=PHONE).new_page()      # someone looking on
        lobby.goto(f"http://127.0.0.1:{server.port}/")
        lobby.wait_for_selector("#tables .competitive-mark")
        assert "100" in lobby.inner_text("#tables .competitive-mark")
        bea.click("#tables button[data-seat='1']")
        bea.wait_for_selector("#waiting:not([hidden])")
        ana.click("#start")
        for page in pages:                    # said on the table, and it stays said
            page.wait_for_selector("#stake.practice:not([hidden])")
            assert "misma red" in page.inner_text("#stake")
        wait_until(lobby, "document.querySelector('#tables .practice-mark') !== null")
        row = lobby.inner_text("#tables li")
        assert "práctica" in row and "100 fichas" not in row
        assert "misma red" in (lobby.get_attribute("#tables .practice-mark", "title") or "")
        lobby.locator("#tables li").first.scroll_into_view_if_needed()
        shot(lobby, "lobby-phone-practice-row")
        bea.wait_for_timeout(7500)            # the start's message has faded: not the line
        assert "misma red" in bea.inner_text("#stake") and bea.is_visible("#stake")
        shot(bea, "table-phone-practice-line")
        for page in pages:                    # the robot plays both seats to the end
            wait_until(page, "!document.querySelector('#auto-on').hidden")
            click(page.locator("#auto-on"))
        for page in pages:
            wait_until(page, "document.querySelector('#count').textContent"
                             ".includes('partida de práctica')", timeout=90)
        shot(ana, "count-phone-practice")
    with server.lobby.store.engine.connect() as c:
        assert ledger.balance(c, ledger.player(1)) == ledger.GRANT
        assert ledger.balance(c, ledger.player(2)) == ledger.GRANT
