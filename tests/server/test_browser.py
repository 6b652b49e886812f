"""A person plays a whole hand against robots in a real browser (Playwright driving the
system Chromium), by clicking."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from browser_kit import (
    browsing,
    click,
    fast,
    needs_chromium,
    open_lobby,
    play_until_count,
    shot,
    start_against_robots,
    wait_until,
)
from server_harness import Server

pytestmark = needs_chromium


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(f"sqlite:///{tmp_path / 'b.db'}")
    yield s
    s.stop()


def test_a_whole_hand_by_clicking(server: Server) -> None:
    with browsing() as browser:
        page = browser.new_page(viewport={"width": 390, "height": 844})    # a phone
        open_lobby(page, server.port)
        start_against_robots(page, "habanero", level="heuristic", ready="#table:not([hidden])")
        clicks = 0
        sang = False
        for _ in range(400):
            if page.inner_text("#count").strip():
                break
            sing = page.query_selector("#declare button[data-action^='20'], "
                                       "#declare button[data-action='40']")
            if sing is not None:
                click(sing)
                sang = True
                page.wait_for_timeout(150)
                continue
            legal = page.query_selector("#hand button.card.legal")
            if legal is not None:
                click(legal)
                clicks += 1
            page.wait_for_timeout(120)
        count = page.inner_text("#count")
        # a robot's tute wins the hand whatever the points: its count says so, no total
        # (a CI-like run dealt one), and the hand may end before eight of Ana's cards
        tute = "Tute de" in count
        assert "Cartas" in count and "Cantes" in count, count
        assert "Total" in count or tute, count
        assert clicks >= 8 or (tute and clicks >= 1), (clicks, count)
        assert page.query_selector_all("#hand svg") is not None
        del sang


def test_two_friends_at_one_table(server: Server) -> None:
    with browsing() as browser:
        ana = browser.new_context().new_page()
        bea = browser.new_context().new_page()
        ana.goto(f"http://127.0.0.1:{server.port}/")
        fast(ana)
        ana.fill("#name", "Ana")
        ana.select_option("#variant", "habanero")
        ana.click("#friends")
        ana.wait_for_selector("#waiting:not([hidden])")
        bea.goto(f"http://127.0.0.1:{server.port}/")
        fast(bea)
        bea.fill("#name", "Bea")
        bea.click("#tables li button")                  # sit at Ana's table
        bea.wait_for_selector("#waiting:not([hidden])")
        wait_until(ana, "document.querySelector('#seats').textContent.includes('Bea')")
        ana.click("#start")
        for _ in range(600):
            done = [pg.inner_text("#count").strip() != "" for pg in (ana, bea)]
            if all(done):
                break
            for pg in (ana, bea):
                card = pg.query_selector("#hand button.card.legal")
                if card is not None:
                    click(card)
            ana.wait_for_timeout(100)
        for pg in (ana, bea):
            count = pg.inner_text("#count")
            assert "Ana" in count and "Bea" in count, count


def test_reload_mid_hand_and_server_restart(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'restart.db'}"
    first = Server(db)
    port = first.port
    with browsing() as browser:
        page = browser.new_page()
        open_lobby(page, port)
        fast(page)
        # quick robots: the first turn of the site's own (searching) robots starts their
        # worker process, which a loaded machine gave more than the page's 30 s
        start_against_robots(page, "habanero", level="heuristic",
                             ready="#hand button.card.legal")
        for _ in range(3):                                   # a few tricks
            page.click("#hand button.card.legal")
            page.wait_for_timeout(300)
        # Ana's turn again: no robot is about to play or sing (a cante read after the
        # score was taken failed this once on a loaded machine)
        page.wait_for_selector("#hand button.card.legal", timeout=30000)
        page.wait_for_timeout(1600)         # a closed trick stays ~1.3 s: the page catches up
        before = page.inner_text("#score table")
        page.reload()                                        # disconnect and come back
        page.wait_for_selector("#hand button.card")
        assert page.inner_text("#score table") == before
        first.stop()                                         # the server goes down...
        second = Server(db, port=port)                       # ...and comes back
        try:
            page.wait_for_timeout(2500)                      # the page reconnects itself
            play_until_count(page)
            assert "Cartas" in page.inner_text("#count")
        finally:
            second.stop()


def test_markup_in_names_never_runs_and_the_seat_key_is_out_of_reach(server: Server,
                                                                     tmp_path: Path) -> None:
    """A name the server would refuse today (as if stored before names were checked)
    reaches the page as text: its markup never runs.  Page scripts cannot read the
    seat's key."""

    from tute.server.store import SeatRow

    with browsing() as browser:
        page = browser.new_page()
        violations: list[str] = []
        page.on("console", lambda m: violations.append(m.text)
                if "Content Security Policy" in m.text else None)
        page.goto(f"http://127.0.0.1:{server.port}/")
        page.fill("#name", "Ana")
        page.select_option("#variant", "habanero")
        page.click("#friends")
        page.wait_for_selector("#waiting:not([hidden])")
        table = next(iter(server.lobby.tables.values()))
        hostile = '<img src=x onerror="window.__pwned=1">'
        table.seats[1] = SeatRow(1, hostile, "robot", None)     # bypassing the checks
        page.click("#start")
        page.wait_for_selector("#hand button.card")
        for _ in range(30):                                     # a few moves, names shown
            card = page.query_selector("#hand button.card.legal")
            if card is not None:
                click(card)
            page.wait_for_timeout(100)
        page.reload()
        page.wait_for_selector("#hand button.card")
        assert page.evaluate("window.__pwned") is None
        assert page.query_selector("#table img") is None
        assert hostile in page.inner_text("#table")           # shown, as text
        assert "tute_player" not in page.evaluate("document.cookie")
        assert page.evaluate("JSON.stringify(localStorage)").find("token") == -1
        page.evaluate("""() => { const s = document.createElement('script');
            s.textContent = 'window.__inline = 1'; document.body.append(s); }""")
        assert page.evaluate("window.__inline") is None         # CSP: no inline script
        shot(page, "hostile-name")
    assert violations                                          # the inline one, refused


