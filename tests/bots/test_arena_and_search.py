"""Search players (mc, pimc), the open-hand bound, and ``tute arena``."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

import tute
from helpers import random_play
from tute import Game, parse_variant
from tute.arena.duplicate import (
    ArenaError,
    PairSpec,
    bootstrap_ci,
    code_version,
    play_deal,
    ratings,
    results_path,
    run,
    run_pair,
    seatings,
)
from tute.bots import make_bot
from tute.bots.base import Budget
from tute.core.actions import Action, Play
from tute.core.driver import play_hand
from tute.search.solver import WIN, solve


@pytest.mark.parametrize("level", ["pimc", "expert"])
def test_l3_and_up_play_the_two_player_strict_phase_optimally(level: str) -> None:
    checked = 0
    seed = 0
    while checked < 1000:
        rng = random.Random(seed)
        g = Game.new("habanero" if seed % 2 else "online(players=2)", seed=seed)
        seed += 1
        while not g.is_over:
            seat = g.to_act
            assert seat is not None
            if g.phase == "strict":
                plays = [a for a in g.legal_actions(seat) if isinstance(a, Play)]
                if len(plays) > 1:
                    bot = make_bot(level, seed, Budget(samples=3))
                    choice = bot.choose(g.view(seat))
                    sol = solve(g)
                    assert choice in sol.best, (g, choice, sol.move_values)
                    checked += 1
            g.apply(seat, rng.choice(g.legal_actions(seat)))


@pytest.mark.parametrize("level", ["mc", "pimc", "expert"])
@pytest.mark.parametrize("text", ["habanero", "parejas", "tres", "subastado(players=4)",
                                  "guinote(players=4)"])
def test_search_bots_play_legal_and_reproducibly(level: str, text: str) -> None:
    finals = []
    for _ in range(2):
        g = Game.new(text, seed=3)
        bots = [make_bot(level if s % 2 == 0 else "heuristic", seed=s, budget=Budget(samples=2))
                for s in range(g.players)]
        play_hand(g, bots)
        finals.append((g.history, g.result()))
    assert finals[0] == finals[1]


def test_seatings() -> None:
    assert seatings(parse_variant("habanero")) == [(True, False), (False, True)]
    assert seatings(parse_variant("parejas")) == [(True, False, True, False),
                                                   (False, True, False, True)]
    assert len(seatings(parse_variant("tres"))) == 3


def test_bootstrap_and_ratings() -> None:
    rng = random.Random(1)
    values = [1.0] * 70 + [0.0] * 30
    lo, hi = bootstrap_ci(values, rng)
    assert lo < 0.7 < hi and hi - lo < 0.25
    r = ratings([{"bot_a": "a", "bot_b": "b", "deals": 100, "hands_won_a": 0.9}], ["a", "b"])
    assert r["a"] == 0 and -420 < r["b"] < -330          # 90% is about 380 Elo


def test_deal_results_and_resume(tmp_path: Path) -> None:
    spec = PairSpec("heuristic", "random", "habanero", 5, None, None)
    row = play_deal(spec, 0)
    assert set(row) == {"deal", "won_a", "margin_a", "wins", "results", "seconds"}
    first = run_pair(spec, 6, tmp_path, 1, None)
    lines = next(tmp_path.glob("*.jsonl")).read_text().splitlines()
    assert len(lines) == 7                                  # the spec, then 6 deals
    more = run_pair(spec, 10, tmp_path, 2, None)
    lines = next(tmp_path.glob("*.jsonl")).read_text().splitlines()
    assert len(lines) == 11 and more["deals"] == 10 and first["deals"] == 6
    again = run_pair(spec, 10, tmp_path, 1, None)            # nothing left to play
    assert again["hands_won_a"] == more["hands_won_a"]
    other = PairSpec("heuristic", "random", "habanero", 6, None, None)
    run_pair(other, 2, tmp_path, 1, None)
    assert len(list(tmp_path.glob("*.jsonl"))) == 2
    # each deal keeps the code that played it
    rows = [json.loads(line) for line in lines[1:]]
    assert {r["code"] for r in rows} == {code_version()} and again["codes"] == [code_version()]
    assert code_version().startswith(tute.__version__)


def test_a_bad_results_file_is_refused_in_words_and_kept(tmp_path: Path) -> None:
    """A results file of another setting, or not a results file at all, is refused with
    a typed error before any deal (and left as it was); rows an interruption cut, or
    that are not rows, are left out; a run resumed over older code says so."""
    spec = PairSpec("heuristic", "random", "habanero", 5, None, None)
    path = results_path(tmp_path, spec)
    for text, key in [('{"spec": "[1]"}\n', "arena_file_other_setting"),
                      ("[1, 2]\n", "arena_file_other_setting"),
                      ("not json\n", "arena_file_unreadable"),
                      (b"\xff\xfe".decode("latin-1") + "\n", "arena_file_unreadable")]:
        path.write_bytes(text.encode("latin-1"))
        with pytest.raises(ArenaError) as e:
            run_pair(spec, 2, tmp_path, 1, None)
        assert e.value.key == key and str(path) in e.value.localized("es")
        assert path.read_bytes() == text.encode("latin-1")          # changed nothing
    old = json.dumps(play_deal(spec, 0))                             # a row without code
    path.write_text("\n".join([json.dumps({"spec": spec.key()}), old, "[3]", '{"deal": "1"}',
                               '{"deal": 1, "won_a"']) + "\n", encoding="utf-8")
    got = run_pair(spec, 2, tmp_path, 1, None)
    assert got["deals"] == 2 and got["codes"] == sorted([code_version(), "unknown"])
    out = io.StringIO()
    assert run(["heuristic", "random"], "habanero", 2, 5, None, None, tmp_path, 1, False,
               out) == 0
    assert "played by 2 versions of the code" in out.getvalue(), out.getvalue()
    path.write_text('{"spec": "[1]"}\n', encoding="utf-8")
    cli = subprocess.run([sys.executable, "-m", "tute.cli", "arena", "--bots",
                          "heuristic,random", "--variant", "habanero", "--deals", "2",
                          "--seed", "5", "--results", str(tmp_path)],
                         capture_output=True, text=True, timeout=120)
    assert cli.returncode == 2 and "another arena setting" in cli.stderr, cli.stderr
    assert "Traceback" not in cli.stderr


def test_arena_cli_json(tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, "-m", "tute.cli", "arena", "--bots",
                        "heuristic,random,cheat", "--variant", "parejas", "--deals", "4",
                        "--seed", "2", "--samples", "2", "--results", str(tmp_path), "--json",
                        "--jobs", "2"], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert len(doc["pairs"]) == 3 and set(doc["ratings"]) == {"heuristic", "random", "cheat"}
    p = doc["pairs"][0]
    for key in ("bot_a", "bot_b", "variant", "deals", "hands_won_a", "ci95", "margin_a"):
        assert key in p
    assert 0 <= p["ci95"][0] <= p["hands_won_a"] <= p["ci95"][1] <= 1
    bad = subprocess.run([sys.executable, "-m", "tute.cli", "arena", "--bots", "x,random"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "unknown bot" in bad.stderr


def test_the_arenas_matches_are_scored_by_match() -> None:
    """The arena chains each seating's hands into matches with the one scoring that
    :class:`Match` uses: double games and cumulative points included."""
    import random

    from tute.arena.duplicate import PairSpec, matches_won, play_deal
    from tute.core.game import Game
    from tute.core.match import Match, match_winners
    from tute.core.result import result_from_json, result_to_json

    rng = random.Random(2)
    for text in ("habanero(match_target=3)", "parejas(match=cumulative,match_target=200)",
                 "habanero(match_target=2,double_game_at=101)"):
        m = Match(text, seed=9)
        results = []
        winners: list[int | None] = []
        while len(winners) < 3:
            random_play(m.game, rng)
            r = m.next_hand()
            assert result_from_json(result_to_json(r)) == r
            results.append(r)
            if m.is_over:
                winners.append(m.winner)
                m = Match(text, seed=rng.randrange(99))
        assert match_winners(text, results) == winners
        assert isinstance(Game, type)
    spec = PairSpec("heuristic", "random", "habanero(match_target=2)", 1, None, None)
    rows = [play_deal(spec, d) for d in range(6)]
    a, b = matches_won(spec, rows)
    assert a + b >= 2                       # 12 hands over two seatings: some matches


def test_the_arenas_bar_shows_at_once_and_then_the_time_left(tmp_path: Path) -> None:
    import io

    from tute.arena.duplicate import PairSpec, run_pair

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    out = Terminal()
    run_pair(PairSpec("heuristic", "random", "habanero", 3, None, None), 4, tmp_path, 1, out)
    frames = out.getvalue().split("\r")
    assert "0/4 deals" in frames[1]                 # before the first deal is played
    assert "4/4 deals" in frames[-1]
    import time

    from tute.arena.duplicate import _bar
    later = Terminal()                              # one deal of four done in 10 s
    _bar(later, 1, 4, PairSpec("a", "b", "habanero", 1, None, None),
         time.perf_counter() - 10, 0, force=True)
    assert "~30s left" in later.getvalue()


_AUTHORS_BOT = '''
from tute.bots.base import Bot


class LastCard(Bot):
    """Plays the last of its legal actions."""

    def choose(self, view, budget=None):
        return view.legal[-1]


class NotABot:
    pass
'''


def test_a_bot_authors_own_robot_plays_in_the_arena(tmp_path: Path) -> None:
    """``tute arena --bots module:Class,...``: a robot written outside the project, found
    from the folder the arena runs in, plays duplicate deals in the worker processes."""
    (tmp_path / "authors_bot.py").write_text(_AUTHORS_BOT, encoding="utf-8")
    tute = Path(sys.executable).parent / "tute"          # the installed command, not -m
    run = [str(tute) if tute.exists() else sys.executable, *([] if tute.exists() else
                                                            ["-m", "tute.cli"]), "arena"]
    r = subprocess.run([*run, "--bots", "authors_bot:LastCard,heuristic", "--variant",
                        "habanero", "--deals", "6", "--jobs", "2", "--results",
                        str(tmp_path / "out"), "--json"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    pair = json.loads(r.stdout)["pairs"][0]
    assert pair["bot_a"] == "authors_bot:LastCard" and pair["deals"] == 6
    assert pair["hands_won_a"] < 0.5                  # the last legal card is a poor rule
    assert list((tmp_path / "out").glob("habanero-authors_bot.LastCard-vs-heuristic-*"))
    for bad, said in (("authors_bot:NotABot", "is not a robot"),
                      ("nowhere_module:Bot", "cannot load the robot")):
        r = subprocess.run([*run, "--bots", f"{bad},random", "--deals", "1"], cwd=tmp_path,
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 2 and said in r.stderr, r.stderr
        assert "Traceback" not in r.stderr


def test_cheat_partner_is_told_its_partners_hand_and_nothing_more() -> None:
    """``cheat-partner`` searches deals where the partner holds his true hand and the
    opponents' cards are still guessed; it plays a whole arena deal legally."""
    from tute.bots.cheat import PartnerCheatBot
    from tute.bots.sampler import exclusions

    for seed in range(3):
        g = random_play(Game.new("parejas", seed=seed), random.Random(seed), 6 + seed)
        seat = g.to_act                                 # a few cards into the hand
        assert seat is not None
        bot = PartnerCheatBot(seed, Budget(samples=4))
        bot.attach(g, seat)
        view = g.view(seat)
        deals = bot.deals(view, exclusions(view), 8)
        partner, left, right = (seat + 2) % 4, (seat + 1) % 4, (seat + 3) % 4
        guessed = set()
        for _ in range(8):
            d = next(deals)
            assert set(d.hand(partner)) == set(g.hand(partner))
            assert set(d.hand(seat)) == set(g.hand(seat))
            guessed.add(frozenset(d.hand(left)))
            assert set(d.hand(left)) | set(d.hand(right)) == set(g.hand(left)) | set(
                g.hand(right))
        assert len(guessed) > 1                         # the opponents' are still unknown
    r = play_deal(PairSpec("cheat-partner", "heuristic", "parejas", 3, None, 2), 0)
    assert len(r["wins"]) == 2                          # type: ignore[arg-type]


