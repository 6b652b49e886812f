"""A table's options: the game, the robots, the clock and seed 001's table options."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tute.core.variants import Variant


@dataclass(slots=True)
class Options:
    variant: Variant
    robot_level: str
    move_seconds: float
    competitive: bool = False        # for XP and chips (seed 001); else practice
    bet: int = 0                     # chips each person puts in the pot of a match
    spectators: bool = True          # "Permitir público": anyone may watch
    chat_in_hand: bool = True        # the players may chat while a hand is played
    private: bool = False            # "Mesa privada": the invited and the host's friends
    series: str | None = None        # a duplicate series' deal (site.series), and which
    series_deal: int = 0
    tourney: str | None = None       # a tournament's board (site.tourneys): which
    tourney_round: int = 0
    tourney_board: int = 0
    bots: str = "no"                 # bot accounts may sit: no | yes | only (site.bots)

    def json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"variant": str(self.variant), "robot_level": self.robot_level,
                               "move_seconds": self.move_seconds}
        if self.competitive:
            out.update(competitive=True, bet=self.bet)
        if not self.spectators:
            out["spectators"] = False
        if not self.chat_in_hand:
            out["chat_in_hand"] = False
        if self.private:
            out["private"] = True
        if self.bots != "no":
            out["bots"] = self.bots
        if self.series is not None:
            out.update(series=self.series, series_deal=self.series_deal)
        if self.tourney is not None:
            out.update(tourney=self.tourney, tourney_round=self.tourney_round,
                       tourney_board=self.tourney_board)
        return out
