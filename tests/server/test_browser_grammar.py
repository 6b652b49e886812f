"""The page's words agree with what they say (issue 46), on a phone: a saved game of
``tute play`` tells its "Tú" in the second person ("Juegas", not "Tú juega"); a pair
wins a match in the plural ("Ana + Bruno ganan", "… win"); the page joins a
preposition and a card's article as the language does ("pelo ás", "dell'asso")."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from browser_kit import PHONE, browsing, click, needs_chromium, shot
from server_harness import Server, play_out

pytestmark = needs_chromium
SEED002 = Path(__file__).resolve().parents[2] / "examples" / "seed002.tute"


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(f"sqlite:///{tmp_path / 'gr.db'}")
    yield s
    s.stop()


def test_the_open_page_speaks_to_you_and_of_pairs_in_the_plural(server: Server,
                                                                 tmp_path: Path) -> None:

    ana = server.account("Ana")
    game = f"{play_out(ana, 'parejas(match_target=1)', robot_level='heuristic')}-1"
    pairs = tmp_path / "pairs.tute"
    pairs.write_text(ana.get(f"/api/games/{game}/record.tute").text, encoding="utf-8")
    with browsing() as browser:
        page = browser.new_context(viewport=PHONE).new_page()
        page.goto(f"{server.base}/open")
        page.wait_for_selector("#open-box:not([hidden])")
        page.set_input_files("#open-file", str(SEED002))       # "Tú" against Ada
        page.wait_for_selector("#table:not([hidden]) #seats-ring .seat")
        said = []
        for _ in range(3):
            click(page.locator("#next"))
            page.wait_for_timeout(100)
            said.append(page.inner_text("#move-said"))
        shot(page, "open-second-person-phone")
        assert page.inner_text("#trick .trick-winner") == "La baza es tuya"   # not "para Tú"
        assert said[:2] == ["Cambias el siete por la carta de triunfo",
                            "Juegas el 2 de copas"], said
        assert said[2].startswith("Ada ") and not any("Tú " in s for s in said), said
        page.set_input_files("#open-file", str(pairs))         # a match won by a pair
        page.wait_for_selector("#game-facts:has-text('Ana')")
        facts = page.inner_text("#game-facts")
        assert re.search(r"\w+ \+ \w+ ganan la partida$", facts), facts
        page.evaluate("scrollTo(0, 0)")
        shot(page, "open-pair-won-phone")
        page.select_option("#lang", "en")
        page.wait_for_selector("#game-facts:has-text('match')")
        facts = page.inner_text("#game-facts")
        assert re.search(r"\w+ \+ \w+ win the match$", facts), facts
        # the page's own texts: a preposition and a card's article joined
        joined = page.evaluate("""async () => {
          const i = await import('/static/i18n.js');
          const out = [];
          for (const [code, key, params] of [
              ['pt', 'announce_swap', {name: 'Ana', mine: 'o 7 de ouros', card: 'o ás de ouros'}],
              ['es', 'announce_swap', {name: 'Ana', mine: 'el 7 de oros', card: 'el as de oros'}],
              ['it', 'card', {rank: "l'asso", suit: 'ori'}]]) {
            await i.loadText(code); i.setLang(code); out.push(i.t(key, params));
          }
          i.setLang('en');
          return out;
        }""")
        assert joined[0] == "Ana troca o 7 de ouros pelo ás de ouros", joined
        assert joined[1] == "Ana cambia el 7 de oros por el as de oros", joined
        assert "\x00" not in "".join(joined)