def test_the_open_hand_loss_of_each_card() -> None:
    """No card gains its side open-hand value (the value is the best card's), the
    open-hand player loses nothing where it solves, a random one loses plenty."""
    from tute.arena.ddloss import TUTE_POINTS, hand_losses, loss_table, points, summarize
    from tute.arena.duplicate import ArenaError
    from tute.search import dds

    if not dds.AVAILABLE:
        pytest.skip("the open-hand loss needs the compiled kernel (numba)")
    assert points(WIN + 12) == 12 and points(-WIN - 7) == -7
    assert points(WIN + 5_000) == TUTE_POINTS > 230 and points(-WIN - 5_000) == -TUTE_POINTS
    spec = PairSpec("cheat", "random", "parejas", 4, None, 4)
    hands = [hand_losses(spec, 0, k) for k in (0, 1)]
    for losses in hands:
        assert sum(1 for c in losses if c.cards) == 40    # every card of the hand, measured
        assert all(c.points >= 0 for c in losses)
        assert all(c.points == 0 for c in losses if c.by_a and c.cards <= 5)
        assert sum(c.points for c in losses if not c.by_a) > 20
        assert sum(1 for c in losses if c.by_a) == 20
    table = summarize(spec, hands)
    assert table["hands"] == 2 and float(table["total_b"]) > float(table["total_a"])  # type: ignore[arg-type]
    with pytest.raises(ArenaError, match="two sides"):
        loss_table(PairSpec("cheat", "random", "tres", 4, None, 4), 1)


