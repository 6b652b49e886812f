"""``tute play`` driven end to end through a pseudo-terminal: a whole hand of habanero
and of parejas, with an illegal input, a cante and the final count."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest

from tute.core.records import parse_record

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
PROMPT = r"Tu jugada \(número, carta, cante; \? reglas, q salir\): "


def _options(screen: str) -> tuple[list[str], list[str], list[str]]:
    """Card numbers allowed, declarations offered, and every number in the hand."""
    text = ANSI.sub("", screen)
    line = [x for x in text.splitlines() if x.startswith("Puedes:")][-1]
    hand = [x for x in text.splitlines() if x.startswith("Tu mano:")][-1]
    numbers = re.search(r"cartas ([\d ]+)", line)
    decl = re.search(r"cantar (.+)$", line)
    everything = re.findall(r"(\d+):", hand)
    return (numbers.group(1).split() if numbers else [],
            decl.group(1).split() if decl else [], everything)


def _play_a_hand(variant: str, seed: int, tmp_path: Path) -> str:
    child = pexpect.spawn(sys.executable, ["-m", "tute.cli", "play", "--variant", variant,
                                           "--seed", str(seed), "--records", str(tmp_path),
                                           "--hands", "1", "--bots", "heuristic"],
                          encoding="utf-8", timeout=60, dimensions=(40, 80),
                          env={"TERM": "xterm", "PATH": "/usr/bin:/bin",
                               "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")})
    transcript: list[str] = []
    tried_before_a_win = False
    refused_by_rule = False
    sang = False
    while True:
        i = child.expect([PROMPT, r"¿Cantas\? \(Enter = no\) ", pexpect.EOF])
        transcript.append(child.before or "")
        if i == 2:
            break
        if i == 1:
            child.sendline("")
            continue
        allowed, declarations, hand = _options(child.before or "")
        if not tried_before_a_win:
            tried_before_a_win = True
            child.sendline("zz")                             # not an action at all
            child.expect(PROMPT)
            assert "no es una jugada" in ANSI.sub("", child.before or "")
            child.sendline("20o")                            # before a won trick
            child.expect(PROMPT)
            assert re.search(r"no (puedes cantar|tienes rey)", ANSI.sub("", child.before or ""))
        forbidden = [n for n in hand if n not in allowed]
        if forbidden and not refused_by_rule:
            refused_by_rule = True
            child.sendline(forbidden[0])                     # a card the rules forbid now
            child.expect(PROMPT)
            said = ANSI.sub("", child.before or "")
            assert re.search(r"debes (asistir|montar|fallar|echar)", said), said
        sings = [d for d in declarations if d[:2] in ("20", "40")]
        if sings:
            child.sendline(sings[0])
            sang = True
            continue
        child.sendline(allowed[0])
    child.close()
    text = ANSI.sub("", "".join(transcript))
    assert child.exitstatus == 0, text[-2000:]
    assert refused_by_rule and sang
    return text


@pytest.mark.parametrize(("variant", "seed"), [("habanero", 0), ("parejas", 17)])
def test_a_whole_hand_through_a_pty(variant: str, seed: int, tmp_path: Path) -> None:
    text = _play_a_hand(variant, seed, tmp_path)
    # the player is told in the second person: "cantas", "la baza es tuya"
    assert re.search(r"\bcantas las (veinte|cuarenta)", text)
    assert "Tú canta" not in text and "para Tú" not in text and "Tú cantó" not in text
    assert not re.search(r"\b1 bazas\b|\b1 puntos\b", text)
    assert re.search(r"cartas \d+ .*\+ cantes \d+ = \d+", text)
    assert re.search(r"\b(gana|ganas|ganáis) la mano\b", text)
    saved = re.search(r"Partida guardada en: (\S+)", text)
    assert saved
    record = parse_record(Path(saved.group(1)).read_text(encoding="utf-8"))
    assert record.names[0] == "Tú" and str(record.variant) == variant


def test_play_without_a_terminal_and_leaving(tmp_path: Path) -> None:
    import subprocess
    r = subprocess.run([sys.executable, "-m", "tute.cli", "play", "--seed", "1", "--records",
                        str(tmp_path), "--lang", "en", "--bots", "pimc"], input="?\n1\nq\ny\n",
                       text=True,
                       capture_output=True, timeout=60)
    assert r.returncode == 0
    assert "\x1b[" not in r.stdout
    assert "Cantes (20, 40 in trumps)" in r.stdout and "Goodbye." in r.stdout
    prompt = "Your move (number, card, cante; ? rules, q quit): "
    assert "Leave the match? (y/n) " in r.stdout           # q asked before leaving
    for line in r.stdout.replace(prompt, "\n").replace("(y/n) ", "\n").splitlines():
        if not line.startswith("Record saved:"):         # a path as long as the folder's
            assert len(line) <= 80, line
    assert list(tmp_path.glob("*.tute"))


def _player(answers: list[str], names: tuple[str, ...] = ("Tú", "Ada")
            ) -> tuple[object, list[str]]:
    import io

    from tute.term.play import TerminalPlayer
    from tute.term.style import Style

    asked: list[str] = []

    def read(prompt: str) -> str:
        asked.append(prompt)
        return answers.pop(0)
    return TerminalPlayer(0, names, Style(False, "es"), io.StringIO(), read), asked


def test_40_and_20_are_cantes_when_offered_and_cambiar_is_the_swap() -> None:
    from helpers import deal, run
    from tute.core.actions import Play, SingForty, Swap

    # habanero, trumps oros (the turn-up 3o): seat 0 holds Ro Co (the 40), Rc Cc (a 20)
    # and the 7o (the swap); it wins the first trick and leads again
    g = deal("habanero", {0: "Ro Co Rc Cc 7o Ae Ab 2b", 1: "2c 4c 5c 6c 4e 5e 6e 7e"},
             turn_up="3o")
    run(g, "1:4e 0:Ae")
    view = g.view(0)
    assert {type(a) for a in view.legal} >= {SingForty, Swap}   # the 40 first: habanero
    player, _ = _player([])
    hand = list(view.hand)
    assert isinstance(player._parse("40", view, hand), SingForty)     # type: ignore[attr-defined]
    assert isinstance(player._parse("cambiar", view, hand), Swap)     # type: ignore[attr-defined]
    assert isinstance(player._parse("3", view, hand), Play)           # type: ignore[attr-defined]
    out = player.out                                                  # type: ignore[attr-defined]
    player._show(view)                                                # type: ignore[attr-defined]
    shown = out.getvalue()
    assert "cambiar" in shown and "cantar swap" not in shown and "swap" not in shown


def test_q_asks_before_leaving() -> None:
    from tute.term.play import Quit

    player, asked = _player(["q", "n", "Ao"])
    assert player._ask("> ") == ""                   # type: ignore[attr-defined]
    assert "Dejar la partida" in asked[-1]
    assert player._ask("> ") == "Ao"                 # type: ignore[attr-defined]
    player, _ = _player(["q", "s"])
    with pytest.raises(Quit):
        player._ask("> ")                            # type: ignore[attr-defined]


def test_q_through_a_pty_asks_and_then_leaves(tmp_path: Path) -> None:
    child = pexpect.spawn(sys.executable, ["-m", "tute.cli", "play", "--seed", "3",
                                           "--bots", "heuristic", "--records", str(tmp_path)],
                          encoding="utf-8", timeout=60, dimensions=(40, 80),
                          env={"TERM": "xterm", "PATH": "/usr/bin:/bin",
                               "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")})
    child.expect(PROMPT)
    child.sendline("q")
    child.expect(r"¿Dejar la partida\? \(s/n\) ")
    child.sendline("n")
    child.expect(PROMPT)                              # still playing
    child.sendline("q")
    child.expect(r"¿Dejar la partida\? \(s/n\) ")
    child.sendline("s")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_the_player_is_told_the_card_drawn_and_who_is_winning_the_trick(tmp_path: Path
                                                                         ) -> None:
    text = _play_a_hand("habanero", 0, tmp_path)
    assert re.search(r"robas (el|la) ", text)
    assert re.search(r"\(la llevas? (tú )?(\w+ )?con ", text)


def test_40_when_no_cante_is_allowed_is_explained_by_the_rules_not_as_a_card() -> None:
    from helpers import deal
    from tute.core.actions import SingForty, SingTwenty

    # habanero, trumps oros: seat 0 holds the 40 (Ro Co) and two twenties, but its side
    # has won no trick yet: nothing may be sung
    g = deal("habanero", {0: "Ro Co Rc Cc Re Ce Ab 2b", 1: "2c 4c 5c 6c 4e 5e 6e 7e"},
             turn_up="3o")
    view = g.view(0)
    assert not any(isinstance(a, (SingTwenty, SingForty)) for a in view.legal)
    player, _ = _player([])
    hand = list(view.hand)
    assert isinstance(player._parse("40", view, hand), SingForty)     # type: ignore[attr-defined]
    out = player.out                                                  # type: ignore[attr-defined]
    assert "no hay carta" not in out.getvalue()
    assert player._parse("20", view, hand) is None                    # type: ignore[attr-defined]
    assert "no hay carta" not in out.getvalue() and "20c" in out.getvalue()


def test_20_with_two_twenties_asks_which() -> None:
    from helpers import deal, run
    from tute.core.actions import SingTwenty

    g = deal("habanero", {0: "Rc Cc Re Ce 7o Ae Ab 2b", 1: "2c 4c 5c 6c 4e 5e 6e 7e"},
             turn_up="3o")
    run(g, "1:4e 0:Ae")
    view = g.view(0)
    assert sum(isinstance(a, SingTwenty) for a in view.legal) == 2
    player, _ = _player([])
    assert player._parse("20", view, list(view.hand)) is None        # type: ignore[attr-defined]
    shown = player.out.getvalue()                                     # type: ignore[attr-defined]
    assert "¿Qué veinte?" in shown and "20c" in shown and "20e" in shown


@pytest.mark.parametrize(("variant", "auction"), [("habanero", False), ("subastado", True)])
def test_the_rules_list_the_auction_commands_only_where_there_is_an_auction(
        variant: str, auction: bool) -> None:
    from tute.core.game import Game
    from tute.core.variants import Variant

    g = Game.new(Variant.parse(variant), seed=5)
    seat = g.to_act
    assert seat is not None
    view = g.view(seat)
    player, _ = _player(["?", str(view.legal[-1])], ("Tú", "Ada", "Bea", "Cai")[:g.players])
    player.seat = seat                                                # type: ignore[attr-defined]
    assert player.choose(view) == view.legal[-1]                      # type: ignore[attr-defined]
    shown = player.out.getvalue()                                     # type: ignore[attr-defined]
    assert ("subasta" in shown) is auction and ("paso" in shown) is auction
    assert "bid 70" not in shown and "swap" not in shown
    assert "0+2" not in shown


def test_a_replay_of_tute_play_tells_your_moves_in_the_second_person() -> None:
    """A record of ``tute play`` names the player "Tú": its replay says "cambias",
    "cantas", "ganas la mano" -- never "Tú cambia", "Tú canta", "gana la mano Tú"."""
    import io

    from helpers import deal, run
    from tute.core.records import record_of_games
    from tute.term.replay import print_replay
    from tute.term.style import Style

    g = deal("habanero", {0: "Ro Co Rc Cc 7o Ae Ab 2b", 1: "2c 4c 5c 6c 4e 5e 6e 7e"},
             turn_up="3o")
    run(g, "1:4e 0:Ae 0:40 0:swap")
    rng = __import__("random").Random(1)
    while not g.is_over:
        seat = g.to_act
        assert seat is not None
        g.apply(seat, rng.choice([a for a in g.legal_actions(seat)
                                  if type(a).__name__ == "Play"] or list(g.legal_actions(seat))))
    out = io.StringIO()
    print_replay(record_of_games([g], ("Tú", "Ada")), out, Style(False, "es"))
    text = out.getvalue()
    assert "cantas las cuarenta" in text and "cambias" in text, text
    for wrong in ("Tú canta", "Tú cambia", "gana la mano Tú", "Tú gana"):
        assert wrong not in text, wrong


def test_the_turn_up_is_shown_while_under_the_stock_or_in_a_hand_not_once_played() -> None:
    """Issue 29: the turn-up stayed on the trump line after it was drawn and played.  It
    is shown while under the stock, or while the hand that took it still holds it (known
    to all: parejas' dealer's last card), never once played."""
    from helpers import deal, run

    def trump_line(g: object, seat: int = 0) -> str:
        player, _ = _player([], ("Tú", "Ada", "Bruno", "Carmen"))
        player._show(g.view(seat))                                    # type: ignore[attr-defined]
        shown = player.out.getvalue()                                 # type: ignore[attr-defined]
        return str(next(x for x in shown.splitlines() if x.startswith("Triunfo")))

    g = deal("habanero", {0: "Ro Co Rc Cc 7o Ae Ab 2b", 1: "2c 4c 5c 6c 4e 5e 6e 7e"},
             turn_up="3o")
    assert "(3o), bajo un monte de" in trump_line(g)
    run(g, "1:4e 0:Ae 0:swap")                     # the 7o goes under the stock for it
    assert "(7o), bajo un monte de" in trump_line(g), trump_line(g)
    p = deal("parejas", {0: "5o", 1: "Ao", 2: "2o", 3: "4o"}, turn_up="5o")
    assert "(5o), en tu mano" in trump_line(p), trump_line(p)
    assert "(5o), en la mano de Tú" in trump_line(p, 1), trump_line(p, 1)
    run(p, "1:Ao 2:2o 3:4o 0:5o")                  # played: the suit is enough
    assert trump_line(p) == "Triunfo: oros ", trump_line(p)


def test_robots_that_search_are_made_ready_before_the_deal_with_a_word(tmp_path: Path
                                                                       ) -> None:
    """Issue 29: the first robot move after installing took a minute in silence (numba
    compiling the solver).  Robots that search warm it before the deal and say so;
    robots that do not, say nothing."""
    import io

    from tute.core.variants import parse_variant
    from tute.search import dds
    from tute.term.play import run_play
    from tute.term.style import Style

    for levels, told in ((["expert"], dds.AVAILABLE), (["random"], False)):
        out = io.StringIO()
        answers = iter(["q", "s"])

        def read(_prompt: str, said: Iterator[str] = answers) -> str:
            return next(said)
        run_play(parse_variant("habanero"), 0, levels, None, 7, Style(False, "es"), out,
                 read, tmp_path)
        text = out.getvalue()
        assert ("Los robots se preparan" in text) == told, (levels, text[:300])
        if told:                                          # before the first deal
            assert text.index("Los robots se preparan") < text.index("Triunfo")
