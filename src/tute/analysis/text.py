"""An analysis (:mod:`tute.analysis.walk`) in words, or as JSON."""

from __future__ import annotations

import dataclasses
from typing import Any

from tute.analysis.judge import UNFINISHED, Decision, Summary, Value
from tute.analysis.reasons import Reason, words
from tute.core.actions import (
    Action,
    Bid,
    DeclareTute,
    Manilla,
    NameTrump,
    Pass,
    Play,
    SingForty,
    SingTwenty,
    Swap,
    parse_action,
)
from tute.core.records import GameRecord, replay
from tute.i18n import card_name, render


def action_words(action: str | Action, lang: str) -> str:
    """An action (or its text) as a player says it: "el as de oros", "las cuarenta",
    "pasar"."""
    a = parse_action(action) if isinstance(action, str) else action
    match a:
        case Play(card):
            return card_name(card.code, lang)
        case SingTwenty(suit):
            return render("analysis_twenty", {"suit": suit.value}, lang)
        case NameTrump(suit):
            return render("analysis_trump", {"suit": suit.value}, lang)
        case Manilla(suit):
            return render("analysis_manilla", {"suit": suit.value}, lang)
        case Bid(points):
            return render("analysis_bid", {"n": str(points)}, lang)
        case SingForty():
            return render("analysis_forty", {}, lang)
        case DeclareTute():
            return render("analysis_tute", {}, lang)
        case Swap():
            return render("analysis_swap", {}, lang)
        case Pass():
            return render("analysis_pass", {}, lang)
    raise AssertionError(a)                     # every kind of action is said above


def unrepeated(decisions: list[Decision]) -> list[Decision]:
    """The decisions with each reason that the seat's previous decision in the same
    hand gave already left out (where nothing changed, a teacher does not say it
    again)."""
    out: list[Decision] = []
    said: tuple[int, set[Reason]] = (0, set())
    for d in decisions:
        before = said[1] if said[0] == d.hand else set()
        out.append(dataclasses.replace(d, why=tuple(r for r in d.why if r not in before)))
        said = (d.hand, set(d.why))
    return out


def report_text(decisions: list[Decision], summary: Summary, name: str, lang: str = "es"
                ) -> str:
    decisions = unrepeated(decisions)
    lines = [render("analysis_title", {"name": name, "seat": summary.seat}, lang)]
    hand = 0
    for d in decisions:
        if d.hand != hand:
            hand = d.hand
            lines.append(render("analysis_hand", {"n": hand}, lang))
        where = render("analysis_auction", {}, lang) if d.trick == 0 else \
            render("analysis_trick", {"n": d.trick}, lang)
        played = action_words(d.played, lang)
        if d.forced:
            lines.append(render("analysis_forced", {"where": where, "played": played}, lang)
                         + _said(d.why, lang))
            continue
        mine = next(v for v in d.values if v.action == d.played)
        facts = facts_words(mine, lang)
        if d.exact:
            facts += " · " + render("analysis_exact", {}, lang)
        if d.grade == UNFINISHED:
            lines.append(render("analysis_unfinished_line", {
                "where": where, "played": played, "facts": facts}, lang))
            continue
        if not d.settled:
            facts += " · " + render("analysis_unsettled", {"samples": d.samples}, lang)
        if d.grade == "best":
            if d.equal:
                facts += " · " + equal_words(d.equal, lang)
            line = "analysis_best_line" if d.settled else "analysis_unsettled_line"
            lines.append(render(line, {"where": where, "played": played, "facts": facts},
                                lang) + _said(d.why, lang))
        else:
            best_facts = facts_words(d.values[0], lang)
            lines.append(render("analysis_loss_line", {
                "where": where, "played": played, "grade": render(f"grade_{d.grade}", {}, lang),
                "lost": lost_words(d, lang), "best": action_words(d.best, lang), "facts": facts,
                "best_facts": best_facts}, lang) + _said(d.why_not, lang))
            if d.why:
                lines.append("    " + render("analysis_best_because", {
                    "best": action_words(d.best, lang),
                    "why": "; ".join(words(r, lang) for r in d.why)}, lang))
    lines.append(render("analysis_summary", {"accuracy": f"{summary.accuracy:.0f}",
                                             "lost": f"{summary.points_lost_per_hand:.1f}",
                                             "n": summary.decisions}, lang))
    if summary.unfinished:
        lines.append(render("analysis_summary_unfinished", {"n": summary.unfinished}, lang))
    for d in summary.worst:
        lines.append(render("analysis_worst", {
            "hand": d.hand, "trick": d.trick, "played": action_words(d.played, lang),
            "best": action_words(d.best, lang), "lost": lost_words(d, lang)}, lang))
    return "\n".join(lines) + "\n"


