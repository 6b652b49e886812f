"""A duplicate series' table (:mod:`tute.server.site.series`): one person at seat 0 plays
one deal of the series against robots that play the same for everyone who plays the
same -- seeded by the deal, the seat and the actions so far, thinking by sampled deals
only (:mod:`tute.duplicate.series`) -- and the person's margin on it is kept with the
match's end, in the same write."""

from __future__ import annotations

from sqlalchemy.engine import Engine

from tute.core.match import Match
from tute.core.value import hand_value
from tute.core.views import PlayerView
from tute.duplicate.series import ROBOT_BUDGET, robot_seed
from tute.server.site.series import SeriesBook
from tute.server.store import FinishPlay
from tute.server.tables.autoplay import robot_seed as table_robot_seed
from tute.server.tables.view import TableView


class SeriesTable(TableView):
    series_master: str | None = None           # the series' (kept on the server)

    def load_series(self, engine: Engine) -> None:
        """A series' table rebuilt from the store: its series' master seed again."""
        if self.options.series is not None:
            self.series_master = SeriesBook(engine).get(self.options.series).master

    def robot_seed_for(self, seq: int, seat: int, view: PlayerView) -> int:
        """A robot's seed: a series' (the same for the same play), else the table's."""
        o = self.options
        if o.series is None or self.series_master is None:
            return table_robot_seed(seq, seat)
        return robot_seed(self.series_master, o.series_deal, seat, len(view.history))

    def robot_samples(self) -> int | None:
        """A series' robots think by sampled deals only (None: the level's budget)."""
        return ROBOT_BUDGET.samples if self.options.series is not None else None

    def series_ops(self, after: Match) -> list[FinishPlay]:
        """The person's margin on the series' deal, kept with the match's end."""
        o = self.options
        row = self.seats.get(0)
        results = after.score().results
        if o.series is None or row is None or row.account is None or not results:
            return []
        return [FinishPlay(o.series, row.account, o.series_deal,
                           hand_value(self.variant, results[0]).margins[0])]
