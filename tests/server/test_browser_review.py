"""The review page in a real browser: a finished match's hand analysed for a seat --
the progress while the server judges it, the move list with each grade, the winning
chance through the hand, and the decision at the board's step with its reasons, in the
reader's language; on a desktop and a phone."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_review import _play_out

from browser_kit import DESKTOP, PHONE, browsing, click, needs_chromium, shot, wait_until
from server_harness import Server, public
from tute.analysis import Settings
from tute.core.records import parse_record, replay

pytestmark = needs_chromium


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(f"sqlite:///{tmp_path / 'rv.db'}", robot_delay=0.0,
               analysis=Settings(min_samples=8, max_samples=8))
    yield s
    s.stop()


def test_a_hand_reviewed_move_by_move(server: Server) -> None:
    ana = server.account("Ana")
    game = _play_out(ana)
    record = parse_record(ana.get(f"/api/games/{game}/record.tute").text)
    done = replay(record)
    mine = [i for i, (who, _a) in enumerate(done.games[0].history)
            if done.seat_maps[0][who] == 0]
    with browsing() as browser:
        page = browser.new_context(viewport=DESKTOP).new_page()
        page.goto(f"{server.base}/games/{game}")           # anyone: a stranger here
        page.wait_for_selector("#review-seat option", state="attached")
        assert page.input_value("#review-seat") == "0"     # the person, not the robot
        assert page.locator("#review-result").is_hidden()
        page.click("#review-go")
        page.wait_for_selector("#review-progress:not([hidden])")
        said = page.inner_text("#review-progress-said")
        assert re.fullmatch(r"Analizando: \d+ de \d+ jugadas…", said), said
        shot(page, "review-progress")
        page.wait_for_selector("#review-moves li", timeout=90000)
        items = page.locator("#review-moves li")
        assert items.count() == len(mine)
        assert page.locator("#review-progress").is_hidden()
        assert page.locator("#review-go").is_hidden()
        summary = page.inner_text("#review-summary")
        assert summary.startswith("Ana en esta mano: precisión ") and "puntos perdidos" in summary
        grades = page.eval_on_selector_all("#review-moves li", "ls => ls.map(l => l.dataset.grade)")
        judged = sum(g != "forced" for g in grades)
        assert page.get_attribute("#review-chart", "data-points") == str(judged)
        assert page.locator("#review-chart circle").count() == judged
        # before Ana's first move: nothing to show but how to start
        assert "elige una jugada" in page.inner_text("#review-detail")
        # a decision picked in the list: the board goes there, its reasons are shown
        # (one that has reasons: not every decision does -- the target is 90 %)
        judgement = ana.get(f"/api/games/{game}/analysis?hand=1&seat=0").json()
        assert judgement["status"] == "done"
        pick = next(i for i, d in enumerate(judgement["decisions"])
                    if not d["forced"] and (d["why"] or d["why_not"]))
        click(items.nth(pick).locator("button"))
        wait_until(page, f"document.querySelector('#review-detail').dataset.index === "
                         f"'{mine[pick]}'")
        step = page.inner_text("#step-said")
        assert f"jugada {mine[pick] + 1} de" in step, step
        assert page.locator("#review-moves li.current").count() == 1
        detail = page.inner_text("#review-detail")
        assert "% de ganar la mano" in detail and "Las jugadas posibles" in detail
        assert page.locator("#review-detail .reasons li").count() >= 1
        assert page.locator("#review-detail table.alternatives tr.played").count() == 1
        shot(page, "review-desktop")
        # the board's own controls move the analysis along with it
        page.click("#last")
        wait_until(page, f"document.querySelector('#review-detail').dataset.index === "
                         f"'{mine[-1]}'")
        # in English: the reasons come in English, nothing in Spanish left
        page.select_option("#lang", "en")
        page.wait_for_selector("#review-summary:has-text('accuracy')")
        english = page.inner_text("#review")
        assert "Move-by-move analysis" in english and "Analizando" not in english
        assert "precisión" not in english and "review_" not in english
        page.select_option("#lang", "es")
        page.wait_for_selector("#review-summary:has-text('precisión')")
        page.set_viewport_size(PHONE)
        click(items.nth(pick).locator("button"))
        page.locator("#review-detail").scroll_into_view_if_needed()
        shot(page, "review-phone")
        boxes = [page.locator(s).bounding_box() for s in
                 ("#review-detail", "#review-moves", "#review-chart")]
        assert all(b is not None and b["x"] >= 0 and b["x"] + b["width"] <= PHONE["width"]
                   for b in boxes)
        # "¿Podía ganar?": asked once, the hand face up at every decision -- in the stock
        # said to be beyond an exact answer, from the stock's end the best play and score
        click(page.locator("#review-open"))
        page.wait_for_selector("#review-detail .open-line", timeout=60000)
        early = page.inner_text("#review-detail .open-line")
        late = max(i for i, g in enumerate(grades) if g != "forced")
        click(items.nth(late).locator("button"))
        wait_until(page, f"document.querySelector('#review-detail').dataset.index === "
                         f"'{mine[late]}'")
        page.wait_for_selector("#review-detail .open-line")
        said = page.inner_text("#review-detail .open-line")
        for text in (early, said):     # a hand ended by a tute: all of it in the stock
            assert re.fullmatch(r"(Quedaban cartas por robar: sin cálculo exacto|"
                                r"(Lo mejor era .+|Jugaste lo mejor): \d+ a \d+, "
                                r"(gana|pierde) tu lado)\.", text), text
        page.locator("#review-detail .open-hand").scroll_into_view_if_needed()
        shot(page, "review-open-phone")
        box = page.locator("#review-detail .open-line").bounding_box()
        assert box is not None and box["x"] + box["width"] <= PHONE["width"]
        # "Jugar de nuevo desde aquí": the same cards at a new table, this decision hers
        record_hand = done.games[0]
        click(page.locator("#review-again"))
        page.wait_for_selector("#hand button[data-legal]", timeout=30000)
        said = page.inner_text("#message")
        assert said.startswith("Mano 1 otra vez, desde la baza "), said
        shown = page.eval_on_selector_all("#hand button.card", "bs => bs.map(b => b.dataset.card)")
        table = next(t for t in server.lobby.tables.values()
                     if any(e["kind"] == "staged" for e in public(t)))
        assert page.url == f"{server.base}/?table={table.id}"   # the table's own page
        assert table.match is not None and table.match.game.to_act == 0
        assert sorted(shown) == sorted(str(c) for c in table.match.game.hand(0))
        assert list(table.match.game.history) == list(record_hand.history[:mine[late]])
        shot(page, "again-phone")
        page.goto(f"{server.base}/games/{game}")
        # another seat: not analysed yet, so the button is back; then Ana's again
        page.select_option("#review-seat", "1")
        page.wait_for_selector("#review-go:not([hidden])")
        assert page.locator("#review-result").is_hidden()
        page.select_option("#review-seat", "0")
        page.wait_for_selector("#review-moves li")
        assert page.locator("#review-go").is_hidden()
        # kept: a second visitor sees it at once, without asking
        other = browser.new_context(viewport=DESKTOP).new_page()
        other.goto(f"{server.base}/games/{game}")
        other.wait_for_selector("#review-moves li")
        assert other.locator("#review-moves li").count() == len(mine)
        assert other.locator("#review-go").is_hidden()
