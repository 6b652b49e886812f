"""A tournament's board (:mod:`tute.server.site.tourneys`): two entrants (or one and the
bye's robot) play one match, and its result -- seat 0's score and margin -- is kept on
the board with the match's end, in the same write, so the tournament's standings are
always those of the tables' own results."""

from __future__ import annotations

from tute.arena.duplicate import margin_of
from tute.core.match import Match
from tute.server.site.economy import winning_seats
from tute.server.store import ReportBoard
from tute.server.tables.view import TableView


def board_result(after: Match, players: int) -> tuple[float, int]:
    """Seat 0's score (1 won, ½ neither or both, 0 lost) and its margin over the
    match's hands."""
    v = after.variant
    seats = tuple(s == 0 for s in range(players))
    margin = sum(margin_of(v, r, seats) for r in after.score().results)
    won = winning_seats(after, range(players))
    score = 0.5 if (0 in won) == (1 in won) else 1.0 if 0 in won else 0.0
    return score, margin


class TourneyTable(TableView):
    def tourney_ops(self, after: Match) -> list[ReportBoard]:
        """The board's result, kept with the match's end."""
        if self.options.tourney is None or not after.score().results:
            return []
        score, margin = board_result(after, self.variant.players)
        return [ReportBoard(self.id, score, margin)]
