"""What goes over the wire: JSON of a seat's view and of the public events.

Only :class:`~tute.view.PlayerView` is ever serialised for a seat, so a message can
carry no card the seat may not see.
"""

from __future__ import annotations

from typing import Any

from tute.actions import Play
from tute.match import Match
from tute.view import PlayerView


def view_json(v: PlayerView, names: list[str], match: Match | None = None
              ) -> dict[str, Any]:
    r = v.result
    out: dict[str, Any] = {
        "variant": str(v.variant), "players": v.variant.players, "seat": v.seat,
        "names": names, "dealer": v.dealer, "phase": v.phase, "to_act": v.to_act,
        "trump": v.trump.value if v.trump else None,
        "turn_up": v.turn_up.code if v.turn_up else None,
        "turn_up_in_stock": v.turn_up_in_stock, "turn_up_holder": v.turn_up_holder,
        "hand": [c.code for c in v.hand], "hand_counts": list(v.hand_counts),
        "stock_left": v.stock_left, "leader": v.leader,
        "trick": [[s, c.code] for s, c in v.trick],
        "last_trick": [[s, c.code] for s, c in v.last_trick],
        "tricks_won": list(v.tricks_won), "points_taken": list(v.points_taken),
        "cantes": list(v.cantes),
        "cantes_shown": [{"seat": c.seat, "suit": c.suit.value, "points": c.points,
                          "cards": [x.code for x in c.cards]} for c in v.cantes_shown],
        "known_cards": [sorted(c.code for c in k) for k in v.known_cards],
        "legal": [str(a) for a in v.legal],
        "legal_cards": [a.card.code for a in v.legal if isinstance(a, Play)],
        "declarer": v.declarer, "bid": v.bid, "sitting_out": v.sitting_out,
        "partnerships": v.variant.partnerships,
        "result": None if r is None else {
            "card_points": list(r.card_points), "cantes": list(r.cantes),
            "totals": list(r.totals), "winner": r.winner, "winners": list(r.winners),
            "tute": r.tute, "void": r.void, "last_trick": r.last_trick},
    }
    if match is not None:
        score = match.score()
        out["match"] = {"hand": match.hand_number, "hands_won": list(score.hands_won),
                        "points": list(score.points), "winner": score.winner,
                        "over": match.is_over}
    return out


def event_json(public: dict[str, Any], view: dict[str, Any] | None) -> dict[str, Any]:
    message: dict[str, Any] = {"type": "event", "event": public}
    if view is not None:
        message["view"] = view
    return message
