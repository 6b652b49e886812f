""""¿Podía ganar?" shared fairly (issue 46, finding 5): one address changing guest
cookies took all four places of the hand face up (``analysis_busy`` for everyone), and
any 43 characters were a guest.  Now a guest is a cookie the server issued (signed), an
address holds one hand face up at a time and asks for at most ``ASKS`` a minute, and a
stranger from another address is still served."""

from __future__ import annotations

import secrets
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from server_harness import Client, Server, play_out
from tute.analysis import Settings
from tute.server.site.sessions import COOKIE
from tute.server.tables import openhands

QUICK = Settings(min_samples=4, max_samples=4)


def _new_table(c: Client) -> str | None:
    """The guest cookie a new table's answer sets (None: it sets none)."""
    r = c.post("/api/tables", {"variant": "habanero", "name": "Ana"})
    assert r.status_code == 200, r.text
    value = r.cookies.get(COOKIE)
    return None if value is None else str(value)


def test_a_cookie_the_server_did_not_issue_is_no_guest(tmp_path: Path) -> None:
    s = Server(f"sqlite:///{tmp_path / 'g.db'}")
    try:
        made_up = s.client("127.0.0.50")
        forged = secrets.token_urlsafe(32)            # 43 characters, as a cookie looks
        made_up.http.cookies.set(COOKIE, forged)
        assert made_up.get("/api/session").json() == {"tables": []}
        issued = _new_table(made_up)
        assert issued is not None and issued != forged   # a new guest, with its own
        made_up.http.cookies.delete(COOKIE)
        made_up.http.cookies.set(COOKIE, issued)
        table = made_up.new_table("habanero", name="Ana", robots=False)
        assert made_up.cookie == issued                  # an issued one is kept
        assert table in {t["id"] for t in made_up.get("/api/session").json()["tables"]}
        # the issued cookie with its signature changed is no guest either
        secret, _, mac = issued.partition(".")
        tampered = s.client("127.0.0.51")
        tampered.http.cookies.set(COOKIE, f"{secret}.{'A' if mac[0] != 'A' else 'B'}{mac[1:]}")
        assert tampered.get("/api/session").json() == {"tables": []}
        other = _new_table(tampered)
        assert other is not None and other.partition(".")[0] != secret
    finally:
        s.stop()


def test_one_address_changing_cookies_cannot_hold_every_hand_face_up(tmp_path: Path
                                                                      ) -> None:
    s = Server(f"sqlite:///{tmp_path / 'o.db'}", analysis=QUICK)
    try:
        ana = s.account("Ana")
        games = [f"{play_out(ana, 'parejas(match_target=1)', robot_level='heuristic')}-1"
                 for _ in range(2)]
        asks = [f"/api/games/{g}/openhand?hand=1&seat={seat}" for g in games
                for seat in range(4)]
        hands = s.app.state.open_hands
        s.app.state.reviews.pool().submit(time.sleep, 4)   # the worker busy a while
        # one address, a guest the server issued for each ask (a table made each)
        same = [s.client("127.0.0.7") for _ in range(openhands.AT_ONCE)]
        for guest in same:
            guest.new_table("habanero", robots=False)
        assert len({guest.cookie for guest in same}) == len(same)
        with ThreadPoolExecutor(len(same)) as pool:
            answers = [pool.submit(lambda c, u: c.http.get(u, timeout=120), guest, url)
                       for guest, url in zip(same, asks, strict=False)]
            deadline = time.time() + 20
            while sum(a.done() for a in answers) + len(hands.running) < len(same):
                assert time.time() < deadline, "the asks never started nor answered"
                time.sleep(0.02)
            # a stranger from another address is served, not told "busy"
            stranger = s.client("127.0.0.30").http.get(asks[len(same)], timeout=120)
            assert stranger.status_code == 200, stranger.text
            assert stranger.json()["lines"]
            got = [a.result() for a in answers]
        assert sorted(r.status_code for r in got) == [200] + [429] * (len(same) - 1)
        assert {r.json()["key"] for r in got if r.status_code == 429} == \
            {"analysis_one_at_a_time"}
        # and an address asks for at most ASKS hands a minute
        # it has had one, counted when it asked: that is its minute (the window made
        # an hour, so a slow machine's solving, a minute past that ask, cannot empty it)
        hands.asks.count, hands.asks.per = 1, 3600.0
        again = same[0].http.get(asks[-1], timeout=120)
        assert again.status_code == 429 and again.json()["key"] == "too_many_requests"
        assert s.client("127.0.0.31").http.get(asks[-1], timeout=120).status_code == 200
    finally:
        s.stop()
