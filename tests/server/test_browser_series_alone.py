"""A duplicate series' deal that nobody else has played yet, on a phone (issue 46): its
result says so, not "superas al 50 % del campo" (a lone result's share of the field)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from browser_kit import PHONE, browsing, needs_chromium, shot
from server_harness import Server, until
from tute.server.site.series import SeriesBook

pytestmark = needs_chromium


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(f"sqlite:///{tmp_path / 'alone.db'}", robot_delay=0.0)
    yield s
    s.stop()


def test_a_deal_played_alone_says_nobody_else_has_played_it(server: Server) -> None:
    made = SeriesBook(server.lobby.store.engine).create("habanero", 1, "heuristic", 2.0)
    ana = server.account("Ana")
    r = ana.post(f"/api/series/{made.id}/play")
    assert r.status_code == 200, r.text
    with ana.ws(r.json()["id"]) as w:                        # the deal, played out
        until(w, lambda m: m.get("event", {}).get("kind") == "state")
        w.send(json.dumps({"type": "automatic", "on": True}))
        until(w, lambda m: m.get("event", {}).get("kind") == "match_over", 120)
    with browsing() as browser:
        context = browser.new_context(viewport=PHONE)
        context.add_cookies([{"name": k, "value": v, "url": server.base}
                             for k, v in ana.http.cookies.items()])   # Ana's browser
        page = context.new_page()
        page.goto(f"{server.base}/")
        page.click(f"#series-list button[data-series='{made.id}']")
        page.wait_for_selector("#series-box:not([hidden]) #series-deals li")
        deal = page.inner_text("#series-deals li")
        page.locator("#series-deals").scroll_into_view_if_needed()
        shot(page, "series-alone-phone")
        assert "aún nadie más la ha jugado" in deal, deal
        assert "superas" not in deal and "50" not in deal, deal
        assert deal.count("nadie más") == 1, deal               # said once
