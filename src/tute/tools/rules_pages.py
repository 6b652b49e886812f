"""A game's whole rules page, in the project's own words and in four languages.

One source for three readers: the browser's help page (``/help/{variant}``), the pages
under ``docs/rules/`` (written by ``python -m tute.tools.rules_pages docs/rules``, checked
equal by a test) and ``tute rules VARIANT``.  Every sentence comes from the catalogs and
every fact from the variant itself -- the rules in force (:func:`rules_summary`), the
order and points of the cards (the core's tables) and every option with its value, the
values it may take instead (house rules) and what it sets -- so no page can disagree
with the engine.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from tute.core.cards import Rank, deck
from tute.core.tables import rank_order, rank_points
from tute.core.variants import (
    PRESETS,
    OptionValue,
    Variant,
    format_value,
    make_variant,
    option_choices,
    option_may_be_none,
    option_minimum,
    preset_variant,
)
from tute.i18n import render
from tute.tools.rules_text import rules_summary

DOC_LANGS = ("en", "es")           # the languages of docs/rules/ (the page has all four)


@dataclass(frozen=True, slots=True)
class OptionRow:
    """One option of a game: its name, its value here, the values it may take instead
    (as the variant text writes them) and what it sets, in words."""

    name: str
    value: str
    others: str
    meaning: str


@dataclass(frozen=True, slots=True)
class PlayerCount:
    """The same game for another number of players: its text and the options that
    change with the count."""

    players: int
    text: str
    changes: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class RulesPage:
    """Everything a rules page says, in one language, ready to be laid out."""

    lang: str
    title: str
    text: str                       # the variant as written: ``parejas``, ``tres(...)``
    intro: str
    order: str
    points: str
    rules: tuple[str, ...]
    options: tuple[OptionRow, ...]
    how: str                        # how options are written, with a house rule as example
    counts: tuple[PlayerCount, ...]


def _others(name: str, value: OptionValue, lang: str) -> str:
    if name == "deck":                                        # 40, or 36 without the 2s
        return "`36`" if value == 40 else "`40`"
    choices = option_choices(name)
    if choices:
        return ", ".join(f"`{c}`" for c in choices if c != format_value(value)) or "—"
    minimum = option_minimum(name)
    said = render("rules_page_number_from", {"min": minimum}, lang)
    if option_may_be_none(name) and value is not None:
        said += " " + render("rules_page_or_none", {}, lang)
    return said


def _counts(v: Variant) -> tuple[PlayerCount, ...]:
    out = []
    for n in PRESETS[v.preset].players:
        if n == v.players:
            continue
        other = preset_variant(v.preset, n)
        changes = tuple((name, format_value(value)) for name, value in other.options().items()
                        if name != "players" and getattr(v, name) != value)
        out.append(PlayerCount(n, str(make_variant(v.preset, {"players": n})), changes))
    return tuple(out)


def rules_page(v: Variant, lang: str = "es") -> RulesPage:
    """The rules page of ``v`` in ``lang`` (es, pt, it, en)."""
    def t(key: str, **params: object) -> str:
        return render(key, params, lang)

    in_deck = {c.rank for c in deck(v.deck)}
    order = [r for r in rank_order(v.ranking)[::-1] if Rank(r) in in_deck]
    words = [t(f"web_rank_word_{r}") for r in order]
    points = [f"{t(f'web_rank_word_{r}')} {rank_points(Rank(r), v.ranking)}"
              for r in order if rank_points(Rank(r), v.ranking)]
    game = t(f"web_preset_{v.preset}")
    options = tuple(
        OptionRow(name, format_value(value), _others(name, value, lang), t(f"rules_opt_{name}"))
        for name, value in v.options().items())
    return RulesPage(
        lang=lang, title=t("web_help_title", game=game, players=v.players), text=str(v),
        intro=t(f"rules_intro_{v.preset}"),
        order=t("rules_page_order", order=", ".join(words)),
        points=t("rules_page_points", points=", ".join(points)),
        rules=tuple(rules_summary(v, lang, game)), options=options,
        how=t("rules_page_options_how", variant=f"`{v}`",
              example=f"`{house_rule_example(str(v), options)}`"),
        counts=_counts(v) if not v.changed_options() else ())


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def page_markdown(page: RulesPage) -> str:
    """The page as Markdown (the files of ``docs/rules/``)."""
    def t(key: str, **params: object) -> str:
        return render(key, params, page.lang)

    lines = [f"# {page.title}", "", f"<!-- {t('rules_page_generated')} -->", "",
             page.intro, "", f"## {t('rules_page_cards')}", "", page.order, "", page.points,
             "", f"## {t('rules_page_play')}", ""]
    lines += [f"- {rule}" for rule in page.rules]
    lines += ["", f"## {t('rules_page_options')}", "",
              page.how,
              "", "| " + " | ".join(t(f"rules_page_col_{c}")
                                    for c in ("option", "here", "others", "meaning")) + " |",
              "|---|---|---|---|"]
    lines += [f"| `{o.name}` | `{o.value}` | {_cell(o.others)} | {_cell(o.meaning)} |"
              for o in page.options]
    for count in page.counts:
        lines += ["", f"## {t('rules_page_players_title', players=count.players)}", "",
                  t("rules_page_players_text", variant=f"`{count.text}`")]
        if count.changes:
            lines += [""] + [f"- `{name}`: `{value}`" for name, value in count.changes]
    return "\n".join(lines) + "\n"


def house_rule_example(text: str, options: tuple[OptionRow, ...]) -> str:
    """A house rule to show how options are written, for the variant written ``text``:
    its first switch that is off, turned on."""
    for o in options:
        if o.value == "false":
            base = text.rstrip(")")
            sep = "," if "(" in text else "("
            return f"{base}{sep}{o.name}=true)"
    return text


def preset_pages(lang: str) -> dict[str, str]:
    """Each preset's page (its default number of players) as Markdown, by file name."""
    return {f"{name}.md": page_markdown(rules_page(preset_variant(name), lang))
            for name in PRESETS}


def index_markdown(lang: str) -> str:
    """The list of the presets' pages."""
    lines = [f"# {render('rules_page_index_title', {}, lang)}", "",
             render("rules_page_index_text", {}, lang), ""]
    for name in PRESETS:
        v = preset_variant(name)
        game = render(f"web_preset_{name}", {}, lang)
        players = ", ".join(str(n) for n in PRESETS[name].players)
        lines.append(f"- [{game}]({name}.md) (`{name}`): "
                     + render("rules_page_index_players", {"players": players}, lang)
                     + " — " + render(f"rules_intro_{v.preset}", {}, lang)
                     .split(". ")[0].rstrip(".") + ".")
    return "\n".join(lines) + "\n"


def doc_files() -> dict[str, str]:
    """Every file of ``docs/rules/``, by its path under that folder."""
    out: dict[str, str] = {}
    for lang in DOC_LANGS:
        out[f"{lang}/index.md"] = index_markdown(lang)
        for name, text in preset_pages(lang).items():
            out[f"{lang}/{name}"] = text
    return out


def write_docs(folder: Path) -> list[Path]:
    """Write :func:`doc_files` under ``folder``; the paths written."""
    written = []
    for rel, text in doc_files().items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":                                   # pragma: no cover
    for p in write_docs(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/rules")):
        print(p)
