"""A person plays in a real browser at a site of two processes behind a plain load
balancer; the process that holds the table is killed with -9 mid-hand: the page says
the connection is lost, comes back by itself through the other process, with the score
as it was, and the hand plays on to its end."""

from __future__ import annotations

import time
from pathlib import Path

from sqlalchemy import create_engine, text

from browser_kit import (
    browsing,
    click,
    fast,
    needs_chromium,
    open_lobby,
    play_until_count,
    shot,
    start_against_robots,
    until_my_turn,
)
from cluster_kit import Balancer, Site, redis_or_skip
from server_harness import postgres_or_skip
from tute.server.cluster.bus import namespace

pytestmark = needs_chromium


def test_the_table_plays_on_when_its_process_is_killed(tmp_path: Path) -> None:
    db = postgres_or_skip()
    redis = redis_or_skip()
    site = Site(db, tmp_path / "servers.log", count=2)
    balancer = Balancer(site.ports)
    try:
        with browsing() as browser:
            page = browser.new_page()
            open_lobby(page, balancer.port)
            fast(page)
            start_against_robots(page, "habanero", level="heuristic",
                                 ready="#hand button.card.legal")
            for _ in range(3):                                   # a few tricks
                card = page.query_selector("#hand button.card.legal")
                if card is not None:
                    click(card)
                page.wait_for_timeout(400)
            until_my_turn(page)              # a robot's tute may have ended the match
            page.wait_for_timeout(1600)          # a closed trick stays ~1.3 s
            before = page.inner_text("#score table")
            shot(page, "cluster-before-kill")
            engine = create_engine(db)
            with engine.connect() as c:
                table = c.execute(text("SELECT id FROM tute_tables WHERE status = 'playing'"
                                       )).scalar_one()
            engine.dispose()
            owner = redis.get(f"{namespace(db)}lease:{table}").decode()
            slot = site.slot_of(int(owner.split("-")[-2]))
            assert slot is not None
            began = time.time()
            site.kill(slot)                                      # mid-hand, -9
            page.wait_for_selector("#offline", state="visible", timeout=10_000)
            shot(page, "cluster-offline")
            assert page.query_selector("#hand button.card.legal") is None  # no clicks into void
            page.wait_for_selector("#offline", state="hidden", timeout=30_000)
            page.wait_for_selector("#hand button.card.legal", timeout=15_000)
            back = time.time() - began
            shot(page, "cluster-back")
            assert page.inner_text("#score table") == before, "the score changed"
            assert back < 20, back
            play_until_count(page)                              # and the hand ends
            assert "Cartas" in page.inner_text("#count")
            shot(page, "cluster-hand-over")
    finally:
        balancer.close()
        site.close()
