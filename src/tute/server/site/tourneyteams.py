"""A tournament's entrants (:mod:`tute.server.site.tourneys`): a person (``a<id>``), or
at parejas a pair (``t<id>-<id>``; ``t<id>-r``, a person with the robot): two who asked
for each other, the others drawn at the start."""

from __future__ import annotations

import secrets
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Entry:
    account: int
    name: str
    ticket: str
    withdrawn: int | None              # the round it withdrew in (0: before the start)
    partner: int | None = None         # parejas: the partner asked for
    team: str | None = None            # its entrant: a<id>; parejas t<id>-<id>, t<id>-r


def members(team: str) -> tuple[int | None, ...]:
    """An entrant's people (None: the robot partner)."""
    return tuple(None if x == "r" else int(x) for x in team[1:].split("-"))


def _team_key(a: int, b: int | None) -> str:
    return f"t{a}-{'r' if b is None else b}"


def draw_teams(entries: list[Entry], rng: secrets.SystemRandom | None = None
               ) -> dict[int, str]:
    """Parejas: each person's pair -- two who asked for each other, the rest drawn, the
    odd one out with the robot."""
    by = {e.account: e for e in entries}
    out: dict[int, str] = {}
    for e in entries:
        p = e.partner
        if e.account in out or p is None or p in out or p not in by:
            continue
        if by[p].partner == e.account:
            out[e.account] = out[p] = _team_key(e.account, p)
    rest = [e.account for e in entries if e.account not in out]
    (rng or secrets.SystemRandom()).shuffle(rest)
    while rest:
        a = rest.pop()
        b = rest.pop() if rest else None
        out[a] = _team_key(a, b)
        if b is not None:
            out[b] = out[a]
    return out


def teams_of(e: list[Entry]) -> list[str]:
    """The entrants, in entry order (who left before the start: none)."""
    return list(dict.fromkeys(x.team for x in e if x.withdrawn != 0 and x.team is not None))