def test_arena_dd_loss_cli() -> None:
    from tute.search import dds

    if not dds.AVAILABLE:
        pytest.skip("the open-hand loss needs the compiled kernel (numba)")
    r = subprocess.run([sys.executable, "-m", "tute.cli", "arena", "--bots", "heuristic,random",
                        "--variant", "parejas", "--deals", "1", "--jobs", "1", "--dd-loss",
                        "--json"], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["hands"] == 2 and [row["cards"] for row in doc["by_cards"]] == list(
        range(10, 0, -1))
    bad = subprocess.run([sys.executable, "-m", "tute.cli", "arena", "--bots", "heuristic,random,mc",
                          "--dd-loss"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "compares two bots" in bad.stderr


def test_expert_readable_plays_the_models_card_where_it_is_as_good() -> None:
    """``expert-readable`` takes L1's card within its margin, in partnerships only, and
    reads its partner's cards more sharply than the others'."""
    from tute.bots.expert import EPSILON, ExpertBot, ReadableExpertBot, likelihood
    from tute.bots.heuristic import HeuristicBot
    from tute.bots.sampler import sample_game

    g = Game.new("parejas", seed=3)
    rng = random.Random(3)
    while True:
        seat = g.to_act
        assert seat is not None
        view = g.view(seat)
        plays = [a for a in view.legal if isinstance(a, Play)]
        model = Play(HeuristicBot(0).card(view))
        if len(plays) > 2 and len(view.history) > 8:
            break
        g.apply(seat, rng.choice(g.legal_actions(seat)))
    other = next(a for a in plays if a != model)
    near: dict[Action, float] = {
        a: (10_010.0 if a == other else 10_009.5 if a == model else 9_000.0) for a in plays}
    far: dict[Action, float] = {**near, model: 10_008.0}
    bot = ReadableExpertBot(1)
    assert bot.pick(view, plays, near) == model
    assert bot.pick(view, plays, far) == other
    assert ExpertBot(1).pick(view, plays, near) == other
    # the sharper reading applies to the partner's cards, and only to them
    m = HeuristicBot(0)
    replay_ = Game.new("parejas", seed=3)
    differed = opponents_only = 0
    for s, a in g.history:
        replay_.apply(s, a)
        for viewer in range(4):
            v = replay_.view(viewer)
            d = sample_game(v, random.Random(0))
            plain, sharp = likelihood(v, d, m), likelihood(v, d, m, 0.1)
            assert likelihood(v, d, m, EPSILON) == plain
            if not any(p == (viewer + 2) % 4 for p, x in v.history if isinstance(x, Play)):
                assert sharp == plain
                opponents_only += any(p % 2 != viewer % 2 for p, _x in v.history)
            differed += sharp != plain
    assert differed and opponents_only
    solo = Game.new("habanero", seed=3)
    sv = solo.view(solo.to_act or 0)
    splays = [a for a in sv.legal if isinstance(a, Play)]
    smodel = Play(HeuristicBot(0).card(sv))
    sother = next(a for a in splays if a != smodel)
    svalues: dict[Action, float] = {a: (1.0 if a == sother else 0.5) for a in splays}
    assert bot.pick(sv, splays, svalues) == sother       # no partner to read it
