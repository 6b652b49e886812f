"""What a part of the partner's hand is worth: ``cheat-partner-half``/``-quarter`` and
``tute arena --paired-with``."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import random_play
from tute import Game
from tute.arena.duplicate import ArenaError, PairSpec, results_path, run_pair
from tute.arena.paired import paired
from tute.bots.base import Budget
from tute.bots.cheat import PARTNER_CHEATS
from tute.bots.sampler import exclusions


@pytest.mark.parametrize(("level", "share", "variant"), [
    ("cheat-partner-half", 5, "parejas"), ("cheat-partner-quarter", 2, "parejas"),
    ("cheat-partner-half", 3, "guinote(players=4)")])
def test_told_a_share_of_the_partners_hand(level: str, share: int, variant: str) -> None:
    """Told a share of the partner's cards at the deal: every sampled deal gives the
    partner the told cards he still holds (never the stock, where there is one), and the
    rest of his hand is still guessed."""
    for seed in range(3):
        start = Game.new(variant, seed=seed)
        seat = (seed + 1) % 4
        partner = (seat + 2) % 4
        bot = PARTNER_CHEATS[level](seed, Budget(samples=4))
        bot.attach(start, seat)
        assert len(bot.shown) == share and bot.shown <= set(start.hand(partner))
        again = PARTNER_CHEATS[level](seed + 99, None)
        again.attach(start, seat)
        assert again.shown == bot.shown                   # drawn from the deal itself
        g = start
        random_play(g, random.Random(seed), 4 + seed)
        view = g.view(seat)
        told = bot.shown & set(g.hand(partner))
        guessed = set()
        deals = bot.deals(view, exclusions(view), 8)
        for _ in range(8):
            d = next(deals)
            assert told <= set(d.hand(partner))
            assert set(d.hand(seat)) == set(g.hand(seat))
            guessed.add(frozenset(d.hand(partner)))
        assert len(guessed) > 1                           # the rest is still unknown


def test_paired_with_compares_two_pairs_deal_by_deal(tmp_path: Path) -> None:
    """The difference of the two first bots' margins on the deals both played, and a
    typed refusal for pairs that did not play the same deals."""
    a = PairSpec("heuristic", "random", "parejas", 5, None, None)
    b = PairSpec("random", "random", "parejas", 5, None, None)
    run_pair(a, 12, tmp_path, 1, None)
    run_pair(b, 8, tmp_path, 1, None)
    p = paired(a, b, tmp_path, 12)
    rows = [[json.loads(x) for x in results_path(tmp_path, s).read_text().splitlines()[1:]]
            for s in (a, b)]
    want = sum(r["margin_a"] for r in rows[0][:8]) / 8 - sum(r["margin_a"] for r in rows[1]) / 8
    assert p["deals"] == 8 and p["difference"] == round(want, 2)
    ci = p["ci95"]
    assert isinstance(ci, list) and ci[0] <= p["difference"] <= ci[1]
    with pytest.raises(ArenaError):
        paired(a, PairSpec("random", "heuristic", "parejas", 5, None, None), tmp_path, 12)
    with pytest.raises(ArenaError):
        paired(a, PairSpec("random", "random", "parejas", 6, None, None), tmp_path, 12)
    command = [sys.executable, "-m", "tute.cli", "arena", "--bots", "heuristic,random",
               "--variant", "parejas", "--deals", "12", "--seed", "5", "--jobs", "1",
               "--results", str(tmp_path)]
    r = subprocess.run([*command, "--paired-with", "random,random"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert f"on the same 8 deals: heuristic's margin less random's {p['difference']:+.2f}" \
        in r.stdout
    r = subprocess.run([*command, "--paired-with", "random,random", "--json"],
                       capture_output=True, text=True, timeout=120)
    said = json.loads(r.stdout)                           # one object: the run's and paired
    assert said["paired"] == p and said["pairs"][0]["deals"] == 12
    files = sorted(tmp_path.iterdir())
    for bad in (["--paired-with", "random,heuristic"], ["--paired-with", "random"],
                ["--paired-with", "nobody,random"], ["--paired-with", "random,random",
                                                     "--dd-loss"]):
        r = subprocess.run([*command, "--deals", "20", *bad], capture_output=True,
                           text=True, timeout=120)
        assert r.returncode == 2 and r.stderr.startswith("tute: "), (bad, r.stderr)
        assert "Traceback" not in r.stderr
    assert sorted(tmp_path.iterdir()) == files            # refused before any deal
    assert len(results_path(tmp_path, a).read_text().splitlines()) == 13


def test_cheat_hands_is_told_the_other_hand_but_not_the_stock() -> None:
    """In habanero ``cheat-hands`` knows the opponent's hand, his draws too, and still
    guesses the stock's order."""
    for seed in range(3):
        g = Game.new("habanero", seed=seed)
        bot = PARTNER_CHEATS["cheat-hands"](seed, Budget(samples=4))
        bot.attach(g, 0)
        random_play(g, random.Random(seed), 6 + 2 * seed)   # tricks won, cards drawn
        if g.to_act != 0:
            random_play(g, random.Random(seed), 1)
        view = g.view(0)
        stocks = set()
        deals = bot.deals(view, exclusions(view), 6)
        for _ in range(6):
            d = next(deals)
            assert set(d.hand(1)) == set(g.hand(1))
            stocks.add(tuple(d.stock[d.stock_pos:]))
        assert len(stocks) > 1                            # the stock is still guessed
