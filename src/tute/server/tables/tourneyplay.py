"""A tournament's board (:mod:`tute.server.site.tourneys`): two entrants (or one and the
bye's robot) play one match, and its result -- seat 0's score and margin -- is kept on
the board with the match's end, in the same write, so the tournament's standings are
always those of the tables' own results."""

from __future__ import annotations

from tute.core.match import Match
from tute.server.store import ReportBoard
from tute.server.tables.view import TableView
from tute.tourney.results import board_result


class TourneyTable(TableView):
    def tourney_ops(self, after: Match) -> list[ReportBoard]:
        """The board's result, kept with the match's end."""
        if self.options.tourney is None or not after.score().results:
            return []
        score, margin = board_result(after)
        return [ReportBoard(self.id, score, margin)]
