"""A whole hand of every game in a real browser, each on one of issue 29's screen sizes
(phones upright and sideways, a desktop): at every change of the hand, the trick, the
auction or an announcement, every card of the hand lies inside the screen and no
announcement covers a card of the trick or the auction's panel.  Screens saved."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from browser_kit import browsing, needs_chromium, open_lobby, shot
from server_harness import Server

pytestmark = needs_chromium

# every change of the board: what was out of place, kept in window.__wrong
_WATCH = """() => {
  window.__wrong = []; window.__seen = 0;
  const area = (a, b) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left))
    * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
  const check = () => {
    window.__seen += 1;
    const vw = innerWidth, vh = innerHeight;
    for (const e of document.querySelectorAll('#hand .card')) {
      const r = e.getBoundingClientRect();
      if (r.left < -0.5 || r.top < -0.5 || r.right > vw + 0.5 || r.bottom > vh + 0.5) {
        window.__wrong.push('off screen: ' + e.dataset.card);
      }
    }
    const box = document.querySelector('#announce');
    if (!box.hidden && box.dataset.announce) {
      const r = box.getBoundingClientRect();
      const under = [...document.querySelectorAll('#trick .played .card')];
      const panel = document.querySelector('#auction');
      if (!panel.hidden) under.push(panel);
      for (const e of under) {
        if (area(r, e.getBoundingClientRect()) > 0) {
          window.__wrong.push('announcement ' + box.dataset.announce + ' over ' + (e.dataset.card || 'the auction'));
          window.__shoot = true;
        }
      }
    }
  };
  const watch = new MutationObserver(check);
  for (const id of ['#hand', '#trick', '#announce', '#auction', '#count-box']) {
    watch.observe(document.querySelector(id), {attributes: true, childList: true, subtree: true});
  }
}"""

# one game of each preset, each on one of the sizes
GAMES = [("parejas", (360, 640)), ("habanero", (360, 740)), ("individual", (390, 844)),
         ("tres", (412, 915)), ("corriente", (740, 360)), ("arrastre", (1280, 800)),
         ("online", (360, 640)), ("guinote(players=4)", (360, 740)),
         ("subastado(players=4)", (412, 915)), ("cabrero(players=6)", (390, 844))]


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(f"sqlite:///{tmp_path / 'bp.db'}")
    yield s
    s.stop()


@pytest.mark.parametrize(("variant", "size"), GAMES, ids=[g for g, _ in GAMES])
def test_a_whole_hand_of_every_game_in_sight(server: Server, variant: str,
                                             size: tuple[int, int]) -> None:

    with browsing() as browser:
        page = browser.new_context(viewport={"width": size[0], "height": size[1]}).new_page()
        open_lobby(page, server.port)
        page.select_option("#speed", "fast")
        page.select_option("#variant", variant)
        page.select_option("#robot-level", "random")
        page.click("#create")
        page.wait_for_selector("#seats-ring .seat")
        page.evaluate(_WATCH)
        played = 0
        for _ in range(3000):                      # the seat's moves, as a person taps
            if not page.is_hidden("#count-box"):
                if played or page.is_hidden("#count-ok"):
                    break
                page.click("#count-ok")            # a hand sat out (Cabrero): the next
                page.wait_for_selector("#count-box", state="hidden")
            if page.evaluate("window.__shoot === true"):      # the screen of a fault
                shot(page, f"preset-fault-{variant.split('(')[0]}-{size[0]}x{size[1]}")
                page.evaluate("window.__shoot = false")
            if not page.query_selector("#trick[data-closed]"):
                played += page.evaluate("""() => {
                  const card = document.querySelector('#hand button[data-legal]');
                  const pass = document.querySelector("#declare button[data-action='pass']");
                  const other = document.querySelector('#declare button[data-action]');
                  const tap = card || pass || other;
                  if (tap) tap.click();
                  return tap ? 1 : 0;
                }""")
            page.wait_for_timeout(60)
        assert not page.is_hidden("#count-box"), "the hand never ended"
        shot(page, f"preset-{variant.split('(')[0]}-{size[0]}x{size[1]}")
        seen, wrong = page.evaluate("[window.__seen, window.__wrong]")
    assert played > 3 and seen > 20, (played, seen)  # it watched a hand being played
    assert wrong == [], wrong[:10]
