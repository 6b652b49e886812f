"""``tute bench --load N --analyses A``: the same tables while A hands of the review
page's analysis wait for the server's analysis worker -- asked before the tables are set
up, each from a loopback address of its own (one hand at a time per address), of hands
the heuristic robots played, opened as files (``/api/records/open`` names them) -- so
the round trip a player feels is measured beside them, against a run without.  After
the run it says how many were still being judged: the figure counts only if they were.
"""

from __future__ import annotations

import random

import httpx


def records(count: int, seed: int = 48) -> list[str]:
    """``count`` habanero hands the heuristic robots played, as record texts."""
    from tute.bots import make_bot
    from tute.core.driver import play_hand
    from tute.core.game import Game
    from tute.core.records import format_record, record_of_games

    rng = random.Random(seed)
    texts = []
    for k in range(count):
        g = Game.new("habanero", seed=rng.randrange(1 << 30))
        play_hand(g, [make_bot("heuristic", seed=k * 10 + s) for s in range(g.players)])
        texts.append(format_record(record_of_games([g])))
    return texts


def ask(base: str, texts: list[str]) -> list[str]:
    """Ask for seat 0's analysis of each record's hand: the URLs that say how it
    stands."""
    urls = []
    for i, text in enumerate(texts):
        with httpx.Client(base_url=base, timeout=60, transport=httpx.HTTPTransport(
                local_address=f"127.0.0.{40 + i % 200}")) as http:
            opened = http.post("/api/records/open", json={"text": text})
            opened.raise_for_status()
            name = opened.json()["game"]["file"]
            asked = http.post(f"/api/games/{name}/analysis",
                              json={"text": text, "hand": 1, "seat": 0})
            asked.raise_for_status()
            urls.append(f"/api/games/{name}/analysis?hand=1&seat=0")
    return urls


def running(base: str, urls: list[str]) -> int:
    """How many of the analyses asked are still being judged."""
    with httpx.Client(base_url=base, timeout=60) as http:
        return sum(http.get(u).json().get("status") == "running" for u in urls)
