"""In Chromium: the rules page one click away from the lobby (the whole page: intro,
cards, rules, every option), readable on a phone; and a host whose server only this
computer can reach is told how friends elsewhere can join."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from browser_kit import (
    DESKTOP,
    PHONE,
    browsing,
    needs_chromium,
    open_lobby,
    shot,
    wait_until,
)
from server_harness import Server
from tute.core.variants import parse_variant
from tute.tools.rules_pages import rules_page

pytestmark = needs_chromium


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(f"sqlite:///{tmp_path / 'help.db'}", local_only=True)
    yield s
    s.stop()


def test_the_rules_page_from_the_lobby_on_a_phone(server: Server) -> None:
    with browsing() as browser:
        page = browser.new_context(viewport=PHONE).new_page()
        open_lobby(page, server.port)
        page.select_option("#variant", "parejas")
        with page.context.expect_page() as opened:
            page.click("#rules-link")
        rules = opened.value
        rules.wait_for_load_state()
        want = rules_page(parse_variant("parejas"), "es")
        text = rules.inner_text("main")
        assert want.intro in text and want.rules[2] in text
        rows = rules.locator("table.options tbody tr")
        assert rows.count() == len(want.options)
        assert "must_undertrump" in rows.nth(7).inner_text()
        # the table scrolls in its own box: the page itself never wider than the phone
        assert rules.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        shot(rules, "help-parejas-phone")
        rules.locator("table.options").scroll_into_view_if_needed()
        shot(rules, "help-parejas-phone-options")


def test_a_host_is_told_friends_elsewhere_cannot_join_yet(server: Server) -> None:
    with browsing() as browser:
        page = browser.new_context(viewport=DESKTOP).new_page()
        open_lobby(page, server.port)
        page.select_option("#variant", "parejas")
        page.click("#friends")
        page.wait_for_selector("#invite-box:not([hidden])")
        wait_until(page, "!document.getElementById('invite-local').hidden")
        note = page.inner_text("#invite-local")
        assert "tute serve --host 0.0.0.0" in note and "este ordenador" in note
        shot(page, "waiting-local-only-note")
