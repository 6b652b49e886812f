"""Thousands of events of robot games through the table authority, every preset to the
end of its match, a viewer on every seat: every state serialises, and no message to a
seat ever carries another seat's unplayed card that was not shown to everybody."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from server_harness import watch
from tute.core.variants import parse_variant
from tute.server.store import Store
from tute.server.tables.log import Options
from tute.server.tables.robots import Thinkers
from tute.server.tables.runtime import TableRuntime

VARIANTS = ["parejas(match_target=2)", "habanero(match_target=2)", "individual",
            "individual(players=3)", "tres(match_target=2)", "corriente", "arrastre",
            "online(players=2,match_target=2)", "online(players=3)", "online",
            "guinote", "guinote(players=4)", "subastado(players=4,match_target=150)",
            "subastado", "cabrero(players=3)", "cabrero", "cabrero(players=5)",
            "cabrero(players=6)"]


async def play_to_the_end(store: Store, variant: str, leaks: list[str],
                          counts: dict[str, int]) -> TableRuntime:
    table = await TableRuntime.create(store, Thinkers(), Options(parse_variant(variant),
                                      "heuristic", 0.0), None, robot_delay=0.0)
    await table.fill_robots(None)

    def collector(seat: int) -> object:
        def on_text(text: str) -> None:
            message = json.loads(text)
            counts["messages"] += 1
            view = message.get("view")
            if not view or table.match is None:
                return
            game = table.match.game
            if view["match"]["hand"] != table.match.hand_number or view["phase"] == "over":
                return              # an earlier hand, or a finished one: all public
            # cards only ever leave hands: one in another hand now that the message
            # carries, and not shown, was hidden when it was sent
            mine = view["seat"]                  # the hand's seat (elimination: not seat)
            shown = {c for k in view["known_cards"] for c in k}
            shown |= {c for x in view["cantes_shown"] for c in x["cards"]}
            if view["turn_up"]:
                shown.add(view["turn_up"])
            text_ = json.dumps({k: v for k, v in view.items() if k != "hand"})
            for other in range(game.players):
                if other != mine:
                    for card in game.hand(other):
                        if f'"{card.code}"' in text_ and card.code not in shown:
                            leaks.append(f"{variant} seat {seat}: {card.code}")
        return on_text

    tasks = [watch(table, seat, collector(seat))  # type: ignore[arg-type]
             for seat in range(table.variant.players)]
    await table.start(None)
    for _ in range(6000):                          # up to a minute
        if table.match is not None and table.match.is_over:
            break
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.05)
    for task in tasks:
        task.cancel()
    counts["events"] += table.seq
    return table


def test_every_preset_plays_to_the_end_and_no_message_leaks(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'p.db'}")
    leaks: list[str] = []
    counts = {"messages": 0, "events": 0}

    async def main() -> list[str]:
        unfinished = []
        for variant in VARIANTS:
            table = await play_to_the_end(store, variant, leaks, counts)
            if table.match is None or not table.match.is_over:
                unfinished.append(variant)
            assert table.status in ("over", "playing")
        return unfinished

    unfinished = asyncio.run(main())
    assert not unfinished, unfinished
    assert not leaks, leaks[:5]
    assert counts["events"] >= 2000 and counts["messages"] >= 5000, counts
