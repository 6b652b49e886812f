"""The reference bot client says who won a match in words (issue 46): the names of the
winning seat or pair, and whether it was the bot's -- not "winner 0", a side's number."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
sys.path.insert(0, str(EXAMPLES))
import bot_client  # noqa: E402

PAIRS = ["Robo (bot)", "Ada (robot)", "Bruno (robot)", "Carmen (robot)"]


def _view(names: list[str], seat: int, winner: int | None, partnerships: bool,
          fmt: str = "first_to", annulled: bool = False) -> dict[str, Any]:
    return {"names": names, "seat": seat, "partnerships": partnerships,
            "match": {"over": True, "winner": winner, "format": fmt, "annulled": annulled}}


@pytest.mark.parametrize(("view", "said"), [
    (_view(PAIRS, 0, 1, True), "won by Ada (robot) + Carmen (robot)"),
    (_view(PAIRS, 0, 0, True), "won by Robo (bot) + Bruno (robot), this bot's side"),
    (_view(["Robo (bot)", "Ada (robot)"], 0, 1, False), "won by Ada (robot)"),
    (_view(["Robo (bot)", "Ada (robot)"], 0, 0, False), "won by Robo (bot), this bot"),
    (_view(["Robo (bot)", "Ada (robot)", "Bruno (robot)"], 0, 2, False, "elimination"),
     "won by Bruno (robot)"),
    (_view(PAIRS, 0, None, True, annulled=True), "annulled, nobody won"),
])
def test_the_winner_is_said_in_names(view: dict[str, Any], said: str) -> None:
    assert bot_client.winner_words(view) == said
