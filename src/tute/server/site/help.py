"""The help page of a variant: its whole rules page, in the page's language.

``GET /help/{variant}?lang=es`` -- the variant's text as the lobby offers it (a preset
and its options).  The page lays out :func:`tute.tools.rules_pages.rules_page`, the
same text as ``docs/rules/`` and ``tute rules``: every word from the catalogs, every
rule from the variant itself, so the page cannot disagree with the engine; all text is
escaped before the catalogs' `code` spans become ``<code>``.
"""

from __future__ import annotations

import re
from html import escape

from tute.core.variants import Variant
from tute.i18n import render
from tute.tools.rules_pages import rules_page

_CODE = re.compile(r"`([^`<>]+)`")


def _html(text: str) -> str:
    """Escaped text with `code` spans as ``<code>`` (escaped first: no markup passes)."""
    return _CODE.sub(r"<code>\1</code>", escape(text))


def help_page(v: Variant, lang: str) -> str:
    def t(key: str, **params: object) -> str:
        return render(key, params, lang)

    page = rules_page(v, lang)
    rules = "".join(f"<li>{_html(line)}</li>" for line in page.rules)
    cols = [escape(t(f"rules_page_col_{c}"), quote=True)
            for c in ("option", "here", "others", "meaning")]
    head = "".join(f"<th>{c}</th>" for c in cols)
    rows = "".join(                       # data-label: a phone shows each row as a card
        f'<tr><td data-label="{cols[0]}"><code>{escape(o.name)}</code></td>'
        f'<td data-label="{cols[1]}"><code>{escape(o.value)}</code></td>'
        f'<td data-label="{cols[2]}">{_html(o.others)}</td>'
        f'<td data-label="{cols[3]}">{_html(o.meaning)}</td></tr>' for o in page.options)
    counts = "".join(
        f"<h2>{_html(t('rules_page_players_title', players=c.players))}</h2>"
        f"<p>{_html(t('rules_page_players_text', variant=f'`{c.text}`'))}</p>"
        + "<ul>" + "".join(f"<li><code>{escape(n)}</code>: <code>{escape(x)}</code></li>"
                           for n, x in c.changes) + "</ul>"
        for c in page.counts)
    title = escape(page.title)
    return (
        f'<!doctype html><html lang="{escape(lang)}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{title}</title><link rel="stylesheet" href="/static/style.css"></head>'
        f'<body class="help"><header><h1>{title}</h1>'
        f'<a class="button" href="/">{escape(t("web_help_back"))}</a></header><main>'
        f'<p class="intro">{_html(page.intro)}</p>'
        f'<h2>{_html(t("rules_page_cards"))}</h2>'
        f'<p>{_html(page.order)}</p><p>{_html(page.points)}</p>'
        f'<h2>{_html(t("rules_page_play"))}</h2><ul class="rules">{rules}</ul>'
        f'<h2>{_html(t("rules_page_options"))}</h2><p>{_html(page.how)}</p>'
        f'<div class="options-table"><table class="options"><thead><tr>{head}</tr></thead>'
        f'<tbody>{rows}</tbody></table></div>{counts}'
        "</main></body></html>")
