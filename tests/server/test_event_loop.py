"""Who is asking is found off the event loop: a person's session (or a bot's token) is
looked up in the store, and a slow store must not hold everybody else's requests.  Each
request below is made while the session check is slowed down to seconds; a guest's
request meanwhile answers at once."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from server_harness import Client, Server

SLOW = 2.0                        # seconds the session check takes, slowed down


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(f"sqlite:///{tmp_path / 'loop.db'}")
    yield s
    s.stop()


def _slowed(server: Server) -> None:
    people = server.app.state.accounts
    real = people.account_of

    def slow(secret: str | None) -> Any:
        if secret is not None:
            time.sleep(SLOW)
        return real(secret)
    people.account_of = slow


def _meanwhile(server: Server, ask: Callable[[], httpx.Response]) -> float:
    """How long a guest waits for the lobby's page data while ``ask`` is in flight."""
    done: list[httpx.Response] = []
    t = threading.Thread(target=lambda: done.append(ask()))
    t.start()
    time.sleep(0.3)                                 # the slow ask is in its check now
    began = time.time()
    r = server.client("127.0.0.9").get("/api/meta")
    waited = time.time() - began
    t.join(30)
    assert r.status_code == 200 and done and done[0].status_code < 500, done
    return waited


def test_a_slow_session_check_holds_no_one_else(server: Server) -> None:
    ana = server.account("Ana")
    table = ana.post("/api/tables", {"variant": "habanero", "name": "Ana"}).json()["id"]
    bea = server.account("Bea", "127.0.0.2")
    _slowed(server)
    asks: dict[str, Callable[[], httpx.Response]] = {
        "the tables": lambda: ana.get("/api/tables"),
        "my seats": lambda: ana.get("/api/session"),
        "a new table": lambda: bea.post("/api/tables", {"variant": "parejas", "name": "Bea"}),
        "the host's robots": lambda: ana.post(f"/api/tables/{table}/robots"),
    }
    slow = {what: round(_meanwhile(server, ask), 2) for what, ask in asks.items()}
    assert all(waited < SLOW / 2 for waited in slow.values()), slow


def test_the_check_is_slowed_indeed(server: Server) -> None:
    """The measure can fail: a request of the slowed person's own waits the whole check."""
    ana: Client = server.account("Ana")
    _slowed(server)
    began = time.time()
    assert ana.get("/api/tables").status_code == 200
    assert time.time() - began >= SLOW
