"""L0 and L1 computer players through the driver loop: views only, legal moves only."""

from __future__ import annotations

import pytest

from tute import Game
from tute.bots import HeuristicBot, RandomBot, make_bot
from tute.core.driver import play_hand
from tute.core.errors import InvalidVariantError
from tute.core.views import PlayerView

PRESETS = ["parejas", "habanero", "individual", "individual(players=3)", "tres", "corriente",
           "arrastre", "online", "online(players=2)", "guinote", "guinote(players=4)",
           "subastado", "subastado(players=4)", "cabrero", "cabrero(players=5)",
           "parejas(manilla=20,sing_who=both_one_each)"]


class Watching(HeuristicBot):
    """Records what it is given: only views."""

    seen: list[object]

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.seen = []

    def choose(self, view: PlayerView, budget: object = None) -> object:  # type: ignore[override]
        self.seen.append(view)
        assert isinstance(view, PlayerView)
        action = super().choose(view)
        assert action in view.legal
        return action


@pytest.mark.parametrize("text", PRESETS)
def test_bots_play_every_preset(text: str) -> None:
    for seed in range(6):
        g = Game.new(text, seed=seed)
        bots = [Watching(seed) if s % 2 else RandomBot(seed + s) for s in range(g.players)]
        play_hand(g, bots)  # type: ignore[arg-type]
        assert g.is_over
        for b in bots:
            if isinstance(b, Watching):
                assert all(isinstance(v, PlayerView) for v in b.seen)


def test_heuristic_beats_random_on_fixed_deals() -> None:
    for text in ("habanero", "parejas"):
        won = 0
        deals = 60
        for d in range(deals):
            for swap in (0, 1):
                g = Game.new(text, seed=d)
                players = []
                for s in range(g.players):
                    mine = (s % 2 == swap) if g.variant.partnerships else s == swap
                    players.append(make_bot("heuristic" if mine else "random", seed=d * 7 + s))
                play_hand(g, players)
                r = g.result()
                assert r is not None
                won += r.winner == swap
        assert won / (2 * deals) > 0.6, (text, won)


def test_unknown_level() -> None:
    with pytest.raises(InvalidVariantError):
        make_bot("grandmaster")


def test_which_levels_people_play_against_is_said_in_one_place() -> None:
    """A table's, a series' and a tournament's robots are checked by one function
    (issue 47: the check was written four times)."""
    import pytest

    from tute.bots import LEVELS, check_level
    from tute.core.errors import TuteError

    assert [check_level(level) for level in LEVELS] == list(LEVELS)
    for wrong in ("expert-3x", "Expert", "", None, 3):
        with pytest.raises(TuteError) as refused:
            check_level(wrong)
        assert refused.value.key == "unknown_bot"
        assert "expert" in refused.value.localized("es")
