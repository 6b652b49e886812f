"""The verifiable shuffle in a real browser: the page adds its own random seed to each
shuffle the table commits to, the next hand is dealt with it, and the hand's log shows
the hand's commitment, the player's seed and the last hand's seed revealed, checked by
the page against the commitment published before that deal -- on a phone."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from browser_kit import (
    PHONE,
    browsing,
    click,
    deal_again_if_over,
    fast,
    needs_chromium,
    open_lobby,
    shot,
    start_against_robots,
)
from server_harness import Server

pytestmark = needs_chromium


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(f"sqlite:///{tmp_path / 'fair.db'}", robot_delay=0.0)
    yield s
    s.stop()


def test_the_page_seeds_each_shuffle_and_shows_the_proof(server: Server) -> None:
    with browsing() as browser:
        page = browser.new_context(viewport=PHONE).new_page()
        open_lobby(page, server.port)
        fast(page)
        start_against_robots(page, "habanero", "heuristic")
        (table,) = server.lobby.tables
        t = server.lobby.tables[table]
        first = t.match.game.proof if t.match is not None else None
        assert first is not None
        def dealt_again() -> bool:
            m = t.match
            return m is not None and m.game.proof is not None \
                and m.game.proof.commitment != first.commitment

        for _ in range(600):                   # play the first hand out, as a person
            if dealt_again():
                break
            deal_again_if_over(page)           # a match of one hand: the next match
            if not page.is_hidden("#count-ok"):
                click(page.locator("#count-ok"))
            legal = page.query_selector_all("#hand button[data-legal]")
            if legal and not page.query_selector("#trick[data-closed]"):
                click(legal[0])
            page.wait_for_timeout(100)
        assert dealt_again()
        proof = t.match.game.proof
        assert proof is not None
        mine = [seed for seat, seed, _ in proof.client_seeds if seat == 0]
        assert len(mine) == 1 and len(mine[0]) == 32             # 16 random bytes
        if not page.is_hidden("#count-ok"):
            click(page.locator("#count-ok"))
        page.click("#hand-log")
        page.wait_for_selector("#log-deal:not([hidden]) .deal-verdict")
        text = page.inner_text("#log-deal")
        assert "Barajado verificable" in text
        assert "✓ Coincide con el compromiso" in text, text
        assert page.get_attribute("#log-deal p:nth-of-type(1) code", "title") == proof.commitment
        assert page.get_attribute("#log-deal p:nth-of-type(2) code", "title") == mine[0]
        revealed = page.get_attribute("#log-deal p:nth-of-type(3) code", "title")
        assert revealed == first.server_seed
        assert hashlib.sha256(bytes.fromhex(revealed)).hexdigest() == first.commitment
        box = page.query_selector("#log-box").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        shot(page, "fair-deal-log-phone")