@pytest.mark.parametrize("variant", ["guinote", "habanero"])
def test_the_hand_is_sorted_in_the_variants_own_order(server: Server, variant: str) -> None:
    """The browser sorts by the order the server sends (the core's ranking): in Guiñote
    the Sota is above the Caballo."""

    from tute.core.cards import parse_card
    from tute.core.tables import strength

    ranking = "guinote" if variant == "guinote" else "tute"
    with browsing() as browser:
        page = browser.new_page()
        open_lobby(page, server.port)
        start_against_robots(page, variant)
        codes = [b.get_attribute("data-card") for b in page.query_selector_all("#hand button")]
    cards = [parse_card(c) for c in codes if c]
    assert len(cards) >= 6
    key = [(c.suit.index, -strength(c.rank, ranking)) for c in cards]
    assert key == sorted(key), codes


@pytest.mark.parametrize("lang", ["pt", "it", "en"])
def test_the_page_speaks_the_catalogs_language(server: Server, lang: str) -> None:
    """The page's words come from the server's catalog for the language (the files Python
    reads): no Spanish left on a Portuguese, Italian or English lobby."""

    from tute.i18n import load_catalog

    web = load_catalog(lang)["web"]
    spanish = load_catalog("es")["web"]
    with browsing() as browser:
        page = browser.new_page()
        page.goto(f"http://127.0.0.1:{server.port}/")
        page.select_option("#lang", lang)
        wait_until(page, f"document.documentElement.lang === '{lang}'")
        for key in ("web_create", "web_friends", "web_tables"):
            assert web[key] in page.inner_text("#lobby"), key
            if spanish[key] != web[key]:
                assert spanish[key] not in page.inner_text("#lobby"), key


def test_the_lobby_offers_the_engines_games_and_levels(server: Server) -> None:
    """The games and robot levels come from the server (the engine's presets and the
    bots' registry), named in the page's language, the strongest level chosen."""

    from tute.bots import BEST, LEVELS
    from tute.server.tables.lobby import offered_variants

    with browsing() as browser:
        page = browser.new_page()
        page.goto(f"http://127.0.0.1:{server.port}/")
        page.wait_for_selector("#robot-level option", state="attached")
        values = page.eval_on_selector_all("#variant option", "os => os.map(o => o.value)")
        levels = page.eval_on_selector_all("#robot-level option", "os => os.map(o => o.value)")
        labels = page.inner_text("#robot-level")
        chosen = page.eval_on_selector("#robot-level", "s => s.value")
    assert values == [str(v) for v in offered_variants()]
    assert sorted(levels) == sorted(LEVELS) and chosen == BEST
    assert "Experto" in labels and "expert" not in labels


_WATCH_TRICKS = """() => {
  window.__closed = [];
  const trick = document.querySelector('#trick');
  new MutationObserver(() => {
    if (trick.dataset.closed === '1') {
      const cards = [...trick.querySelectorAll('.played [data-card]')].map(e => e.dataset.card);
      const key = cards.join(' ');
      if (window.__closed[window.__closed.length - 1] !== key) window.__closed.push(key);
    }
  }).observe(trick, {attributes: true, childList: true, subtree: true});
}"""


