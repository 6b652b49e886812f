"""Spectators see the public table only: never a hand, never the stock.

The property: over thousands of events of robot games (every family of games, matches
of several hands, an elimination match), no message a spectator gets carries a card
that is not yet public -- checked against the game rebuilt independently from the
table's stored events -- and its numbering has no gap.  The same check run on a
player's messages finds its hand: the check can fail."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import orjson
import pytest

from tute.core.cards import ALL_CARDS
from tute.core.game import Game
from tute.core.variants import parse_variant
from tute.server.store import Event, Store
from tute.server.tables.log import Options, Replayed, apply_event
from tute.server.tables.robots import Thinkers
from tute.server.tables.runtime import TableRuntime
from tute.server.wire.hub import SPECTATOR, Viewer

CODES = frozenset(c.code for c in ALL_CARDS)
VARIANTS = ("parejas", "habanero", "tres", "guinote(players=4)", "subastado",
            "cabrero")


def card_codes(value: Any) -> set[str]:
    """Every string in a JSON value that is a card's code."""
    if isinstance(value, str):
        return {value} if value in CODES else set()
    if isinstance(value, list):
        return set().union(*(card_codes(v) for v in value)) if value else set()
    if isinstance(value, dict):
        return set().union(*(card_codes(v) for v in value.values())) if value else set()
    return set()


def hidden_cards(game: Game) -> set[str]:
    """The cards nobody but their holder may know now: in hands (unless shown to all)
    and face down in the stock."""
    where = game.locations()
    n = game.players
    shown = {c.code for s in range(n) for c in game.view((s + 1) % n).known_cards[s]}
    held = {c.code for k, cards in where.items() if k.startswith("hand") for c in cards}
    return (held - shown) | {c.code for c in where["stock"]}


def leaks(messages: list[dict[str, Any]], stored: list[Event], variant: str
          ) -> list[str]:
    """The hidden cards each message's view shows, checked against the game rebuilt
    from the stored events up to the message's event."""
    state = Replayed(Options(parse_variant(variant), "random", 0.0))
    applied = 0
    found: list[str] = []
    for m in messages:
        seq = int(m["event"]["seq"])
        while applied < seq:
            apply_event(state, stored[applied])
            applied += 1
        view = m.get("view")
        if view is None or state.match is None:
            continue
        game = state.match.game
        shown = dict(view)
        if "dealt" in shown or "drawn" in shown:
            assert game.is_over, f"event {seq}: the hands shown before the hand is over"
            shown.pop("dealt", None)
            shown.pop("drawn", None)
        bad = card_codes(shown) & hidden_cards(game)
        if bad:
            found.append(f"event {seq}: {sorted(bad)}")
    return found


def numbers(messages: list[dict[str, Any]]) -> list[int]:
    return [int(m["event"]["seq"]) for m in messages
            if m.get("type") == "event" and m["event"]["kind"] != "state"]


async def _watch_a_match(store: Store, variant: str) -> tuple[
        TableRuntime, list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    table = await TableRuntime.create(store, Thinkers(), Options(
        parse_variant(variant), "heuristic", 0.0), None, robot_delay=0.0)
    await table.fill_robots(None)
    early = Viewer(SPECTATOR, "", "Vera")
    player = Viewer(0)
    texts: dict[Viewer, list[str]] = {early: [], player: []}

    async def read(v: Viewer) -> None:            # as its socket would
        while (text := await v.next()) is not None:
            texts[v].append(text)
    loop = asyncio.get_running_loop()
    readers = [loop.create_task(read(v)) for v in texts]
    table.attach(early)
    table.attach(player)
    await table.start(None)
    assert table.match is not None
    late: list[dict[str, Any]] = []
    begun = table.seq
    for _ in range(60000):                         # up to a minute
        if table.match.is_over:
            break
        if not late and table.seq > begun + 15:   # one who comes in the middle
            comer = Viewer(SPECTATOR, "", "Tomás")
            table.attach(comer)
            late = [orjson.loads(t) for t in table.missed(comer, 0)]
        await asyncio.sleep(0.001)
    assert table.match.is_over, f"{variant}: the robots did not finish the match"
    if not late:                       # a short match (a robot's tute): comes at the end
        late = [orjson.loads(t) for t in table.missed(Viewer(SPECTATOR, "", "Tomás"), 0)]

    await asyncio.sleep(0.05)
    for r in readers:
        r.cancel()

    def drained(v: Viewer) -> list[dict[str, Any]]:
        assert not v.dropped
        out = [orjson.loads(t) for t in texts[v]]
        return [m for m in out if m.get("type") == "event"]
    watched, played = drained(early), drained(player)
    table.shut()
    return table, watched, late, played


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_spectator_never_sees_a_card_not_yet_public(tmp_path: Path, variant: str
                                                      ) -> None:
    for attempt in range(5):         # a robot's tute may end a one-hand match at once:
        store = Store(f"sqlite:///{tmp_path / f'w{attempt}.db'}")   # then watch another
        try:
            table, watched, late, played = asyncio.run(_watch_a_match(store, variant))
            record = store.load(table.id)
        finally:
            store.close()
        assert record is not None
        stored = record.events
        if len(stored) > 30:
            break
    seen = numbers(watched)                        # from the match's start to its end
    assert seen == list(range(seen[0], stored[-1].seq + 1)) and seen[0] <= 8
    assert numbers(late) == list(range(1, numbers(late)[-1] + 1))
    assert leaks(watched, stored, variant) == []
    assert leaks(late, stored, variant) == []
    assert next(m for m in late if m["event"]["kind"] == "state")["view"]["hand"] == []
    # the hands are shown once a hand is over
    over = [m["view"] for m in watched if m.get("view") and m["view"]["phase"] == "over"]
    assert over and all(len(v["dealt"]) == v["players"] for v in over)
    # the check finds what a player's own messages show: it can fail
    assert leaks(played, stored, variant)
    assert len(stored) > 30
