"""Opening a saved game on the replay page, in a real browser on a phone and a desktop:
a ``.tpn`` file of two matches is chosen, the first hand is dealt face up and stepped
through, the second match is picked; a file that is not a record says why.  On the
phone, the opened hand is analysed move by move, as a kept match's is (without what
only a kept match offers: its hand face up, playing on from a decision)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from browser_kit import (
    DESKTOP,
    PHONE,
    browsing,
    click,
    inside_width,
    needs_chromium,
    shot,
)
from server_harness import Server
from tute.analysis import Settings
from tute.core.notation import format_notation
from tute.core.records import parse_record

pytestmark = needs_chromium
SEED002 = Path(__file__).resolve().parents[2] / "examples" / "seed002.tute"


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(f"sqlite:///{tmp_path / 'open.db'}",
               analysis=Settings(min_samples=4, max_samples=4))
    yield s
    s.stop()


@pytest.mark.parametrize(("size", "name"), [(PHONE, "phone"), (DESKTOP, "desktop")])
def test_a_saved_game_opens_and_steps(server: Server, tmp_path: Path,
                                      size: dict[str, int], name: str) -> None:

    record = parse_record(SEED002.read_text(encoding="utf-8"))
    file = tmp_path / "two.tpn"
    file.write_text(format_notation([record, record]), encoding="utf-8")
    junk = tmp_path / "junk.tute"
    junk.write_text("not a record", encoding="utf-8")
    with browsing() as browser:
        page = browser.new_context(viewport=size).new_page()
        page.goto(f"http://127.0.0.1:{server.port}/open")
        page.wait_for_selector("#open-box:not([hidden])")
        assert page.is_hidden("#table") and page.is_hidden("#review")
        assert "Abrir una partida guardada" in page.inner_text("#open-box")
        page.set_input_files("#open-file", str(junk))
        page.wait_for_selector("#message:not(:empty)")
        assert "línea" in page.inner_text("#message"), page.inner_text("#message")
        page.set_input_files("#open-file", str(file))
        page.wait_for_selector("#table:not([hidden]) #seats-ring .seat")
        assert page.is_visible("#open-game")                       # two matches
        assert page.is_hidden("#download") and page.is_visible("#review")
        assert "Tú" in page.inner_text("#game-facts")
        assert "sin terminar" in page.inner_text("#game-facts")     # a match to 5, 1-0
        for _ in range(6):
            click(page.locator("#next"))
        assert page.inner_text("#step-said").strip()
        assert page.inner_text("#move-said").strip()
        inside_width(page, "#cloth")
        inside_width(page, "#replay-controls")
        shot(page, f"open-record-{name}")
        if name == "phone":
            page.click("#review-go")
            page.wait_for_selector("#review-moves li", timeout=90_000)
            summary = page.inner_text("#review-summary")
            assert summary.startswith("Tú en esta mano: precisión "), summary
            judged = page.locator("#review-moves li:not([data-grade='forced']) button")
            click(judged.first)
            page.wait_for_selector("#review-detail table.alternatives")
            detail = page.inner_text("#review-detail")
            assert "% de ganar la mano" in detail and "Las jugadas posibles" in detail
            assert page.query_selector("#review-again") is None            # not a file's
            assert page.query_selector("#review-detail .open-hand") is None
            inside_width(page, "#review-moves")
            page.locator("#review-detail").scroll_into_view_if_needed()
            shot(page, "open-record-review-phone")
        page.select_option("#open-game", "2")
        page.wait_for_timeout(300)
        assert page.inner_text("#open-game option:checked").strip().endswith("2")
