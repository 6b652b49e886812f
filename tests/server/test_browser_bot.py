"""A bot at a person's table, in a real browser on a phone: the person opens a table
for friends that lets bots sit, the reference client (examples/bot_client.py, ``join``)
takes the free seat with its token, and the two play the match out -- the bot's seat
shown as a bot."""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from browser_kit import (
    PHONE,
    browsing,
    fast,
    needs_chromium,
    play_until_count,
    shot,
    wait_until,
)
from server_harness import Server

pytestmark = needs_chromium
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(f"sqlite:///{tmp_path / 'botpage.db'}", robot_delay=0.0)
    yield s
    s.stop()


def test_a_person_plays_a_bot_in_the_browser(server: Server) -> None:
    sys.path.insert(0, str(EXAMPLES))
    import bot_client

    owner = server.account("Robo")
    assert owner.post("/api/me/bot", {"confirm": "Robo"}).status_code == 200
    token = owner.post("/api/me/bot/tokens", {"label": "t"}).json()["token"]
    api = bot_client.Api(server.base, token)
    said: list[str] = []
    with browsing() as browser:
        page = browser.new_context(viewport=PHONE).new_page()
        page.goto(f"http://127.0.0.1:{server.port}/")
        fast(page)
        page.fill("#name", "Ana")
        page.select_option("#variant", "habanero")
        page.check("#allow-bots")
        page.click("#friends")
        page.wait_for_selector("#waiting:not([hidden])")
        bot = threading.Thread(target=lambda: bot_client.join(api, "heuristic", said.append),
                               daemon=True)
        bot.start()
        wait_until(page, "document.querySelector('#seats').textContent.includes('Robo (bot)')")
        page.click("#start")
        play_until_count(page, 900)
        count = page.inner_text("#count")
        assert "Ana" in count and "Robo" in count, count
        shot(page, "bot-at-a-persons-table-phone")
        bot.join(60)
        assert any("match over" in line for line in said), said
        (table,) = server.lobby.tables.values()
        assert [s.name for s in table.summary().seats] == ["Ana", "Robo (bot)"]


def test_the_profile_makes_a_bot_and_its_tokens(server: Server) -> None:
    """On a phone: the profile's bot part -- a wrong name refused, the account made a
    bot, a token made (shown once, and it signs requests), then revoked."""
    import httpx

    with browsing() as browser:
        page = browser.new_context(viewport=PHONE).new_page()
        page.goto(f"http://127.0.0.1:{server.port}/")
        page.click("#login-open")
        page.fill("#login-name", "Robo")
        page.fill("#login-password", "naipes de la abuela")
        page.click("#register")
        page.wait_for_selector("#account-in:not([hidden])")
        page.click("#profile-open")
        page.wait_for_selector("#bot-become:not([hidden])")
        page.fill("#bot-confirm", "Otro")
        page.click("#bot-become-go")
        page.wait_for_selector("#bot-error:not(:empty)")
        assert "nombre" in page.inner_text("#bot-error")
        page.fill("#bot-confirm", "Robo")
        page.click("#bot-become-go")
        page.wait_for_selector("#bot-tokens-box:not([hidden])")
        page.fill("#bot-token-label", "portátil")
        page.click("#bot-token-new")
        page.wait_for_selector("#bot-token-shown:not([hidden])")
        token = page.inner_text("#bot-token-value").strip()
        assert token.startswith("tute_bot_")
        assert "portátil" in page.inner_text("#bot-tokens")
        page.locator("#bot-panel").scroll_into_view_if_needed()
        shot(page, "profile-bot-phone")
        me = httpx.get(f"{server.base}/api/me", headers={"Authorization": f"Bearer {token}"})
        assert me.status_code == 200 and me.json()["name"] == "Robo"
        page.click("#bot-tokens button")                       # revoke
        page.wait_for_selector("#bot-tokens li.revoked")
        me = httpx.get(f"{server.base}/api/me", headers={"Authorization": f"Bearer {token}"})
        assert me.status_code == 401
