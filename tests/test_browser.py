"""A person plays a whole hand against robots in a real browser (Playwright driving the
system Chromium), by clicking."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from test_server import Server

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None,
                                reason="Debian's chromium is not installed (scripts/test "
                                       "installs it where it can)")


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(f"sqlite:///{tmp_path / 'b.db'}")
    yield s
    s.stop()


def test_a_whole_hand_by_clicking(server: Server) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        page = browser.new_page(viewport={"width": 390, "height": 844})    # a phone
        page.goto(f"http://127.0.0.1:{server.port}/")
        page.fill("#name", "Ana")
        page.select_option("#variant", "habanero")
        page.click("#create")
        page.wait_for_selector("#table:not([hidden])")
        clicks = 0
        sang = False
        for _ in range(400):
            if page.inner_text("#count").strip():
                break
            sing = page.query_selector("#declare button[data-action^='20'], "
                                       "#declare button[data-action='40']")
            if sing is not None:
                sing.click()
                sang = True
                page.wait_for_timeout(150)
                continue
            legal = page.query_selector("#hand button.card.legal")
            if legal is not None:
                legal.click()
                clicks += 1
            page.wait_for_timeout(120)
        count = page.inner_text("#count")
        assert "cartas" in count and "cantes" in count, count
        assert clicks >= 8
        assert page.query_selector_all("#hand svg") is not None
        del sang
        browser.close()
