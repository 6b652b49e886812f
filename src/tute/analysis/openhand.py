""""Could I have won?": a finished hand replayed with every card face up.

From each of a seat's decisions the exact solver plays the rest of the hand for both
sides -- every card known, each side making its best moves, the cantes sung as they
come (singing is never worse once nothing is left to draw) -- and says the best move
then and the points each side would have made.  Only where the solver covers the
position: nothing left to draw (a four-player deal throughout, a two-player one once
the stock is gone) and, in pure Python, a small one; elsewhere the step says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from tute.analysis.outcome import finished, score
from tute.analysis.walk import steps
from tute.core.actions import FORTY, TUTE, Action, format_action
from tute.core.game import Game
from tute.core.records import GameRecord
from tute.core.value import hand_value
from tute.search.solver import SolverLimit, kernel_covers, nothing_to_draw, solve

MAX_NODES = 50_000_000


@dataclass(frozen=True, slots=True)
class OpenLine:
    """The rest of a hand from one decision, every card known, both sides best."""

    hand: int
    index: int               # of the action in the hand
    trick: int               # 1 the first (0: the auction)
    played: str              # what the seat did
    best: str | None         # the best move with every card known (None: not solved)
    line: tuple[str, ...]    # the best play from here: "seat:action" in order
    totals: tuple[int, ...]  # each side's points at the end of that play
    won: bool | None         # whether the seat's side would have won the hand
    played_best: bool        # the seat's move was as good as the best, cards known


def could_have_won(record: GameRecord, seat: int, hand: int) -> tuple[OpenLine, ...]:
    """Each of the match seat's decisions in hand ``hand``, replayed face up."""
    out: list[OpenLine] = []
    for step in steps(record, seat):
        if step.hand != hand:
            continue
        played = format_action(step.action)
        g = step.game
        trick = 0 if g.phase == "auction" else sum(g.tricks_won) + 1
        best_play = _best_play(step.game, step.seat)
        if best_play is None:
            out.append(OpenLine(hand, step.index, trick, played, None, (), (), None,
                                False))
            continue
        line, end = best_play
        first = next(a.split(":", 1)[1] for a in line if a.startswith(f"{step.seat}:"))
        r = end.result()
        assert r is not None
        won = hand_value(end.variant, r).won[step.seat]
        mine = step.game.copy()
        mine.apply(step.seat, step.action)
        after = _best_play(mine, step.seat)
        same = after is not None and _margin(after[1], step.seat) >= _margin(end, step.seat)
        out.append(OpenLine(hand, step.index, trick, played, first, tuple(line), r.totals,
                            won, same))
    return tuple(out)


def _margin(g: Game, seat: int) -> float:
    """A finished hand on the analysis's one scale (:func:`outcome.score`)."""
    return score(*finished(g, seat))


def _best_play(g: Game, seat: int) -> tuple[list[str], Game] | None:
    """The rest of the hand from ``g`` with every side playing its best, as
    "seat:action" items, and the finished game (None where the solver cannot)."""
    h = g.copy()
    line: list[str] = []
    while not h.is_over:
        if not nothing_to_draw(h):
            return None
        for other in h.seats_with_declarations():      # cantes sung as they come
            sing = _cante(h, other)
            if sing is not None:
                h.apply(other, sing)
                line.append(f"{other}:{format_action(sing)}")
        if h.is_over or h.to_act is None:
            break
        acting = h.to_act
        sing = _cante(h, acting)
        if sing is not None:
            h.apply(acting, sing)
            line.append(f"{acting}:{format_action(sing)}")
            continue
        if not kernel_covers(h) and max(len(h.hand(s)) for s in range(h.players)) > 5:
            return None
        try:
            best = solve(h, all_moves=False, max_nodes=MAX_NODES).best[0]
        except SolverLimit:
            return None
        h.apply(acting, best)
        line.append(f"{acting}:{format_action(best)}")
    return line, h


def _cante(g: Game, seat: int) -> Action | None:
    """The declaration to make now, if any: a tute, else the forty, else a twenty."""
    legal = g.legal_actions(seat)
    for wanted in (TUTE, FORTY):
        if wanted in legal:
            return wanted
    twenties = [a for a in legal if format_action(a).startswith("20")]
    return twenties[0] if twenties else None


def line_words(o: OpenLine, seat_side: int, lang: str = "es", short: bool = False) -> str:
    """One decision face up, in words (see :func:`open_text`); ``short``: without the
    decision it is about (a page that shows it beside)."""
    from tute.analysis.text import action_words
    from tute.i18n import render

    if short:
        if o.best is None:
            return render("open_short_unsolved", {}, lang)
        mine = o.totals[seat_side]
        theirs = max(t for i, t in enumerate(o.totals) if i != seat_side)
        outcome = render("open_won" if o.won else "open_lost", {}, lang)
        return render("open_short_same" if o.played_best else "open_short_line",
                      {"best": action_words(o.best, lang), "mine": mine,
                       "theirs": theirs, "outcome": outcome}, lang)

    where = render("analysis_auction", {}, lang) if o.trick == 0 else \
        render("analysis_trick", {"n": o.trick}, lang)
    played = action_words(o.played, lang)
    if o.best is None:
        return render("open_unsolved", {"where": where, "played": played}, lang).strip()
    mine = o.totals[seat_side]
    theirs = max(t for i, t in enumerate(o.totals) if i != seat_side)
    facts = {"where": where, "played": played, "best": action_words(o.best, lang),
             "mine": mine, "theirs": theirs,
             "outcome": render("open_won" if o.won else "open_lost", {}, lang)}
    return render("open_same" if o.played_best else "open_line", facts, lang).strip()


def side_of(record: GameRecord, seat: int, hand: int) -> int:
    """The match seat's side in hand ``hand`` (0 where it sat out)."""
    from tute.core.records import replay

    done = replay(record)
    seat_map = done.seat_maps[hand - 1]
    return done.games[hand - 1].variant.side_of(seat_map.index(seat)) \
        if seat in seat_map else 0


def open_text(lines: tuple[OpenLine, ...], seat_side: int, lang: str = "es") -> str:
    """The hand face up, a line a decision, in words."""
    from tute.i18n import render

    if not lines:
        return ""
    out = [render("open_title", {"hand": lines[0].hand}, lang)]
    out += ["  " + line_words(o, seat_side, lang) for o in lines]
    return "\n".join(out) + "\n"