def facts_words(v: Value, lang: str) -> str:
    """ "victoria 62 %, margen +14" """
    win, margin = v.shown
    return render("analysis_facts", {"win": win, "margin": f"{margin:+d}"}, lang)


def lost_words(d: Decision, lang: str) -> str:
    """What a move gave up, as a player reads it: the difference of the two values shown
    beside it (the best's and the played's), the winning chance where it moved, the
    points of margin where they count too."""
    best_win, best_margin = d.values[0].shown
    own_win, own_margin = next(v for v in d.values if v.action == d.played).shown
    win, points = best_win - own_win, best_margin - own_margin
    if win >= 1 and points >= 1:
        return render("analysis_lost_both", {"win": win, "points": points}, lang)
    if win >= 1:
        return render("analysis_lost_win", {"win": win}, lang)
    return render("analysis_lost_points", {"points": max(points, 0)}, lang)


def equal_words(moves: tuple[str, ...], lang: str) -> str:
    """ "igual que el rey de copas o el caballo de copas" """
    said = [action_words(m, lang) for m in moves]
    joined = said[0] if len(said) == 1 else \
        ", ".join(said[:-1]) + f" {render('analysis_or', {}, lang)} " + said[-1]
    return render("analysis_equal", {"moves": joined}, lang)


def _said(reasons: tuple[Reason, ...], lang: str) -> str:
    return (" — " + "; ".join(words(r, lang) for r in reasons)) if reasons else ""


def report_json(decisions: list[Decision], summary: Summary, lang: str = "es"
                ) -> dict[str, Any]:
    return {
        "seat": summary.seat,
        "decisions": [{
            "hand": d.hand, "trick": d.trick, "played": d.played, "forced": d.forced,
            "exact": d.exact, "samples": d.samples, "settled": d.settled,
            "timed_out": d.timed_out, "best": d.best, "equal": list(d.equal),
            "grade": d.grade, "loss": round(d.loss, 2),
            "loss_win": round(d.loss_win, 2), "loss_points": round(d.loss_points, 2),
            "why": [{"key": r.key, "text": words(r, lang)} for r in d.why],
            "why_not": [{"key": r.key, "text": words(r, lang)} for r in d.why_not],
            "values": [{"action": v.action, "line": v.line, "score": round(v.score, 2),
                        "win": round(v.win, 4), "margin": round(v.margin, 2),
                        "samples": v.samples} for v in d.values],
        } for d in decisions],
        "summary": {"accuracy": round(summary.accuracy, 1), "decisions": summary.decisions,
                    "points_lost_per_hand": round(summary.points_lost_per_hand, 2),
                    "unfinished": summary.unfinished,
                    "worst": [{"hand": d.hand, "trick": d.trick, "played": d.played,
                               "best": d.best, "loss": round(d.loss, 2)}
                              for d in summary.worst]},
    }


def annotated(record: GameRecord, decisions: list[Decision], seat: int, lang: str = "es"
              ) -> GameRecord:
    """The record with each of the seat's actions annotated with its grade and reasons
    (the analysis kept with the game: ``tute replay`` shows the notes)."""
    done = replay(record)
    by_hand: dict[int, list[Decision]] = {}
    for d in unrepeated(decisions):
        by_hand.setdefault(d.hand, []).append(d)
    hands = list(record.hands)
    for h, (hand, seat_map) in enumerate(zip(record.hands, done.seat_maps, strict=True)):
        mine = iter(by_hand.get(h + 1, []))
        if seat not in seat_map:
            continue
        in_hand = seat_map.index(seat)
        for i, (who, _action) in enumerate(hand.actions):
            if who == in_hand:
                d = next(mine)
                hand = hand.annotated(i, note_of(d, lang))
        hands[h] = hand
    return dataclasses.replace(record, hands=tuple(hands))


def note_of(d: Decision, lang: str) -> str:
    """One decision in a few words: its grade, what it lost, why."""
    if d.forced:
        head = render("analysis_note_forced", {}, lang)
        why = d.why
    elif d.grade in ("best", UNFINISHED):
        head = render(f"grade_{d.grade}", {}, lang)
        why = d.why
    else:
        head = render("analysis_note_loss", {
            "grade": render(f"grade_{d.grade}", {}, lang), "lost": lost_words(d, lang),
            "best": action_words(d.best, lang)}, lang)
        why = d.why_not + d.why
    return head + (": " + "; ".join(words(r, lang) for r in why) if why else "")
