"""What every browser test uses: the system Chromium, clicks that tolerate a page
re-rendering, polling through devtools, and screenshots kept for review.

Screenshots go to ``build/screens/`` (or ``$TUTE_SCREENS``): each test run leaves a
picture of every screen it went through, to be looked at by a person.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error, Page

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="Debian's chromium is not installed (scripts/test installs it "
                             "where it can)")
SCREENS = Path(os.environ.get("TUTE_SCREENS") or Path(__file__).parent.parent / "build"
               / "screens")
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 820}


def chromium(p: Any) -> Any:
    """The system Chromium, headless, as every browser test uses it."""
    return p.chromium.launch(executable_path=CHROMIUM, args=[
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"])


_SHARED: dict[str, Any] = {}          # this worker's Playwright driver and Chromium


@contextmanager
def browsing() -> Iterator[Any]:
    """A Chromium for one test: the worker's one, started at its first browser test
    (a driver and a browser cost ~1.7 s of CPU, the suite has ~60 browser tests), each
    test in contexts of its own -- every page a test opens is in a fresh context
    (``new_page``'s own or ``new_context``'s: no cookie or storage shared), and all
    are closed when the test ends, as a fresh browser's would be."""
    browser = _SHARED.get("browser")
    if browser is None or not browser.is_connected():
        from playwright.sync_api import sync_playwright

        if "driver" not in _SHARED:
            _SHARED["driver"] = sync_playwright().start()
        browser = _SHARED["browser"] = chromium(_SHARED["driver"])
    try:
        yield browser
    finally:
        for context in list(browser.contexts):
            context.close()


def close_shared() -> None:
    """The worker's Chromium and driver stopped (at the session's end)."""
    browser, driver = _SHARED.pop("browser", None), _SHARED.pop("driver", None)
    if browser is not None and browser.is_connected():
        browser.close()
    if driver is not None:
        driver.stop()


def click(element: object) -> bool:
    """Click a card or button the page may re-render meanwhile (a trick closing, a new
    view): a detached element is simply not clicked."""
    try:
        element.click(timeout=2000)  # type: ignore[attr-defined]
    except Error:
        return False
    return True


def wait_until(page: Page, expression: str, timeout: float = 15.0) -> None:
    """Poll a page until ``expression`` is true.  (Playwright's wait_for_function polls
    inside the page with eval, which the site's Content-Security-Policy forbids --
    rightly; evaluate() goes through the browser's devtools instead.)"""
    deadline = time.time() + timeout
    while not page.evaluate(expression):
        if time.time() > deadline:
            raise AssertionError(f"never true: {expression}")
        page.wait_for_timeout(50)


def inside_width(page: Page, selector: str) -> None:
    """The element is drawn, with a size, within the page's width (a player sees it
    without scrolling sideways).  Found afresh when measured: a list the page re-renders
    meanwhile (the lobby's, on every update) leaves an old element handle detached."""
    element = page.locator(selector)
    element.wait_for(state="visible")
    box = element.bounding_box()
    width = page.viewport_size["width"]                          # type: ignore[index]
    assert box is not None and box["width"] > 0 and box["height"] > 0, selector
    assert box["x"] >= 0 and box["x"] + box["width"] <= width + 1, (selector, box)


def fast(page: Page) -> None:
    """The player's own "rápido" setting (the table's pauses halved: a closed trick, the
    count), for tests whose point is not the pace -- a whole hand takes half the time.
    The normal pace is tried where it is the point (a trick seen whole, a tute shown)."""
    page.select_option("#speed", "fast")


def shot(page: Page, name: str) -> Path:
    """A screenshot of the page as it is now, kept under :data:`SCREENS`."""
    SCREENS.mkdir(parents=True, exist_ok=True)
    path = SCREENS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


def open_lobby(page: Page, port: int, name: str = "Ana") -> None:
    """The lobby, loaded (its games offered), with the player's name typed."""
    page.goto(f"http://127.0.0.1:{port}/")
    page.wait_for_selector("#variant option", state="attached")
    page.fill("#name", name)


def start_against_robots(page: Page, variant: str, level: str | None = None,
                         ready: str = "#hand button.card") -> None:
    """From the lobby: a table of ``variant`` against robots (of ``level``), started,
    until ``ready`` is on the page."""
    page.select_option("#variant", variant)
    if level is not None:
        page.select_option("#robot-level", level)
    page.click("#create")
    page.wait_for_selector(ready)


def deal_again_if_over(page: Page) -> bool:
    """Where the match is over already (a robot's tute, a cierre), deal the next one;
    whether it was."""
    if page.is_hidden("#after"):
        return False
    click(page.locator("#again"))
    page.wait_for_selector("#after", state="hidden")
    return True


def until_my_turn(page: Page, timeout: float = 45.0) -> None:
    """Until a legal card of the seat's is on the page, going on past whatever ends a
    hand or a match meanwhile: the count's "seguir", a finished match dealt again.  (A
    robot's tute is shown for ~3 s before its count, so a single look at ``#after`` can
    come too early.)"""
    deadline = time.time() + timeout
    while page.query_selector("#hand button.card.legal") is None:
        if time.time() > deadline:
            raise AssertionError("no legal card of the seat's came")
        if not page.is_hidden("#after"):
            click(page.locator("#again"))
        elif not page.is_hidden("#count-ok"):
            click(page.locator("#count-ok"))
        page.wait_for_timeout(100)


def play_until_count(page: Page, rounds: int = 600) -> None:
    """Play the seat's legal cards until the hand's count shows (or ``rounds`` tries)."""
    for _ in range(rounds):
        if page.inner_text("#count").strip():
            return
        card = page.query_selector("#hand button.card.legal")
        if card is not None:
            click(card)
        page.wait_for_timeout(100)


def register(page: Page, port: int, name: str,
             password: str = "naipes de la abuela") -> None:
    """The lobby, with a new account called ``name`` logged in."""
    open_lobby(page, port, name)
    page.click("#login-open")
    page.fill("#login-name", name)
    page.fill("#login-password", password)
    page.click("#register")
    page.wait_for_selector("#account-in:not([hidden])")
