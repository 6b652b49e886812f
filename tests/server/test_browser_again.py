"""A kept hand played again, at its table in a real browser on a phone: the address is
the table's (a reload comes back to it), and the opening message ("Mano 1 otra vez,
desde la baza...") is over the cloth, not the score, and a tap sends it away."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from browser_kit import PHONE, browsing, needs_chromium, shot, wait_until
from server_harness import Server, play_out
from tute.core.records import parse_record, replay

pytestmark = needs_chromium


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(f"sqlite:///{tmp_path / 'ag.db'}", robot_delay=0.0)
    yield s
    s.stop()


def test_a_hand_played_again_keeps_its_address_and_its_score_in_view(server: Server) -> None:
    ana = server.account("Ana")
    game = f"{play_out(ana, 'parejas(match_target=1)', robot_level='heuristic')}-1"
    done = replay(parse_record(ana.get(f"/api/games/{game}/record.tute").text))
    mine = [i for i, (who, _a) in enumerate(done.games[0].history)
            if done.seat_maps[0][who] == 0]
    with browsing() as browser:
        context = browser.new_context(viewport=PHONE)
        context.add_cookies([{"name": k, "value": v, "url": server.base}
                             for k, v in ana.http.cookies.items()])   # Ana's browser
        page = context.new_page()
        r = ana.post(f"/api/games/{game}/again", {"hand": 1, "seat": 0, "index": mine[5]})
        assert r.status_code == 200, r.text
        table = r.json()["id"]
        page.goto(f"{server.base}/?table={table}")       # where the review page sends her
        page.wait_for_selector("#hand button.card")
        page.wait_for_selector("#score tr")
        wait_until(page, "document.querySelector('#message').textContent.includes('otra vez')")
        page.wait_for_timeout(300)                         # the table drawn, settled
        shot(page, "again-table-phone")
        assert page.url == f"{server.base}/?table={table}"  # the table's own address
        said = page.locator("#message").bounding_box()
        score = page.locator("#score").bounding_box()
        cloth = page.locator("#cloth").bounding_box()
        assert said is not None and score is not None and cloth is not None
        assert said["y"] >= score["y"] + score["height"], (said, score)   # the score seen
        assert said["y"] >= cloth["y"], (said, cloth)       # over the cloth, not a button
        page.locator("#message").click()                    # a tap: gone
        assert page.inner_text("#message") == ""
        page.reload()                                       # back at the same table
        page.wait_for_selector("#hand button.card")
        assert page.url == f"{server.base}/?table={table}"
