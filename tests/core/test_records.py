"""Game records (docs/records.md): writer, reader, round trips, JSON, ``tute replay``."""

from __future__ import annotations

import dataclasses
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import EVERY_PRESET, random_play
from tute import Game, Match, parse_card
from tute.core.records import (
    RecordError,
    format_record,
    parse_record,
    record_of_games,
    record_to_json,
    replay,
)

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SEED002 = EXAMPLES / "seed002.tute"


def _play(g: Game, rng: random.Random) -> None:
    random_play(g, rng, declare=0.5)


# --- the seed 002 golden record -------------------------------------------------------
def test_seed002_golden_record_reproduces_the_worked_example() -> None:
    record = parse_record(SEED002.read_text(encoding="utf-8"))
    assert record.names == ("Tú", "Ada") and str(record.variant) == "habanero(match_target=5)"
    hand = record.hands[0]
    assert hand.dealer == 1                                   # Ada deals, you are mano
    g = hand.new_game(record.variant)
    assert g.turn_up == parse_card("Ab")                      # A of bastos turned
    printed = {parse_card(c) for c in ["7b", "Rb", "Rc", "Cc", "3o", "So", "5e", "2c"]}
    start = set(g.hand(0))
    assert len(printed - start) == 1 and printed - start == {parse_card("So")}
    changed = (start - printed).pop()
    assert changed.code in record.notes[0]                    # the fix is named in the header
    events: list[str] = []
    for seat, action in hand.actions:
        trick_before = list(g.trick)
        tricks = sum(g.tricks_won)
        g.apply(seat, action)
        events.append(f"{seat} {action}")
        if str(action) == "swap":
            assert tricks == 0 and not trick_before          # at the first lead, no trick won
            assert parse_card("Ab") in g.hand(0) and g.turn_up == parse_card("7b")
        if str(action) == "40":
            assert parse_card("Cb") in g.view(0).own_draws   # the caballo was drawn
        if str(action) == "Cc" and trick_before == [parse_card("Ac")]:
            assert g.phase == "strict" and parse_card("Rc") in g.hand(0)
            events.append("Q-instead-of-K")
    assert events[:7] == ["0 swap", "0 2c", "1 4e", "0 40", "0 5e", "1 6e", "1 20o"]
    assert g.trick_winners[0] == 0 and g.trick_winners[1] == 1  # 2c beats 4e; 6e takes 5e
    i = events.index("1 So")
    assert events[i + 1] == "0 3o" and events[i + 2] == "0 20c"
    assert "Q-instead-of-K" in events
    assert g.view(0).last_trick[-1] == (0, parse_card("Ab"))    # the As of trumps, last trick
    assert g.trick_winners[-1] == 0
    r = g.result()
    assert r is not None
    assert r.card_points == (68, 62) and r.cantes == (60, 20) and r.totals == (128, 82)
    assert r.winner == 0 and r.last_trick == 0
    assert format_record(record) == SEED002.read_text(encoding="utf-8")


