"""The cards' look, a player's setting kept in the browser: the deck's style (classic,
or four colours with each suit's face in its own colour) and the cards' size; the
table redraws with them, the hand still fits a phone, and a reload keeps them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_kit import (
    PHONE,
    browsing,
    needs_chromium,
    open_lobby,
    shot,
    start_against_robots,
)
from server_harness import Server

pytestmark = needs_chromium


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(f"sqlite:///{tmp_path / 'look.db'}")
    yield s
    s.stop()


def _face(page: object, selector: str) -> str:
    """The fill of a card's face (its first rect), as drawn."""
    return str(page.evaluate(  # type: ignore[attr-defined]
        f"document.querySelector({selector!r}).querySelector('svg rect').getAttribute('fill')"))


def _hand_faces(page: object) -> dict[str, str]:
    """Each card of the hand, and its face's fill."""
    found = page.eval_on_selector_all(  # type: ignore[attr-defined]
        "#hand button.card", "(cs) => cs.map((c) => [c.dataset.card, "
        "c.querySelector('svg rect').getAttribute('fill')])")
    return {str(code): str(fill) for code, fill in found}


def _card_width(page: Any) -> float:
    """A hand card's width, asked of the card in the hand now (the hand is drawn again
    at every robot's move: an element found a moment before may be gone)."""
    for _ in range(50):           # drawn again between finding it and measuring it: again
        box = page.locator("#hand button.card").first.bounding_box()
        if box is not None:
            return float(box["width"])
        page.wait_for_timeout(20)
    raise AssertionError("no card of the hand stayed on the page to be measured")


def test_the_deck_style_and_card_size_change_the_table(server: Server) -> None:
    with browsing() as browser:
        page = browser.new_context(viewport=PHONE).new_page()
        open_lobby(page, server.port)
        start_against_robots(page, "parejas", "random")
        page.wait_for_selector("#hand button.card")
        width = _card_width(page)
        assert set(_hand_faces(page).values()) == {"#fbf5e6"}   # the classic cream face
        page.click("#look-open")
        page.wait_for_selector("#look-box:not([hidden]) #look-sample .card")
        page.select_option("#deck", "four")
        assert _face(page, "#look-sample .card:nth-child(1)") == "#f9e7a6"   # oros, gold
        assert _face(page, "#look-sample .card:nth-child(2)") == "#f7cfc6"   # copas, red
        page.select_option("#card-size", "large")
        shot(page, "look-settings-phone")
        page.click("#look-close")
        suits = {"o": "#f9e7a6", "c": "#f7cfc6", "e": "#d3e3f6", "b": "#d6e8bd"}
        faces = _hand_faces(page)
        assert len(faces) == 10
        assert all(fill == suits[code[-1]] for code, fill in faces.items()), faces
        bigger = _card_width(page)
        assert bigger > width * 1.1, (width, bigger)
        for card in page.query_selector_all("#hand button.card"):   # still on the phone
            box = card.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        shot(page, "look-table-four-colours-large-phone")
        page.reload()
        page.wait_for_selector("#hand button.card")
        assert page.input_value("#deck") == "four" and page.input_value("#card-size") == "large"
        again = _card_width(page)
        assert abs(again - bigger) < 1


def test_the_hands_log_one_tap_away(server: Server) -> None:
    """Two tricks into a hand, "Historial" shows each trick's four cards, who took it,
    and where a cante came; it fits a phone."""

    with browsing() as browser:
        page = browser.new_context(viewport=PHONE).new_page()
        open_lobby(page, server.port)
        start_against_robots(page, "parejas", "heuristic")
        (table,) = server.lobby.tables
        t = server.lobby.tables[table]
        for _ in range(400):
            if t.match is not None and len(t.match.game.trick_winners) >= 2:
                break
            legal = page.query_selector_all("#hand button[data-legal]")
            if legal and not page.query_selector("#trick[data-closed]"):
                legal[0].click(timeout=2000)
            page.wait_for_timeout(100)
        page.click("#hand-log")
        page.wait_for_selector("#log-box:not([hidden]) .log-trick")
        tricks = page.query_selector_all("#log-list .log-trick")
        assert len(tricks) >= 2
        first = tricks[0].inner_text()
        assert first.startswith("Baza 1")
        assert "se la lleva" in first or "te la llevas" in first
        assert len(tricks[0].query_selector_all(".card")) == 4
        assert tricks[0].query_selector(".log-card.won") is not None
        box = page.query_selector("#log-box").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        shot(page, "hand-log-phone")
        page.click("#log-close")
        assert page.is_hidden("#log-box")


def test_faces_chosen_on_the_profile_and_seen_at_the_seats(server: Server) -> None:
    """Ana chooses a face on her profile; at her table her plate shows it, the robots
    show theirs; her chat line too; on a phone, then on a desktop."""

    from browser_kit import DESKTOP

    server.account("Ana")
    with browsing() as browser:
        for viewport, label in ((PHONE, "phone"), (DESKTOP, "desktop")):
            page = browser.new_context(viewport=viewport).new_page()
            page.goto(f"http://127.0.0.1:{server.port}/")
            page.wait_for_selector("#variant option", state="attached")
            page.click("#login-open")
            page.fill("#login-name", "Ana")
            page.fill("#login-password", "naipes de la abuela")
            page.click("#login")
            page.wait_for_selector("#account-in:not([hidden])")
            if label == "phone":
                page.click("#profile-open")
                page.wait_for_selector("#avatar-picker button")
                assert len(page.query_selector_all("#avatar-picker button")) == 13
                page.click("#avatar-picker button[data-avatar='face05']")
                page.wait_for_selector(
                    "#avatar-picker button[data-avatar='face05'][aria-pressed='true']")
                shot(page, "avatar-picker-phone")
                page.click("#profile-close")
                start_against_robots(page, "parejas", "random")
            else:                                   # the same person: back at her table
                (table,) = server.lobby.tables
                guest = browser.new_context(viewport=viewport).new_page()   # the lobby
                guest.goto(f"http://127.0.0.1:{server.port}/")              # shows them
                listed = f"li[data-table='{table}'] .lobby-seats .taken svg.avatar"
                guest.wait_for_selector(listed)
                assert len(guest.query_selector_all(listed)) == 4
                shot(guest, "avatars-in-the-lobby-desktop")
                page.goto(f"http://127.0.0.1:{server.port}/?table={table}")
            page.wait_for_selector(".seat .plate svg.avatar")
            faces = page.query_selector_all(".seat .plate svg.avatar")
            assert len(faces) == 4
            mine = page.query_selector(".seat[data-seat='0'] .plate svg.avatar")
            assert mine is not None and mine.get_attribute("aria-label") == "Ana"
            box = mine.bounding_box()
            assert box is not None and box["width"] >= 18 and box["x"] >= 0
            heads = page.eval_on_selector_all(
                ".seat .plate svg.avatar", "(fs) => fs.map((f) => f.querySelectorAll('rect').length)")
            assert sum(1 for n in heads if n >= 2) == 3          # three robot heads
            if label == "phone":
                page.fill("#chat-text", "hola")
                page.press("#chat-text", "Enter")
            page.wait_for_selector("#chat .chat-line svg.avatar")
            shot(page, f"avatars-at-the-seats-{label}")
