"""A closed duplicate series as one file, and its verification by ``tute verify``.

The site exports a series once it closes (``GET /api/series/{id}/export``): a JSON
document in format :data:`FORMAT` -- the series (variant, deals, robots, period), every
deal's commitment as published at the opening, the master seed revealed at the close,
and each play: who, which deal, the margin the standings counted, and the kept match's
``.tute`` record.

:func:`verify_series` checks, with nothing but the file: that the master gives every
published commitment (the deals were fixed before anyone played); that each record
verifies as any record does (:func:`tute.tools.verify.verify_record`), is one hand of the
series' game, and was dealt exactly the series' deal (the same cards for everyone: no
seed of anyone's changed it); and that the margin counted is the one its hand makes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from tute.core.errors import TuteError
from tute.core.records import RecordError, parse_record, replay
from tute.core.value import hand_value
from tute.core.variants import parse_variant
from tute.duplicate.series import commitments, deal_game
from tute.i18n import render
from tute.tools.verify import verify_record

FORMAT = "tute-series/1"


class SeriesFileError(TuteError):
    """A file that is not a series' export (or not one this version reads)."""


@dataclass(frozen=True, slots=True)
class SeriesPlay:
    player: str
    deal: int
    margin: int
    record: str                         # the kept match's .tute text


@dataclass(frozen=True, slots=True)
class SeriesFile:
    id: str
    variant: str
    deals: int
    robots: str
    opens: int
    closes: int
    master: str
    commitments: tuple[str, ...]
    plays: tuple[SeriesPlay, ...]


def series_json(s: SeriesFile) -> str:
    """The export's text."""
    return json.dumps({
        "format": FORMAT, "id": s.id, "variant": s.variant, "deals": s.deals,
        "robots": s.robots, "opens": s.opens, "closes": s.closes, "master": s.master,
        "commitments": list(s.commitments),
        "plays": [{"player": p.player, "deal": p.deal, "margin": p.margin,
                   "record": p.record} for p in s.plays]}, ensure_ascii=False, indent=1) + "\n"


def _field(data: dict[str, Any], key: str, kind: type) -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise SeriesFileError("series_file_field", field=key)
    return value


def read_series(text: str) -> SeriesFile:
    """An export read back (SeriesFileError: not one, in words)."""
    try:
        data = json.loads(text)
    except ValueError as e:
        raise SeriesFileError("series_file_not_json") from e
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SeriesFileError("series_file_format", format=FORMAT)
    raw_plays = _field(data, "plays", list)
    published = _field(data, "commitments", list)
    if not all(isinstance(c, str) for c in published):
        raise SeriesFileError("series_file_field", field="commitments")
    plays = []
    for p in raw_plays:
        if not isinstance(p, dict):
            raise SeriesFileError("series_file_field", field="plays")
        plays.append(SeriesPlay(_field(p, "player", str), _field(p, "deal", int),
                                _field(p, "margin", int), _field(p, "record", str)))
    return SeriesFile(_field(data, "id", str), _field(data, "variant", str),
                      _field(data, "deals", int), _field(data, "robots", str),
                      _field(data, "opens", int), _field(data, "closes", int),
                      _field(data, "master", str), tuple(published), tuple(plays))


@dataclass(frozen=True, slots=True)
class PlayCheck:
    """One play's verdict (``deal`` 0: the series' own, its master against its
    commitments): ``ok``, or ``bad`` with a message key and its parameters."""

    deal: int
    player: str
    verdict: str
    why: str = ""
    params: tuple[tuple[str, object], ...] = ()

    def text(self, lang: str) -> str:
        if self.deal == 0:
            return render("series_check_master_ok" if self.verdict == "ok"
                          else "series_check_master_bad", {}, lang)
        where = {"deal": self.deal, "player": self.player}
        if self.verdict == "ok":
            return render("series_check_ok", where, lang)
        return render("series_check_bad", {**where, "why": render(self.why, dict(
            self.params), lang)}, lang)


def _check_play(s: SeriesFile, p: SeriesPlay) -> PlayCheck:
    def bad(why: str, **params: object) -> PlayCheck:
        return PlayCheck(p.deal, p.player, "bad", why, tuple(params.items()))

    if not 1 <= p.deal <= s.deals:
        return bad("series_check_no_deal")
    try:
        record = parse_record(p.record)
    except RecordError as e:
        return bad("series_check_record", error=e)
    variant = parse_variant(s.variant)
    if record.variant != variant or len(record.hands) != 1:
        return bad("series_check_game")
    checks = verify_record(record)
    if checks[0].verdict != "ok":
        return bad("series_check_shuffle")
    hand = record.hands[0]
    if hand.proof is None or hand.proof.commitment != s.commitments[p.deal - 1]:
        return bad("series_check_commitment")
    played = replay(record).games[0]
    if played.deal != deal_game(variant, s.master, p.deal, hand.proof.dealt).deal:
        return bad("series_check_not_the_deal")      # the same cards, the same dealer
    result = played.result()
    made = None if result is None else hand_value(variant, result).margins[0]
    if made != p.margin:
        return bad("series_check_margin", counted=p.margin, made=made)
    return PlayCheck(p.deal, p.player, "ok")


def verify_series(s: SeriesFile) -> list[PlayCheck]:
    """The series' master against its commitments, then every play."""
    try:
        honest = commitments(s.master, s.deals) == s.commitments
    except TuteError:
        honest = False
    out = [PlayCheck(0, "", "ok" if honest else "bad")]
    if honest:
        out += [_check_play(s, p) for p in s.plays]
    return out
