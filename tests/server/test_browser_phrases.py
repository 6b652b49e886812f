"""Quick phrases and emoticons in two real browsers: Ana, whose page speaks Spanish,
sends "¡Bien jugado!" and a smile; Bea, whose page speaks English, reads "Well played!"
and sees the face drawn."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_kit import PHONE, browsing, fast, needs_chromium, shot, wait_until
from server_harness import Server

pytestmark = needs_chromium


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(f"sqlite:///{tmp_path / 'phr.db'}")
    yield s
    s.stop()


def _friends_table(browser: Any, port: int, bea_lang: str | None = None,
                   match: str | None = None) -> tuple[Any, Any]:
    """Ana's friends' table of habanero on one phone (its match format ``match``, e.g.
    ``first_to:1``, or the game's own), Bea seated there from another (her page in
    ``bea_lang``)."""
    ana = browser.new_context(viewport=PHONE).new_page()
    bea = browser.new_context(viewport=PHONE).new_page()
    ana.goto(f"http://127.0.0.1:{port}/")
    ana.wait_for_selector("#variant option", state="attached")
    fast(ana)
    ana.fill("#name", "Ana")
    ana.select_option("#variant", "habanero")
    if match is not None:
        ana.select_option("#match-format", match)
    ana.click("#friends")
    ana.wait_for_selector("#waiting:not([hidden])")
    bea.goto(f"http://127.0.0.1:{port}/")
    bea.wait_for_selector("#variant option", state="attached")
    fast(bea)
    if bea_lang is not None:
        bea.select_option("#lang", bea_lang)
        wait_until(bea, f"document.documentElement.lang === '{bea_lang}'")
    bea.fill("#name", "Bea")
    bea.click("#tables li button")
    bea.wait_for_selector("#waiting:not([hidden])")
    return ana, bea


def test_a_quick_phrase_is_read_in_each_readers_language(server: Server) -> None:
    with browsing() as browser:
        ana, bea = _friends_table(browser, server.port, "en")
        ana.click("#chat .phrases-open")
        ana.wait_for_selector("#chat .phrases:not([hidden]) button[data-phrase]")
        assert ana.inner_text("#chat .phrases button[data-phrase='well_played']") == \
            "¡Bien jugado!"
        shot(ana, "phrases-picker-phone")
        ana.click("#chat .phrases button[data-phrase='well_played']")
        wait_until(bea, "document.querySelectorAll('#chat .chat-line').length >= 1")
        assert bea.inner_text("#chat .chat-line .said") == "Well played!"
        wait_until(ana, "document.querySelectorAll('#chat .chat-line').length >= 1")
        assert ana.inner_text("#chat .chat-line .said") == "¡Bien jugado!"
        ana.click("#chat .phrases-open")
        ana.click("#chat .phrases button[data-phrase='smile']")
        wait_until(bea, "document.querySelectorAll('#chat .chat-line').length >= 2")
        face = bea.query_selector("#chat .chat-line:nth-child(2) svg.emoticon")
        assert face is not None and face.get_attribute("aria-label") == "smile"
        box = face.bounding_box()
        assert box is not None and box["width"] >= 16 and box["height"] >= 16
        bea.query_selector("#chat").scroll_into_view_if_needed()
        shot(bea, "phrases-read-in-english-phone")


def test_a_rematch_agreed_by_two_people_in_two_browsers(server: Server) -> None:
    """Ana and Bea play a match (of one hand: what is tried is what follows it) at a
    friends' table; Bea (not the host) asks for "Otra con los mismos", Ana is asked and
    agrees, and the next match starts for both, of one hand again."""

    from browser_kit import click

    with browsing() as browser:
        ana, bea = _friends_table(browser, server.port, match="first_to:1")
        wait_until(ana, "document.querySelector('#seats').textContent.includes('Bea')")
        ana.click("#start")
        (table,) = server.lobby.tables
        t = server.lobby.tables[table]
        for _ in range(1500):
            if t.match is not None and t.match.is_over:
                break
            for pg in (ana, bea):
                card = pg.query_selector("#hand button.card.legal")
                if card is not None:
                    click(card)
                if pg.is_visible("#count-ok"):
                    click(pg.locator("#count-ok"))
            ana.wait_for_timeout(60)
        assert t.match is not None and t.match.is_over
        bea.wait_for_selector("#rematch:not([hidden])")
        assert ana.is_visible("#rematch")
        bea.click("#rematch")
        ana.wait_for_selector("#rematch-box:not([hidden])")
        assert ana.inner_text("#rematch-text") == "Bea propone otra con los mismos: ¿aceptas?"
        wait_until(bea, "document.querySelector('#rematch-text').textContent.includes('Ana')")
        assert bea.inner_text("#rematch-text") == "Otra con los mismos: esperando a Ana"
        shot(ana, "rematch-asked-phone")
        ana.click("#rematch-yes")
        wait_until(ana, "document.querySelectorAll('#hand button.card').length > 0 && "
                        "document.querySelector('#count-box').hidden")
        wait_until(bea, "document.querySelectorAll('#hand button.card').length > 0 && "
                        "document.querySelector('#count-box').hidden")
        assert t.matches_started() == 2
        assert [r.name for _, r in sorted(t.seats.items())] == ["Ana", "Bea"]
        assert t.match is not None and t.match.variant.match_target == 1     # the same game
