"""The big moments of a table in a real browser (issue 29): a match's end announced with
its score and the tally counting the hand at once, leaving asked first, an annulment
seen as the end by the other player too.  Every screen saved for review."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from browser_kit import (
    PHONE,
    chromium,
    click,
    needs_chromium,
    open_lobby,
    shot,
)
from server_harness import Server, until

pytestmark = needs_chromium


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(f"sqlite:///{tmp_path / 'bm.db'}", robot_delay=0.0)
    yield s
    s.stop()


def _tally(page: Page) -> list[str]:
    """The score's last column (the match's tally), a cell per side."""
    rows = page.query_selector_all("#score table tr")[1:]
    return [r.query_selector_all("td")[-1].inner_text() for r in rows]


def test_the_end_of_a_match_is_announced_with_its_score(server: Server) -> None:
    """A habanero match to two hands: at the first count the tally already counts that
    hand (it waited for "Seguir" before); at the last, the headline says who won the
    match and by how much, and the tally agrees with the server's."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = chromium(p)
        page = browser.new_context(viewport=PHONE).new_page()
        open_lobby(page, server.port)
        page.select_option("#speed", "fast")
        page.select_option("#variant", "habanero")
        page.select_option("#robot-level", "random")
        page.select_option("#match-format", "first_to:2")
        page.click("#create")
        page.wait_for_selector("#hand button.card")
        (table_id,) = server.lobby.tables
        counts = 0
        for _ in range(3000):
            if not page.is_hidden("#after"):
                break
            if not page.is_hidden("#count-ok"):
                counts += 1
                m = server.lobby.tables[table_id].match
                assert m is not None
                won = [str(n) for n in m.score().hands_won]
                assert _tally(page) == won, (_tally(page), won)   # at the count, not later
                shot(page, f"moment-count-{counts}-phone")
                click(page.locator("#count-ok"))
                page.wait_for_selector("#count-ok", state="hidden")
                continue
            cards = page.query_selector_all("#hand button[data-legal]")
            if cards and not page.query_selector("#trick[data-closed]"):
                click(cards[-1])
            page.wait_for_timeout(50)
        assert not page.is_hidden("#after")
        m = server.lobby.tables[table_id].match
        assert m is not None and m.is_over and m.winner is not None
        won = list(m.score().hands_won)
        score = f"{won[m.winner]}-{won[1 - m.winner]}"
        headline = page.inner_text("#count .match-over")
        expected = f"¡Ganas la partida {score}!" if m.winner == 0 else \
            f"Ada gana la partida {score}"
        assert headline == expected, (headline, expected)
        assert _tally(page) == [str(n) for n in won]
        shot(page, "moment-match-over-phone")
        browser.close()


def _robots_table(page: Page, variant: str = "habanero") -> None:
    page.select_option("#variant", variant)
    page.select_option("#robot-level", "random")
    page.click("#create")
    page.wait_for_selector("#hand button.card")


def test_leaving_a_running_match_asks_first(server: Server) -> None:
    """"Salir de la mesa" (never the same word as "Cerrar sesión") asks before leaving a
    running match: no keeps the player at the table; yes leaves, the robot takes the seat
    and the deserted table leaves the lobby."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = chromium(p)
        page = browser.new_context(viewport=PHONE).new_page()
        open_lobby(page, server.port)
        _robots_table(page)
        (table_id,) = server.lobby.tables
        assert page.inner_text("#leave") == "Salir de la mesa"
        assert page.inner_text("#logout") == "Cerrar sesión"
        asked: list[str] = []

        def answer(yes: bool) -> Any:
            def on(dialog: Any) -> None:
                asked.append(dialog.message)
                dialog.accept() if yes else dialog.dismiss()
            return on

        page.once("dialog", answer(False))
        page.click("#leave")
        assert asked and "robot" in asked[0], asked
        page.wait_for_timeout(300)
        assert page.is_visible("#table") and page.is_hidden("#lobby")   # still seated
        assert server.lobby.tables[table_id].abandoned == set()
        page.once("dialog", answer(True))
        page.click("#leave")
        page.wait_for_selector("#lobby:not([hidden])")
        t = server.lobby.tables[table_id]
        for _ in range(100):
            if t.abandoned:
                break
            page.wait_for_timeout(50)
        assert t.abandoned == {0} and t.deserted()
        server.call(server.lobby.sweep())
        assert table_id not in server.lobby.tables
        shot(page, "moment-left-phone")
        browser.close()


def test_an_annulment_ends_the_match_on_the_other_page_too(server: Server) -> None:
    """Ana proposes, Bea agrees: on Ana's page (the other player's) nobody's turn is
    shown, no card or cante is offered, the count says annulled."""
    from playwright.sync_api import sync_playwright

    bea = server.client()
    with sync_playwright() as p:
        browser = chromium(p)
        page = browser.new_context(viewport=PHONE).new_page()
        open_lobby(page, server.port)
        page.select_option("#variant", "habanero")
        page.click("#friends")
        page.wait_for_selector("#waiting:not([hidden])")
        (table_id,) = server.lobby.tables
        assert bea.post(f"/api/tables/{table_id}/seats", {"seat": 1, "name": "Bea"}
                        ).status_code == 200
        page.wait_for_selector("#start:not([hidden])")
        with bea.ws(table_id) as wb:
            until(wb, lambda m: m.get("event", {}).get("kind") == "state")
            page.click("#start")
            page.wait_for_selector("#hand button.card")
            wb.send(json.dumps({"type": "annul"}))              # Bea proposes
            page.wait_for_selector("#annul-box:not([hidden])")
            shot(page, "moment-annul-proposed-phone")
            page.click("#annul-yes")
            until(wb, lambda m: m.get("event", {}).get("kind") == "annulled")
        page.wait_for_selector("#after:not([hidden])")
        assert "anulada" in page.inner_text("#count")
        assert page.query_selector_all("#hand button[data-legal]") == []
        assert page.query_selector_all("#declare button") == []
        assert "Te toca" not in page.inner_text("#score")
        shot(page, "moment-annulled-other-phone")
        browser.close()
