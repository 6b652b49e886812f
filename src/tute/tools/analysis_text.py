"""An analysis (:mod:`tute.tools.analyze`) in words, or as JSON."""

from __future__ import annotations

import dataclasses
from typing import Any

from tute.core.actions import Play, parse_action
from tute.core.records import GameRecord, replay
from tute.i18n import card_name, render
from tute.tools.analyze import Decision, Summary
from tute.tools.reasons import Reason, words


def action_words(text: str, lang: str) -> str:
    """An action as a player says it: "el as de oros", "las cuarenta", "pasar"."""
    a = parse_action(text)
    if isinstance(a, Play):
        return card_name(a.card.code, lang)
    if text.startswith("20"):
        return render("analysis_twenty", {"suit": text[2]}, lang)
    if text.startswith("trump ") or text.startswith("manilla "):
        key = "analysis_trump" if text.startswith("trump ") else "analysis_manilla"
        return render(key, {"suit": text.split()[1]}, lang)
    if text.startswith("bid "):
        return render("analysis_bid", {"n": text[4:]}, lang)
    said = {"40": "analysis_forty", "tute": "analysis_tute", "swap": "analysis_swap",
            "pass": "analysis_pass"}.get(text)
    return render(said, {}, lang) if said else text


def report_text(decisions: list[Decision], summary: Summary, name: str, lang: str = "es"
                ) -> str:
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
        facts = render("analysis_facts", {"win": round(mine.win * 100),
                                          "margin": f"{mine.margin:+.0f}"}, lang)
        if d.exact:
            facts += " · " + render("analysis_exact", {}, lang)
        if d.grade == "best":
            lines.append(render("analysis_best_line", {"where": where, "played": played,
                                                       "facts": facts}, lang)
                         + _said(d.why, lang))
        else:
            top = d.values[0]
            best_facts = render("analysis_facts", {"win": round(top.win * 100),
                                                   "margin": f"{top.margin:+.0f}"}, lang)
            lines.append(render("analysis_loss_line", {
                "where": where, "played": played, "grade": render(f"grade_{d.grade}", {}, lang),
                "win": f"{d.loss_win:.0f}", "points": f"{d.loss_points:.0f}",
                "best": action_words(d.best, lang), "facts": facts,
                "best_facts": best_facts}, lang) + _said(d.why_not, lang))
            if d.why:
                lines.append("    " + render("analysis_best_because", {
                    "best": action_words(d.best, lang),
                    "why": "; ".join(words(r, lang) for r in d.why)}, lang))
    lines.append(render("analysis_summary", {"accuracy": f"{summary.accuracy:.0f}",
                                             "lost": f"{summary.points_lost_per_hand:.1f}",
                                             "n": summary.decisions}, lang))
    for d in summary.worst:
        lines.append(render("analysis_worst", {
            "hand": d.hand, "trick": d.trick, "played": action_words(d.played, lang),
            "best": action_words(d.best, lang), "win": f"{d.loss_win:.0f}",
            "points": f"{d.loss_points:.0f}"}, lang))
    return "\n".join(lines) + "\n"


def _said(reasons: tuple[Reason, ...], lang: str) -> str:
    return (" — " + "; ".join(words(r, lang) for r in reasons)) if reasons else ""


def report_json(decisions: list[Decision], summary: Summary, lang: str = "es"
                ) -> dict[str, Any]:
    return {
        "seat": summary.seat,
        "decisions": [{
            "hand": d.hand, "trick": d.trick, "played": d.played, "forced": d.forced,
            "exact": d.exact, "samples": d.samples, "best": d.best, "grade": d.grade,
            "loss_win": round(d.loss_win, 2), "loss_points": round(d.loss_points, 2),
            "why": [{"key": r.key, "text": words(r, lang)} for r in d.why],
            "why_not": [{"key": r.key, "text": words(r, lang)} for r in d.why_not],
            "values": [{"action": v.action, "win": round(v.win, 4),
                        "margin": round(v.margin, 2)} for v in d.values],
        } for d in decisions],
        "summary": {"accuracy": round(summary.accuracy, 1), "decisions": summary.decisions,
                    "points_lost_per_hand": round(summary.points_lost_per_hand, 2),
                    "worst": [{"hand": d.hand, "trick": d.trick, "played": d.played,
                               "best": d.best, "loss_win": round(d.loss_win, 2)}
                              for d in summary.worst]},
    }


def annotated(record: GameRecord, decisions: list[Decision], seat: int, lang: str = "es"
              ) -> GameRecord:
    """The record with each of the seat's actions annotated with its grade and reasons
    (the analysis kept with the game: ``tute replay`` shows the notes)."""
    done = replay(record)
    by_hand: dict[int, list[Decision]] = {}
    for d in decisions:
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
    elif d.grade == "best":
        head = render("grade_best", {}, lang)
        why = d.why
    else:
        head = render("analysis_note_loss", {
            "grade": render(f"grade_{d.grade}", {}, lang), "win": f"{d.loss_win:.0f}",
            "points": f"{d.loss_points:.0f}", "best": action_words(d.best, lang)}, lang)
        why = d.why_not + d.why
    return head + (": " + "; ".join(words(r, lang) for r in why) if why else "")
