"""The help page of a variant: its rules in force, in the page's language.

``GET /help/{variant}?lang=es`` -- the variant's text as the lobby offers it (a preset
and its options).  Every word comes from the catalogs and every rule from the variant
itself (:func:`tute.tools.rules_text.rules_summary`), so the page cannot disagree with
the engine; all text is escaped.
"""

from __future__ import annotations

from html import escape

from tute.core.cards import Rank, deck
from tute.core.tables import rank_order, rank_points
from tute.core.variants import Variant
from tute.i18n import render
from tute.tools.rules_text import rules_summary


def help_page(v: Variant, lang: str) -> str:
    def t(key: str, **params: object) -> str:
        return escape(render(key, params, lang))

    order = [r for r in rank_order(v.ranking)[::-1]    # the strongest first
             if Rank(r) in {c.rank for c in deck(v.deck)}]
    ranks = [render(f"web_rank_word_{r}", {}, lang) for r in order]
    points = [f"{render(f'web_rank_word_{r}', {}, lang)} {rank_points(Rank(r), v.ranking)}"
              for r in order if rank_points(Rank(r), v.ranking)]
    game = render(f"web_preset_{v.preset}", {}, lang)
    rules = "".join(f"<li>{escape(line)}</li>" for line in rules_summary(v, lang, game))
    title = t("web_help_title", game=game, players=v.players)
    return (
        f'<!doctype html><html lang="{escape(lang)}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{title}</title><link rel="stylesheet" href="/static/style.css"></head>'
        f'<body class="help"><header><h1>{title}</h1>'
        f'<a class="button" href="/">{t("web_help_back")}</a></header><main>'
        f'<h2>{t("web_help_cards_title")}</h2>'
        f'<p>{t("web_help_order", order=", ".join(ranks))}</p>'
        f'<p>{t("web_help_points", points=", ".join(points))}</p>'
        f'<h2>{t("web_help_rules_title")}</h2><ul class="rules">{rules}</ul>'
        "</main></body></html>")