def test_replay_cli_prints_the_final_count() -> None:
    r = subprocess.run([sys.executable, "-m", "tute.cli", "replay", str(SEED002)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "Tú: cartas 68 (diez de últimas) + cantes 60 = 128" in r.stdout
    assert "Ada: cartas 62 + cantes 20 = 82" in r.stdout
    # seed 002 is a record of tute play: "Tú" is the reader, told in the second person
    assert "ganas la mano" in r.stdout and "gana la mano Tú" not in r.stdout
    assert "\x1b[" not in r.stdout
    assert r.stdout.count("Baza ") == 20


def test_replay_cli_seat_view_hides_the_other_hand() -> None:
    r = subprocess.run([sys.executable, "-m", "tute.cli", "replay", str(SEED002), "--seat",
                        "1", "--lang", "en"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "Tú  :" not in r.stdout and "Ada :" in r.stdout
    assert "Tú ?" in r.stdout                                # your draws are hidden from Ada
    assert "Tú: cards 68 (last trick +10) + cantes 60 = 128" in r.stdout


def test_replay_cli_json() -> None:
    r = subprocess.run([sys.executable, "-m", "tute.cli", "replay", str(SEED002), "--json"],
                       capture_output=True, text=True, timeout=60)
    doc = json.loads(r.stdout)
    assert doc["seats"] == ["Tú", "Ada"] and doc["match"] == "1-0"
    assert doc["hands"][0]["totals"] == [128, 82]
    assert doc["hands"][0]["actions"][0] == {"seat": 0, "action": "swap"}


# --- round trips --------------------------------------------------------------------
PRESETS = EVERY_PRESET


@settings(max_examples=60, deadline=None)
@given(text=st.sampled_from(PRESETS), seed=st.integers(0, 2**40), hands=st.integers(1, 3),
       explicit=st.booleans())
def test_format_parse_round_trip(text: str, seed: int, hands: int, explicit: bool) -> None:
    m = Match(text, seed=seed)
    rng = random.Random(seed)
    games: list[Game] = []
    while len(games) < hands and not m.is_over:
        g = m.game
        if explicit:                       # as a deck order instead of a seed
            g.seed = None
        _play(g, rng)
        games.append(g)
        if len(games) < hands:
            m.next_hand()
    record = record_of_games(games, date="2026-11-29", notes=('a "quoted" note \\ here',))
    text_form = format_record(record)
    again = parse_record(text_form)
    assert again == record or format_record(again) == text_form
    assert format_record(again) == text_form
    rep = replay(again)
    assert [x.result() for x in rep.games] == [x.result() for x in games]
    doc = record_to_json(again)
    hands_json = doc["hands"]
    assert isinstance(hands_json, list) and len(hands_json) == len(games)
    assert json.loads(json.dumps(doc)) == doc


def test_unfinished_hand_round_trips() -> None:
    g = Game.new("parejas", seed=3)
    rng = random.Random(3)
    random_play(g, rng, steps=7)
    text = format_record(record_of_games([g]))
    assert '[Result "*"]' in text and format_record(parse_record(text)) == text


# --- bad records --------------------------------------------------------------------
def _lines() -> list[str]:
    return SEED002.read_text(encoding="utf-8").splitlines()


def test_illegal_action_is_reported_with_its_line_and_rule() -> None:
    lines = _lines()
    n = next(i for i, x in enumerate(lines) if x.startswith("15. "))
    lines[n] = "15. 1 3c, 0 Ab"                  # strict phase: must follow copas with Rc
    with pytest.raises(RecordError) as e:
        parse_record("\n".join(lines))
    assert e.value.line == n + 1
    assert "must follow suit" in str(e.value) and f"line {n + 1}" in str(e.value)
    assert "línea" in e.value.localized("es")


@pytest.mark.parametrize(("edit", "words"), [
    (lambda ls: [x.replace("[Result \"0\"]", "[Result \"1\"]") for x in ls], "Result says"),
    (lambda ls: [x.replace("totals 128 82", "totals 130 80") for x in ls], "Score says"),
    (lambda ls: [x.replace("[Match \"1-0\"]", "[Match \"0-1\"]") for x in ls], "Match says"),
    (lambda ls: [x for x in ls if not x.startswith("[Deck")], "Seed or its Deck"),
    (lambda ls: [x.replace("[Deck \"7b", "[Deck \"7b 7b") for x in ls], "twice"),
    (lambda ls: [x.replace("habanero(match_target=5)", "habanero(x=1)") for x in ls], "Variant"),
    (lambda ls: [*ls, "21. 0 Zz"], "not an action"),
    (lambda ls: [*ls, "21. Ao"], "seat then an action"),
    (lambda ls: [*ls, "garbage"], "cannot read"),
    (lambda ls: [x for x in ls if not x.startswith("[Hand")], "[Hand]"),
    (lambda ls: [*ls, "21. 0 Ab"], "over"),
])
def test_bad_records_are_refused(edit: object, words: str) -> None:
    lines = edit(_lines())  # type: ignore[operator]
    with pytest.raises(RecordError) as e:
        parse_record("\n".join(lines))
    assert words in str(e.value)


def test_not_text() -> None:
    with pytest.raises(RecordError):
        parse_record(b"x")  # type: ignore[arg-type]


def test_comments_and_blank_lines_are_ignored() -> None:
    text = "; a comment\n\n" + SEED002.read_text(encoding="utf-8").replace(
        "\n1. ", "\n; first trick\n1. ")
    assert format_record(parse_record(text)) == SEED002.read_text(encoding="utf-8")


def test_annotations_round_trip_through_text_and_json() -> None:
    import json as json_

    from tute.core.records import format_record, parse_record, record_of_games
    from tute.core.records import record_to_json_text as to_json

    g = random_play(Game.new("habanero", seed=3), random.Random(3))
    record = record_of_games([g], ("Ana", "Ada"))
    hand = record.hands[0].annotated(0, "abre con {llaves}, comas y \\ barras")
    hand = hand.annotated(5, "la mejor")
    noted = dataclasses.replace(record, hands=(hand,))
    text = format_record(noted)
    assert "{abre con {llaves\\}, comas y \\\\ barras}" in text
    again = parse_record(text)
    assert again == noted and again.hands[0].note(5) == "la mejor"
    assert format_record(again) == text
    data = json_.loads(to_json(again))
    assert data["hands"][0]["actions"][0]["note"].startswith("abre con")
    assert "note" not in data["hands"][0]["actions"][1]


def test_a_partial_replay_stops_at_the_first_bad_line() -> None:
    from tute.core.records import format_record, read_partial, record_of_games

    g = random_play(Game.new("habanero", seed=4), random.Random(4))
    text = format_record(record_of_games([g]))
    lines = text.splitlines()
    moves = [i for i, line in enumerate(lines) if line[:1].isdigit()]
    bad = moves[4]                                 # the 5th line of moves: a card twice
    first_card = lines[moves[0]].split(", ")[-1].split(" ")[1]
    lines[bad] = lines[bad].split(". ")[0] + f". 0 {first_card}, 1 {first_card}"
    partial = read_partial("\n".join(lines) + "\n")
    assert partial.error is not None and partial.error.line == bad + 1
    assert partial.replay is not None
    played = partial.replay.games[0]
    assert not played.is_over and 6 <= len(played.history) < len(g.history)
    assert played.history == g.history[:len(played.history)]
    good = read_partial(text)
    assert good.error is None and good.replay is not None and good.replay.games[0].is_over
    broken = read_partial("[Variant \"nope\"]\n")
    assert broken.record is None and broken.error is not None
