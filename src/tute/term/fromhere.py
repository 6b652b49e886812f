"""Play it again from here: a recorded hand restarted at one of a seat's decisions,
with the same cards, you at that seat and robots at the others (``tute play --from``).

Everything before the decision is as it was; from it, you choose again and the robots
answer.  The hand is played to its count and kept as a record of its own (the whole
hand: what was replayed, then what you played).
"""

from __future__ import annotations

import datetime as _dt
from pathlib import Path
from typing import TextIO

from tute.analysis.walk import Restart, restart_at, steps
from tute.bots import BEST, QUICK, make_bot
from tute.core.driver import Player, play_hand
from tute.core.records import GameRecord, format_record, record_of_games
from tute.term.narrate import count_lines, trump_line
from tute.term.play import Quit, TerminalPlayer, _explainer, _Teller, _warm
from tute.term.style import Style


def start_at(record: GameRecord, seat: int, hand: int, trick: int) -> Restart:
    """Hand ``hand`` of the record (1 the first) at the match seat's first decision in
    trick ``trick`` (0: the auction).  ValueError, in words, where there is no such
    decision."""
    if not 1 <= hand <= len(record.hands):
        raise ValueError(f"--hand goes from 1 to {len(record.hands)}")
    for step in steps(record, seat):
        g = step.game
        if step.hand == hand and trick == (
                0 if g.phase == "auction" else sum(g.tricks_won) + 1):
            return restart_at(record, seat, hand, step.index)
    raise ValueError(f"seat {seat} made no decision in trick {trick} of hand {hand}")


def run_from(record: GameRecord, seat: int, hand: int, trick: int, level: str | None,
             style: Style, out: TextIO, read: object, records_dir: Path) -> int:
    t = style.t
    try:
        again = start_at(record, seat, hand, trick)
    except ValueError as e:
        out.write(f"{e}\n")
        return 2
    g, mine, names = again.at(), again.seat, again.names
    human = TerminalPlayer(mine, names, style, out, read)  # type: ignore[arg-type]
    human.explain = _explainer(g, human)
    bot = level or BEST
    if bot not in QUICK:
        _warm(style, out)
    players: list[Player] = [human if s == mine else make_bot(bot, seed=s)
                             for s in range(g.players)]
    out.write(style.bold(t("play_from_here", hand=hand, trick=trick)) + "\n")
    out.write(trump_line(style, g) + "\n")
    tell = _Teller(style, names, g.turn_up, out, mine)
    try:
        play_hand(g, players, on_action=tell)
    except Quit:
        out.write(t("play_bye") + "\n")
        return 0
    r = g.result()
    assert r is not None
    for line in count_lines(style, g, names, r, mine):
        out.write(style.bold(line) + "\n")
    records_dir.mkdir(parents=True, exist_ok=True)
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    path = records_dir / f"tute-{stamp}-from-hand{hand}-trick{trick}.tute"
    kept = record_of_games([g], names=names, date=_dt.date.today().isoformat(),
                           notes=(f"tute play --from, hand {hand}, trick {trick}",))
    path.write_text(format_record(kept), encoding="utf-8")
    out.write(t("play_saved", path=str(path)) + "\n")
    return 0
