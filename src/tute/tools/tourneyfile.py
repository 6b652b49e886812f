"""A finished tournament as one file, and its verification by ``tute verify``.

The site exports a tournament once it is over (``GET /api/tourneys/{id}/export``): a JSON
document in format :data:`FORMAT` -- the tournament (name, game, kind) and each of its
games: its round, board, entrants, the score and margin the standings counted, and the
kept match's ``.tute`` record.  :func:`verify_tourney` checks, with nothing but the file,
that each record verifies as any record does (every hand dealt from the seeds its
commitment promised, :func:`tute.tools.verify.verify_record`) and makes the result
counted (:func:`tute.tourney.results.board_result`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from tute.core.errors import TuteError
from tute.core.records import RecordError, parse_record, replay
from tute.core.variants import parse_variant
from tute.i18n import render
from tute.tools.verify import verify_record
from tute.tourney.results import board_result

FORMAT = "tute-tourney/1"


class TourneyFileError(TuteError):
    """A file that is not a tournament's export (or not one this version reads)."""


@dataclass(frozen=True, slots=True)
class TourneyGame:
    round: int
    board: int
    a: str                              # the entrant at seat 0 (its people's names)
    b: str                              # at seat 1 ("" the bye's robot)
    score: float
    margin: int
    record: str


@dataclass(frozen=True, slots=True)
class TourneyFile:
    id: str
    name: str
    variant: str
    kind: str
    games: tuple[TourneyGame, ...]


def tourney_json(t: TourneyFile) -> str:
    return json.dumps({
        "format": FORMAT, "id": t.id, "name": t.name, "variant": t.variant, "kind": t.kind,
        "games": [{"round": g.round, "board": g.board, "a": g.a, "b": g.b, "score": g.score,
                   "margin": g.margin, "record": g.record} for g in t.games]},
        ensure_ascii=False, indent=1) + "\n"


def _field(data: dict[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise TourneyFileError("tourney_file_field", field=key)
    return value


def read_tourney(data: dict[str, Any]) -> TourneyFile:
    """An export read back from its JSON (TourneyFileError: not one, in words)."""
    if data.get("format") != FORMAT:
        raise TourneyFileError("tourney_file_format", format=FORMAT)
    games = []
    for g in _field(data, "games", list):
        if not isinstance(g, dict):
            raise TourneyFileError("tourney_file_field", field="games")
        games.append(TourneyGame(_field(g, "round", int), _field(g, "board", int),
                                 _field(g, "a", str), _field(g, "b", str),
                                 float(_field(g, "score", (int, float))),
                                 _field(g, "margin", int), _field(g, "record", str)))
    return TourneyFile(_field(data, "id", str), _field(data, "name", str),
                       _field(data, "variant", str), _field(data, "kind", str), tuple(games))


@dataclass(frozen=True, slots=True)
class GameCheck:
    round: int
    board: int
    verdict: str                        # ok, bad
    why: str = ""
    params: tuple[tuple[str, object], ...] = ()

    def text(self, lang: str) -> str:
        where = {"round": self.round, "board": self.board}
        if self.verdict == "ok":
            return render("tourney_check_ok", where, lang)
        return render("tourney_check_bad", {**where, "why": render(self.why, dict(
            self.params), lang)}, lang)


def _check(t: TourneyFile, g: TourneyGame) -> GameCheck:
    def bad(why: str, **params: object) -> GameCheck:
        return GameCheck(g.round, g.board, "bad", why, tuple(params.items()))

    try:
        record = parse_record(g.record)
    except RecordError as e:
        return bad("series_check_record", error=e)
    if record.variant != parse_variant(t.variant):
        return bad("tourney_check_game")
    if any(c.verdict != "ok" for c in verify_record(record)):
        return bad("series_check_shuffle")
    match = replay(record).match
    if not match.is_over:
        return bad("tourney_check_unfinished")
    score, margin = board_result(match)
    if (score, margin) != (g.score, g.margin):
        return bad("tourney_check_result", counted=f"{g.score:g} {g.margin:+d}",
                   made=f"{score:g} {margin:+d}")
    return GameCheck(g.round, g.board, "ok")


def verify_tourney(t: TourneyFile) -> list[GameCheck]:
    """Every game of the export checked."""
    return [_check(t, g) for g in t.games]