def test_every_trick_is_seen_whole_then_another_match(server: Server, tmp_path: Path) -> None:
    """A whole parejas hand against robots: every trick stays on the cloth with all four
    cards (and who takes it) before it is cleared; the last trick on request; at the
    match's end "another match" deals again and "back to the tables" returns to the lobby."""

    with browsing() as browser:
        page = browser.new_page(viewport={"width": 390, "height": 844})
        open_lobby(page, server.port)
        start_against_robots(page, "parejas", "heuristic")
        page.evaluate(_WATCH_TRICKS)
        for _ in range(900):
            if not page.is_hidden("#after"):
                break
            legal = page.query_selector("#hand button.card.legal")
            if legal is not None and not page.query_selector("#trick[data-closed]"):
                click(legal)
            page.wait_for_timeout(100)
        closed = page.evaluate("window.__closed")
        shot(page, "match-over-phone-parejas")
        assert len(closed) == 10, closed                      # every trick of the hand
        assert all(len(k.split()) == 4 for k in closed), closed
        page.click("#last-trick")
        shown = page.query_selector_all("#trick[data-closed] .played [data-card]")
        assert " ".join(e.get_attribute("data-card") or "" for e in shown) == closed[-1]
        assert "Baza para" in page.inner_text("#trick") or "La baza es tuya" in \
            page.inner_text("#trick")
        page.click("#again")                                  # another match
        page.wait_for_selector("#after", state="hidden")
        page.wait_for_selector("#hand button.card")
        assert page.inner_text("#count").strip() == ""
        page.click("#hand button.card.legal")                 # and it plays
        page.wait_for_timeout(300)


def test_the_page_says_when_the_connection_is_lost_and_comes_back(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'off.db'}"
    first = Server(db)
    port = first.port
    with browsing() as browser:
        page = browser.new_page()
        open_lobby(page, port)
        start_against_robots(page, "habanero", ready="#hand button.card.legal")
        assert page.is_hidden("#offline")
        first.stop()
        page.wait_for_selector("#offline", state="visible", timeout=10_000)
        assert page.query_selector("#hand button.card.legal") is None   # no clicks into void
        second = Server(db, port=port)
        try:
            page.wait_for_selector("#offline", state="hidden", timeout=20_000)
            page.wait_for_selector("#hand button.card.legal", timeout=10_000)
        finally:
            second.stop()


def test_counts_in_the_page_agree_in_number(server: Server) -> None:
    """"1 baza", "2 bazas": the page uses the catalogs' plural forms."""
    import re


    with browsing() as browser:
        page = browser.new_page()
        open_lobby(page, server.port)
        start_against_robots(page, "habanero")
        texts = []
        for _ in range(120):
            texts.append(page.inner_text("#score") + " " + page.inner_text("#seats-ring"))
            legal = page.query_selector("#hand button.card.legal")
            if legal is not None:
                click(legal)
            page.wait_for_timeout(100)
            if any(re.search(r"\b1 baza\b", x) for x in texts):
                break
    seen = " ".join(texts)
    assert re.search(r"\b1 baza\b", seen) and not re.search(r"\b1 (bazas|puntos|cartas)\b", seen)


def test_the_lobby_refreshes_itself(server: Server) -> None:
    """A table opened by someone else appears in the lobby without a reload."""
    with browsing() as browser:
        page = browser.new_page()
        page.goto(f"http://127.0.0.1:{server.port}/")
        page.wait_for_selector("#variant option", state="attached")
        assert page.query_selector_all("#tables li") == []
        server.client().new_table("parejas", robots=False, name="Luis")
        page.wait_for_selector("#tables li button[data-seat='1']", timeout=8000)
        assert "Luis" in page.inner_text("#tables")


def test_seed_001s_table_options_make_the_table(server: Server) -> None:
    """Tute online with seed 001's options from the page: 3 rounds, no tute, trump on
    trump while the stock lasts, 30 s a move -- the table is made with exactly those."""

    with browsing() as browser:
        page = browser.new_page()
        page.goto(f"http://127.0.0.1:{server.port}/")
        page.fill("#name", "Ana")
        assert page.is_hidden("#online-options")
        page.select_option("#variant", "online(players=2)")
        page.wait_for_selector("#online-options", state="visible")
        page.select_option("#rounds", "3")
        page.uncheck("#allow-tute")
        page.check("#trump-on-trump")
        page.select_option("#move-seconds", "30")
        page.click("#friends")
        page.wait_for_selector("#waiting:not([hidden])")
    (table,) = server.lobby.tables.values()
    assert str(table.variant) == ("online(players=2,stock_obligations=trump_on_trump,"
                                  "tute_set=off,match_target=3)")
    assert table.move_seconds == 30
