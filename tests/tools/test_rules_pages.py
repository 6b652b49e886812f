"""The rules of every game in the project's own words: one page a preset, the same text
in ``docs/rules/``, the browser's help page and ``tute rules``, every option shown with
its value and the values a house rule may give it."""

from __future__ import annotations

import subprocess
import sys
from html import escape
from pathlib import Path

import pytest

from tute.core.variants import PRESETS, format_value, parse_variant, preset_variant
from tute.i18n import LANGS, render
from tute.server.site.help import help_page
from tute.tools.rules_pages import doc_files, page_markdown, rules_page
from tute.tools.rules_text import rules_summary

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"


def test_the_docs_rules_pages_are_the_engines_own() -> None:
    """docs/rules/ holds exactly what the generator writes: regenerate it with
    ``python -m tute.tools.rules_pages docs/rules`` after changing a rule's words."""
    want = doc_files()
    have = {str(p.relative_to(DOCS)): p.read_text(encoding="utf-8")
            for p in DOCS.rglob("*.md")}
    assert set(have) == set(want)
    stale = [name for name, text in want.items() if have[name] != text]
    assert not stale, f"stale: {stale}; run python -m tute.tools.rules_pages docs/rules"


@pytest.mark.parametrize("lang", LANGS)
def test_every_preset_and_player_count_has_a_whole_page(lang: str) -> None:
    for name, preset in PRESETS.items():
        for players in preset.players:
            v = preset_variant(name, players)
            page = rules_page(v, lang)
            texts = [page.title, page.intro, page.order, page.points, *page.rules,
                     *(o.meaning for o in page.options), *(o.others for o in page.options)]
            for text in texts:
                assert text and "rules_" not in text and "web_" not in text, (name, text)
            assert [o.name for o in page.options] == list(v.options())
            for o in page.options:             # the value shown is the engine's
                assert o.value == format_value(getattr(v, o.name)), (name, o.name)
                assert f"`{o.value}`" not in o.others, (name, o.name)   # not twice
            assert list(page.rules) == rules_summary(v, lang, render(f"web_preset_{name}", {}, lang))
            others = {c.players for c in page.counts}
            if players == preset.default_players:
                assert others == set(preset.players) - {players}
            for count in page.counts:          # the options that change with the count
                other = preset_variant(name, count.players)
                assert dict(count.changes) == {
                    k: format_value(x) for k, x in other.options().items()
                    if k != "players" and getattr(v, k) != x}


def test_a_house_rule_changes_the_page() -> None:
    plain = rules_page(parse_variant("parejas"), "en")
    house = rules_page(parse_variant("parejas(must_undertrump=true,double_game_at=101)"),
                       "en")
    assert plain.text == "parejas" and house.text.startswith("parejas(")
    row = {o.name: o for o in house.options}
    assert row["must_undertrump"].value == "true" and row["double_game_at"].value == "101"
    assert "If you cannot overtrump you must still play a trump." in house.rules
    assert "A hand won with 101 points or more counts as two." in house.rules
    assert not any("overtrump you must" in r for r in plain.rules)
    assert house.counts == ()                # a house rule's page is for its own table


@pytest.mark.parametrize("lang", LANGS)
def test_the_help_page_shows_the_same_text(lang: str) -> None:
    for name in PRESETS:
        v = preset_variant(name)
        page = rules_page(v, lang)
        html = help_page(v, lang)
        md = page_markdown(page)
        for text in (page.intro, page.order, page.points, *page.rules,
                     *(o.meaning for o in page.options)):
            assert text in md
            assert escape(text) in html, (name, text)
        for count in page.counts:
            assert escape(count.text) in html


def test_tute_rules_prints_a_page_and_refuses_a_bad_game() -> None:
    run = [sys.executable, "-m", "tute.cli", "rules"]
    done = subprocess.run([*run, "guinote", "--lang", "en"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0
    assert "the marriage is the rey with the sota" in done.stdout
    assert "| `ranking` | `guinote` | `tute` |" in done.stdout and "<!--" not in done.stdout
    done = subprocess.run([*run], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "subastado.md" in done.stdout
    done = subprocess.run([*run, "parejas(players=5)", "--lang", "en"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and "parejas" in done.stderr and not done.stdout
