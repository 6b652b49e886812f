"""Messages that agree with what they say (issue 46): a pair wins in the plural ("Ana +
Lucía ganan", "Ada + Carmen win"), one person in the singular, "you" in the second
person; a preposition joins the article of a card's name after it ("en vez del as",
"em vez do ás", "invece dell'asso"); a count of 1 is singular ("1 Swiss round")."""

from __future__ import annotations

from pathlib import Path

import pytest

from tute.cli import main as cli
from tute.core.variants import preset_variant
from tute.i18n import LANGS, render
from tute.term.narrate import said_of_side
from tute.term.style import Style

PAIR = {"es": "ganan", "pt": "ganham", "it": "vincono", "en": "win"}
ONE = {"es": "gana", "pt": "ganha", "it": "vince", "en": "wins"}
US = {"es": "ganáis", "pt": "ganham", "it": "vincete", "en": "your side wins"}
KEYS = ("term_tute_wins", "term_hand_winner", "play_match_winner")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("key", KEYS)
def test_a_pair_wins_in_the_plural_one_person_in_the_singular(lang: str, key: str) -> None:
    style = Style(False, lang)
    pairs, alone = preset_variant("parejas", 4), preset_variant("habanero", 2)
    pair = said_of_side(style, key, pairs, 1, 0, side="Ada + Carmen").lower()
    assert "ada + carmen" in pair and f"{PAIR[lang]} " in f"{pair} ", pair
    assert f"{ONE[lang]} " not in f"{pair} " or lang == "pt", pair    # "ganham", not "ganha"
    one = said_of_side(style, key, alone, 1, 0, side="Ada").lower()
    assert f"{ONE[lang]} " in f"{one} ", one
    us = said_of_side(style, key, pairs, 0, 2, side="Ana + Lucía").lower()
    assert US[lang] in us, us


@pytest.mark.parametrize(("lang", "played", "best", "said"), [
    ("es", "7o", "Ao", "el 7 de oros en vez del as de oros"),
    ("pt", "7o", "Ao", "o 7 de ouros em vez do ás de ouros"),
    ("it", "7o", "Ao", "il 7 di ori invece dell'asso di ori"),
    ("it", "7o", "Ro", "il 7 di ori invece del re di ori"),
    ("en", "7o", "Ao", "instead of the As of oros"),
    ("es", "7o", "40", "el 7 de oros en vez de las cuarenta"),
    ("pt", "7o", "Se", "o 7 de ouros em vez da sota de espadas"),
])
def test_a_preposition_joins_the_article_of_a_cards_name(lang: str, played: str, best: str,
                                                         said: str) -> None:
    from tute.analysis.text import action_words

    line = render("analysis_worst", {"hand": 1, "trick": 2,
                                     "played": action_words(played, lang),
                                     "best": action_words(best, lang), "lost": "3"}, lang)
    assert said in line, line
    assert "\x00" not in line
    # the catalog's own words stay as written ("antes de o seu lado ganhar")
    assert render("sing_before_win", {}, "pt") == \
        "não pode cantar antes de o seu lado ganhar uma vaza"


@pytest.mark.parametrize(("argv", "said"), [
    (["--rounds", "1"], "1 Swiss round of"), (["--rounds", "2"], "2 Swiss rounds of"),
    (["--minutes", "1"], "an arena of 1 minute of"),
    (["--minutes", "2"], "an arena of 2 minutes of")])
def test_a_tournament_of_one_round_is_said_in_the_singular(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    db = f"sqlite:///{tmp_path / 'db.sqlite'}"
    assert cli(["admin", "tourney", "new", "--db", db, *argv]) == 0
    out = capsys.readouterr().out
    assert said in out, out
