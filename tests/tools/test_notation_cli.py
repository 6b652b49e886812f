"""``tute notation`` (a record to TPN and back) and the other commands that read TPN:
``tute replay``, ``tute verify`` -- through the real command line."""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
from pathlib import Path

from tute import Game
from tute.bots import make_bot
from tute.core.driver import play_hand
from tute.core.notation import format_notation, parse_notation
from tute.core.records import format_record, record_of_games
from tute.core.shuffle import ShuffleProof, commitment

SEED002 = Path(__file__).resolve().parents[2] / "examples" / "seed002.tute"


def _tute(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tute.cli", *args], capture_output=True,
                          text=True, timeout=120)


def test_a_record_to_the_notation_and_back(tmp_path: Path) -> None:
    out = tmp_path / "seed002.tpn"
    r = _tute("notation", str(SEED002), "--out", str(out))
    assert r.returncode == 0, r.stderr
    text = out.read_text(encoding="utf-8")
    assert text.startswith("% TPN 1") and '[Deal "0:3.RC2.5.RS7 1:RC7.54.64.2"]' in text
    back = _tute("notation", str(out))
    assert back.returncode == 0 and back.stdout == SEED002.read_text(encoding="utf-8")
    same = _tute("notation", str(out), "--to", "tpn")
    assert same.stdout == text
    shown = _tute("replay", str(out), "--lang", "en")
    assert shown.returncode == 0, shown.stderr
    assert "Tú: cards 68 (last trick +10) + cantes 60 = 128" in shown.stdout


def test_a_file_of_several_matches_and_bad_files(tmp_path: Path) -> None:
    games = []
    for seed in (1, 2):
        g = Game.new("habanero", seed=seed)
        play_hand(g, [make_bot("heuristic", seed=s) for s in range(2)])
        games.append(record_of_games([g], names=("Ana", "Bea")))
    many = tmp_path / "many.tpn"
    many.write_text(format_notation(games), encoding="utf-8")
    r = _tute("notation", str(many))
    assert r.returncode == 1 and "--game" in r.stderr
    second = _tute("notation", str(many), "--game", "2")
    assert second.returncode == 0 and second.stdout == format_record(games[1])
    assert _tute("notation", str(many), "--game", "3").returncode == 1
    assert _tute("replay", str(many)).returncode == 1
    assert _tute("notation", str(tmp_path / "none.tpn")).returncode == 2
    bad = tmp_path / "bad.tpn"
    bad.write_text(format_notation(games).replace('[Dealer "0"]', '[Dealer "5"]', 1),
                   encoding="utf-8")
    r = _tute("notation", str(bad), "--lang", "en")
    assert r.returncode == 1 and "line" in r.stderr and "Dealer" in r.stderr


def test_verify_reads_the_notation_and_finds_a_moved_card(tmp_path: Path) -> None:
    seed = hashlib.sha256(b"tpn").hexdigest()
    proof = ShuffleProof(commitment(seed), seed, ((0, "ana", 5),), 1, 4, 9)
    g = Game.verifiable("parejas", proof)
    play_hand(g, [make_bot("heuristic", seed=s) for s in range(4)])
    text = format_notation([record_of_games([g]), record_of_games([g])])
    good = tmp_path / "good.tpn"
    good.write_text(text, encoding="utf-8")
    r = _tute("verify", str(good), "--lang", "en")
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.count("good.tpn:") == 2
    # a card moved in the deck (and so in the Deal): read, but not what the seeds deal
    deck = re.search(r'\[Deck "(\S+) (\S+) ', text)
    assert deck is not None
    x, y = deck.group(1), deck.group(2)
    swapped = text.replace(f'[Deck "{x} {y} ', f'[Deck "{y} {x} ', 1)
    (first, second) = parse_notation(text)
    lying = tmp_path / "lying.tpn"
    lying.write_text(swapped, encoding="utf-8")
    r = _tute("verify", str(lying), "--lang", "en")
    assert r.returncode == 1 and "line" in r.stderr, r.stdout + r.stderr   # Deal disagrees
    # the server seed changed: the board reads, and verify names the hand that fails
    seeds = text.replace(f'[ServerSeed "{seed}"]', f'[ServerSeed "{"0" * 64}"]', 1)
    changed = tmp_path / "changed.tpn"
    changed.write_text(seeds, encoding="utf-8")
    r = _tute("verify", str(changed), "--lang", "en")
    assert r.returncode == 1, r.stdout + r.stderr
    assert r.stdout.count("changed.tpn:") == 2 and "NOT" in r.stdout.splitlines()[0]
    assert first == second
