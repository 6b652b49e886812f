"""Thousands of events of robot games: no message to a seat ever carries another seat's
unplayed card that was not shown to everybody."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from tute.server.store import Store
from tute.server.table import TableRuntime


def test_no_message_leaks_a_hidden_card(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'p.db'}")
    checked = 0
    leaks: list[str] = []

    async def run(variant: str) -> int:
        nonlocal checked
        table = TableRuntime.create(store, variant, "heuristic", robot_delay=0.0)
        await table.fill_robots()

        def collector(seat: int) -> Any:
            async def send(text: str) -> None:
                nonlocal checked
                view = json.loads(text).get("view")
                checked += 1
                if not view or table.match is None:
                    return
                game = table.match.game
                shown = {c for k in view["known_cards"] for c in k}
                shown |= {c for x in view["cantes_shown"] for c in x["cards"]}
                if view["turn_up"]:
                    shown.add(view["turn_up"])
                text = json.dumps({k: v for k, v in view.items() if k != "hand"})
                for other in range(game.players):
                    if other == seat:
                        continue
                    for card in game.hand(other):
                        if f'"{card.code}"' in text and card.code not in shown:
                            leaks.append(f"{variant} seat {seat}: {card.code}")
            return send

        for seat in range(table.variant.players):
            table.attach(seat, collector(seat))
        await table.start(None)
        for _ in range(600):
            if table.robot_task is None:
                break
            await asyncio.sleep(0.01)
            if table.robot_task.done():
                break
        if table.robot_task is not None:
            await table.robot_task
        return table.seq

    async def main() -> int:
        total = 0
        variants = ["parejas(match_target=2)", "online(players=2,match_target=2)",
                    "subastado(players=4,match_target=150)", "guinote(players=4)",
                    "cabrero(players=3)", "tres(match_target=2)", "online(players=3)"]
        i = 0
        while total < 2000 or i < len(variants):        # thousands of events, every kind
            total += await run(variants[i % len(variants)])
            i += 1
        return total

    events = asyncio.run(main())
    assert not leaks, leaks[:5]
    assert events >= 2000 and checked >= 5000, (events, checked)
