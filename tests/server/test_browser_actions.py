"""An action in words has one home in the browser (static/actions.js, issue 47), fed the
typed form the server sends beside each action: every kind is said at every place that
speaks of it, in the words the page used before, for the person and for the others."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_kit import PHONE, chromium, needs_chromium
from server_harness import Server
from tute.core.actions import FORTY, PASS, SWAP, TUTE, Bid, action_fields, parse_action

pytestmark = needs_chromium
MOVES = [action_fields(a) for a in (parse_action("Ao"), parse_action("20c"), FORTY, TUTE, SWAP,
                                    Bid(75), PASS, parse_action("trump e"),
                                    parse_action("manilla b"))]


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(f"sqlite:///{tmp_path / 'act.db'}")
    yield s
    s.stop()


def _said(page: Any) -> dict[str, list[Any]]:
    return page.evaluate("""async (moves) => {
      const i = await import('/static/i18n.js');
      const a = await import('/static/actions.js');
      await i.loadText('es'); i.setLang('es');
      const out = {};
      for (const where of ['label', 'announce', 'log', 'replay']) {
        out[where] = moves.map((m) => a.actionWords(m, where, m.kind === 'swap'
          ? { name: 'Ana', mine: 'el 7 de espadas', card: 'el as de espadas' } : { name: 'Ana' }));
        out[where + '_you'] = moves.map((m) => a.actionWords(m, where, {}, true));
      }
      return out;
    }""", MOVES)


def test_every_action_is_said_where_the_page_speaks_of_it(server: Server) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = chromium(p)
        page = browser.new_context(viewport=PHONE).new_page()
        page.goto(server.base + "/")
        said = _said(page)
        browser.close()
    assert said["label"] == ["el as de oros", "Cantar 20 en copas", "Cantar las 40",
                             "Cantar tute", said["label"][4], "Pujar 75", said["label"][6],
                             said["label"][7], "Manilla en bastos"], said["label"]
    assert all(isinstance(w, str) and w for w in said["label"])       # every kind labelled
    assert said["announce"][0] is None                     # a card is shown, not told
    assert said["announce"][2] == "¡Ana canta las cuarenta!"
    assert said["announce_you"][2] == "¡Cantas las cuarenta!"
    assert said["announce"][5] == "Ana puja 75"
    assert said["announce"][4] == "Ana cambia el 7 de espadas por el as de espadas"
    assert said["log"][4] == "Ana cambia el triunfo de la muestra"
    assert said["replay"][0] == "Ana juega el as de oros"
    for where in ("announce", "log", "replay"):             # every word but a card's told
        for who in (where, where + "_you"):
            assert all(w for w in said[who][1:]), (who, said[who])
            assert not any("{" in w or "web_" in w for w in said[who][1:]), (who, said[who])
