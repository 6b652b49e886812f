"""The outcome of one hand (RULES.md §7, §9)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Contract:
    """Subastado: who played alone, for how many points, and whether he made it."""

    declarer: int
    bid: int
    made: bool


@dataclass(frozen=True, slots=True)
class HandResult:
    """Per-side figures of a finished hand.

    Sides are ``seat % 2`` in partnership games and the seats themselves otherwise (in
    Subastado and Cabrero too).  ``card_points`` includes the last-trick bonus;
    ``cantes`` the 20s and 40s sung (and manillas).  A hand ended by tute is won by the
    declaring side whatever the points; its card points are not counted (reported 0).

    ``winner`` is the side that won the hand (scoring ``highest``); in Subastado the
    declarer if he made his contract, else None; in Cabrero None.  ``winners`` lists every
    side that won: the defenders when a contract fails, and in Cabrero every seat that
    took no *poroto* (a dealer who sat out included).  ``porotos`` (Cabrero) is 1 for each
    seat that took one this hand.  A ``void`` hand (everybody passed in the auction)
    scores nothing.
    """

    card_points: tuple[int, ...]
    cantes: tuple[int, ...]
    totals: tuple[int, ...]
    tricks_won: tuple[int, ...]
    winner: int | None
    last_trick: int | None
    tute: int | None = None
    games: int = 1
    winners: tuple[int, ...] = ()
    contract: Contract | None = None
    porotos: tuple[int, ...] | None = None
    capote: int | None = None
    void: bool = False

    @property
    def sides(self) -> int:
        return len(self.totals)


def result_to_json(r: HandResult) -> dict[str, object]:
    """A hand's count as JSON (the server's hand events, the arena's rows)."""
    out: dict[str, object] = {
        "card_points": list(r.card_points), "cantes": list(r.cantes),
        "totals": list(r.totals), "tricks_won": list(r.tricks_won), "winner": r.winner,
        "winners": list(r.winners), "last_trick": r.last_trick, "tute": r.tute,
        "games": r.games, "void": r.void, "capote": r.capote,
        "porotos": None if r.porotos is None else list(r.porotos),
        "contract": None if r.contract is None else {
            "declarer": r.contract.declarer, "bid": r.contract.bid, "made": r.contract.made},
    }
    return out


def result_from_json(d: dict[str, object]) -> HandResult:
    """The inverse of :func:`result_to_json`."""
    def ints(key: str) -> tuple[int, ...]:
        value = d.get(key) or []
        assert isinstance(value, list)
        return tuple(int(x) for x in value)

    def opt(key: str) -> int | None:
        value = d.get(key)
        return None if value is None else int(value)  # type: ignore[call-overload]

    c = d.get("contract")
    contract = None
    if isinstance(c, dict):
        contract = Contract(int(c["declarer"]), int(c["bid"]), bool(c["made"]))
    porotos = d.get("porotos")
    return HandResult(ints("card_points"), ints("cantes"), ints("totals"), ints("tricks_won"),
                      opt("winner"), opt("last_trick"), opt("tute"),
                      int(d.get("games", 1)), ints("winners"), contract,  # type: ignore[call-overload]
                      None if porotos is None else ints("porotos"), opt("capote"),
                      bool(d.get("void", False)))
