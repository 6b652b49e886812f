"""An account in a real browser: register, a competitive match with a bet against
robots played by clicking, then the profile and the rankings show what the formulas
say; log out and in again."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from browser_kit import DESKTOP, PHONE, browsing, click, fast, needs_chromium, shot, wait_until
from server_harness import Server
from tute.server.site import ledger

pytestmark = needs_chromium


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(f"sqlite:///{tmp_path / 'ba.db'}")
    yield s
    s.stop()


def test_register_play_for_chips_and_see_the_profile(server: Server) -> None:
    from tute.server.site.economy import winning_seats

    with browsing() as browser:
        page = browser.new_context(viewport=DESKTOP).new_page()
        page.goto(f"http://127.0.0.1:{server.port}/")
        page.wait_for_selector("#variant option", state="attached")
        page.click("#login-open")
        page.fill("#login-name", "Ana")
        page.fill("#login-password", "1234")
        page.click("#register")
        wait_until(page, "document.querySelector('#login-error').textContent.length > 0")
        assert "8" in page.inner_text("#login-error")           # at least 8 characters
        page.fill("#login-password", "naipes de la abuela")
        page.click("#register")
        page.wait_for_selector("#account-in:not([hidden])")
        assert "Ana" in page.inner_text("#account-in") and "fichas" in page.inner_text(
            "#account-in")
        assert page.input_value("#name") == "Ana"
        fast(page)
        page.check("#competitive")
        page.fill("#bet", "100")
        page.select_option("#variant", "habanero")
        page.select_option("#robot-level", "random")
        shot(page, "lobby-desktop-logged-in")
        page.click("#create")
        page.wait_for_selector("#hand button.card")
        (table_id,) = server.lobby.tables
        # the money in sight while the match runs: alone against a robot there is no bet
        # (robots bet nothing: issue 46), and the table says so; the header's balance
        page.wait_for_selector("#stake:not([hidden])")
        assert page.inner_text("#stake") == "Sin apuesta: tus rivales son robots"
        assert page.is_visible("#me-chips")
        for _ in range(900):
            if not page.is_hidden("#after"):
                break
            legal = page.query_selector_all("#hand button[data-legal]")
            if legal and not page.query_selector("#trick[data-closed]"):
                click(legal[-1])
            page.wait_for_timeout(100)
        assert not page.is_hidden("#after")
        t = server.lobby.tables[table_id]
        assert t.match is not None and winning_seats(t.match, list(t.seats))   # won, or
        # lost: the count says what the match took and gave, the ledger's figures
        page.wait_for_selector("#count .gains .balance", state="attached")
        net = 0                                  # a winner alone with robots no longer
        mine = page.inner_text("#count .gains tr.mine").split("\t")   # loses the bank's
        assert mine[0].strip() == "Ana (tú)"                            # share (issue 46)
        assert mine[1].strip() == "0", mine
        assert mine[2].strip() == "+0"
        kept = page.evaluate("fetch('/api/games').then((r) => r.json())")["games"]
        assert kept[0]["chips"] == net and kept[0]["xp"] == 0
        digits = "".join(ch for ch in page.inner_text("#count .balance") if ch.isdigit())
        assert int(digits) == ledger.GRANT + net
        header = "".join(ch for ch in page.inner_text("#me-chips") if ch.isdigit())
        assert int(header) == ledger.GRANT + net                  # the header follows
        shot(page, "count-desktop-competitive")
        page.click("#back")
        page.wait_for_selector("#lobby:not([hidden])")
        page.click("#profile-open")
        page.wait_for_selector("#profile:not([hidden])")
        wait_until(page, "document.querySelectorAll('#profile-ledger li').length >= 1")
        facts = page.inner_text("#profile-facts")
        shot(page, "profile-desktop")
        chips = ledger.GRANT
        assert str(chips) in facts.replace(".", "").replace("\u202f", "").replace(" ", "")
        assert "apuesta" not in page.inner_text("#profile-ledger")       # nothing bet
        assert "Nivel en Tute (uno contra uno)" in facts
        level = facts.split("Nivel en Tute (uno contra uno)")[1].strip().splitlines()[0]
        assert level == "se verá tras 5 partidas (1 jugada)", level   # not a raw "-2.6",
        assert "1 · Novato (faltan 100 XP para el nivel 2)" in facts   # nor a guess
        assert "Tute habanero" in facts and "1 partida" in facts
        with server.lobby.store.engine.connect() as c:   # alone with robots: no XP (the
            rows = c.exec_driver_sql("SELECT amount FROM tute_xp").all()   # third attack)
        assert [tuple(r) for r in rows] == [(0,)]       # the game counted, with 0 XP
        page.click("#rank-periods button[data-period='day']")
        wait_until(page, "!document.querySelector('#rank-empty').hidden")
        assert page.query_selector_all("#rank-rows tr") == []
        assert page.inner_text("#rank-mine") == "Aún no estás en esta clasificación."
        assert "dos personas" in page.inner_text("#rank-counts")   # says what counts
        page.click("#logout")
        page.wait_for_selector("#account-out:not([hidden])")
        assert server.client().get("/api/me").status_code == 401
        phone = browser.new_context(viewport=PHONE).new_page()   # another device
        phone.goto(f"http://127.0.0.1:{server.port}/")
        phone.wait_for_selector("#variant option", state="attached")
        phone.click("#login-open")
        phone.fill("#login-name", "ana")
        phone.fill("#login-password", "naipes de la abuela")
        phone.click("#login")
        phone.wait_for_selector("#account-in:not([hidden])")
        shot(phone, "lobby-phone-logged-in")


def test_two_people_in_two_browsers_at_one_address_play_as_practice(server: Server) -> None:
    """Two accounts at one competitive table, both browsers at one address (a house's
    connection): the page tells them the match is practice, and no chip moves."""

    with browsing() as browser:
        pages = []
        for name in ("Ana", "Bea"):
            page = browser.new_context(viewport=PHONE).new_page()
            page.goto(f"http://127.0.0.1:{server.port}/")
            page.wait_for_selector("#variant option", state="attached")
            page.click("#login-open")
            page.fill("#login-name", name)
            page.fill("#login-password", "naipes de la abuela")
            page.click("#register")
            page.wait_for_selector("#account-in:not([hidden])")
            pages.append(page)
        ana, bea = pages
        ana.select_option("#variant", "habanero")
        ana.check("#competitive")
        ana.fill("#bet", "100")
        ana.click("#friends")
        ana.wait_for_selector("#waiting:not([hidden])")
        bea.click("#tables button[data-seat='1']")
        bea.wait_for_selector("#waiting:not([hidden])")
        ana.click("#start")
        for page in pages:
            wait_until(page, "document.querySelector('#message').textContent"
                             ".includes('práctica')")
        shot(bea, "table-phone-practice-same-address")
        for page in pages:
            assert "1000" in page.inner_text("#account-in").replace(".", "")
    people = server.app.state.accounts
    with server.lobby.store.engine.connect() as c:
        assert ledger.balance(c, ledger.player(1)) == ledger.GRANT
        assert ledger.balance(c, ledger.player(2)) == ledger.GRANT
    del people
