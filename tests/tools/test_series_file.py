"""A closed series' export and ``tute verify`` on it: an honest export verifies; a master
that does not give the commitments, a card moved, a deal dealt with somebody's own seed
(verifiable, but not everybody's cards), a play filed under another deal, or a margin
that is not the hand's are each named; a file that is not an export is refused in
words."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tute.core.game import Game
from tute.core.records import format_record, record_of_games
from tute.core.shuffle import ShuffleProof, commitment
from tute.core.value import hand_value
from tute.duplicate.series import commitments, deal_game, deal_seed, dealer
from tute.tools.seriesfile import (
    SeriesFile,
    SeriesFileError,
    SeriesPlay,
    read_series,
    series_json,
    verify_series,
)

MASTER = hashlib.sha256(b"export").hexdigest()
VARIANT = "habanero"


def _played(g: Game, person: int) -> Game:
    """Seat 0 plays its ``person``-th legal card, seat 1 its first."""
    while not g.is_over:
        seat = g.to_act
        assert seat is not None
        legal = list(g.view(seat).legal)
        g.apply(seat, legal[min(person if seat == 0 else 0, len(legal) - 1)])
    return g


def _play(player: str, deal: int, person: int, game: Game | None = None) -> SeriesPlay:
    g = _played(game if game is not None else deal_game(VARIANT, MASTER, deal, 3), person)
    result = g.result()
    assert result is not None
    return SeriesPlay(player, deal, hand_value(g.variant, result).margins[0],
                      format_record(record_of_games([g], ("Ana", "Robot"))))


def _series(plays: tuple[SeriesPlay, ...], master: str = MASTER) -> SeriesFile:
    return SeriesFile("0123456789ab", VARIANT, 2, "heuristic", 1000, 2000, master,
                      commitments(MASTER, 2), plays)


def _verdicts(s: SeriesFile) -> list[tuple[int, str, str]]:
    return [(c.deal, c.verdict, c.why) for c in verify_series(read_series(series_json(s)))]


def test_an_honest_export_verifies_and_reads_back_equal() -> None:
    s = _series((_play("Ana", 1, 0), _play("Bea", 1, 1), _play("Ana", 2, 0)))
    assert read_series(series_json(s)) == s
    assert _verdicts(s) == [(0, "ok", ""), (1, "ok", ""), (1, "ok", ""), (2, "ok", "")]
    checks = verify_series(s)
    assert "verificada" in checks[1].text("es") and "Ana" in checks[1].text("es")
    assert "master seed gives" in checks[0].text("en")


def test_each_lie_is_named() -> None:
    honest = _play("Ana", 1, 0)
    # a master that does not give what was published: nothing else is checked
    other = hashlib.sha256(b"other").hexdigest()
    assert _verdicts(_series((honest,), other)) == [(0, "bad", "")]
    # one card moved in the deck the record says was dealt
    lines = honest.record.splitlines()
    i = next(k for k, line in enumerate(lines) if line.startswith("[Deck "))
    cards = lines[i][len('[Deck "'):-2].split()
    cards[0], cards[1] = cards[1], cards[0]
    lines[i] = f'[Deck "{" ".join(cards)}"]'
    moved = dataclasses.replace(honest, record="\n".join(lines) + "\n")
    assert _verdicts(_series((moved,)))[1][1:] in {("bad", "series_check_shuffle"),
                                                   ("bad", "series_check_record")}
    # filed under another deal
    assert _verdicts(_series((dataclasses.replace(honest, deal=2),)))[1][1:] == \
        ("bad", "series_check_commitment")
    assert _verdicts(_series((dataclasses.replace(honest, deal=9),)))[1][1:] == \
        ("bad", "series_check_no_deal")
    # a margin the hand does not make
    assert _verdicts(_series((dataclasses.replace(honest, margin=honest.margin + 10),)))[
        1][1:] == ("bad", "series_check_margin")
    # the deal's commitment, but somebody's seed in the shuffle: verifiable, not the deal
    seed = deal_seed(MASTER, 1)
    proof = ShuffleProof(commitment(seed), seed, ((0, "ab" * 16, 2),), 1, 1, 3)
    own = _play("Ana", 1, 0, Game.verifiable(VARIANT, proof, dealer(2, 1)))
    assert _verdicts(_series((own,)))[1][1:] == ("bad", "series_check_not_the_deal")
    # another game's record
    parejas = _played(Game.verifiable("parejas", deal_game("parejas", MASTER, 1).proof
                                      or proof, 0), 0)
    wrong = dataclasses.replace(honest, record=format_record(record_of_games([parejas])))
    assert _verdicts(_series((wrong,)))[1][1:] == ("bad", "series_check_game")


@pytest.mark.parametrize("text,key", [
    ("[Event \"tute\"]", "series_file_not_json"),
    ("{not json", "series_file_not_json"),
    ('{"format": "tute-series/9"}', "series_file_format"),
    ('[]', "series_file_format"),
    ('{"format": "tute-series/1", "plays": [], "commitments": [3]}', "series_file_field"),
    ('{"format": "tute-series/1", "plays": [1], "commitments": []}', "series_file_field"),
    ('{"format": "tute-series/1", "plays": [], "commitments": [], "id": "x", '
     '"variant": "habanero", "deals": true}', "series_file_field"),
])
def test_a_file_that_is_not_an_export_is_refused_in_words(text: str, key: str) -> None:
    with pytest.raises(SeriesFileError) as e:
        read_series(text)
    assert e.value.key == key
    assert e.value.localized("es") and e.value.localized("en") != e.value.localized("es")


def test_tute_verify_reads_an_export(tmp_path: Path) -> None:
    good = tmp_path / "series.json"
    good.write_text(series_json(_series((_play("Ana", 1, 0), _play("Bea", 2, 1)))))
    bad = tmp_path / "lie.json"
    lie = json.loads(good.read_text())
    lie["plays"][1]["margin"] += 1
    bad.write_text(json.dumps(lie))
    run = [sys.executable, "-m", "tute.cli", "verify", "--lang", "en"]
    ok = subprocess.run([*run, str(good)], capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0, ok.stderr
    assert "deal 2 of Bea: verified" in ok.stdout and "master seed gives" in ok.stdout
    no = subprocess.run([*run, str(good), str(bad)], capture_output=True, text=True,
                        timeout=120)
    assert no.returncode == 1 and "deal 2 of Bea: DOES NOT MATCH" in no.stdout, no.stdout
    junk = tmp_path / "junk.json"
    junk.write_text("{")
    refused = subprocess.run([*run, str(junk)], capture_output=True, text=True, timeout=120)
    assert refused.returncode == 1 and "not a series export" in refused.stderr
