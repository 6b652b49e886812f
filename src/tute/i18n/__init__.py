"""Player-facing text in Spanish (first), Portuguese, Italian and English.

Messages are templates keyed by name; parameters named ``card*`` hold card codes and
``suit`` a suit (index, letter or :class:`~tute.core.cards.Suit`): both are rendered as words
of the language.  This package is a leaf: it imports nothing of tute, so every layer
(the core's errors too) may render through it.  A key missing in a language falls back to English, then to the key.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Final

LANGS: Final = ("es", "pt", "it", "en")
SUIT_LETTERS: Final = "oceb"          # the canonical suit letters, in suit order

SUIT_NAMES: Final[dict[str, tuple[str, str, str, str]]] = {
    "es": ("oros", "copas", "espadas", "bastos"),
    "pt": ("ouros", "copas", "espadas", "bastos"),
    "it": ("ori", "coppe", "spade", "bastoni"),
    "en": ("oros", "copas", "espadas", "bastos"),
}
_RANK_WORDS: Final[dict[str, dict[str, str]]] = {      # by the canonical rank letter
    "es": {"A": "el as", "S": "la sota", "C": "el caballo", "R": "el rey"},
    "pt": {"A": "o ás", "S": "a sota", "C": "o cavalo", "R": "o rei"},
    "it": {"A": "l'asso", "S": "il fante", "C": "il cavallo", "R": "il re"},
    "en": {"A": "the As", "S": "the Sota", "C": "the Caballo", "R": "the Rey"},
}
_NUMBER_ARTICLE: Final = {"es": "el", "pt": "o", "it": "il", "en": "the"}
_OF: Final = {"es": "de", "pt": "de", "it": "di", "en": "of"}
_CODE: Final = re.compile(r"(A|[2-9]|S|C|R)([oceb])")


def suit_name(suit: object, lang: str = "es") -> str:
    """A suit (its index, its letter, or a ``Suit``) as a word of ``lang``."""
    names = SUIT_NAMES.get(lang, SUIT_NAMES["en"])
    letter = getattr(suit, "value", suit)            # a Suit is an Enum of its letter
    if isinstance(letter, int) and not isinstance(letter, bool) and 0 <= letter < 4:
        return names[letter]
    if isinstance(letter, str) and len(letter) == 1 and letter in SUIT_LETTERS:
        return names[SUIT_LETTERS.index(letter)]
    return str(suit)


def card_name(code: str, lang: str = "es") -> str:
    """``3c`` -> "el 3 de copas" (es), "the 3 of copas" (en); anything that is not a
    canonical card code is returned as it is."""
    m = _CODE.fullmatch(code)
    if m is None:
        return code
    rank, suit = m.groups()
    words = _RANK_WORDS.get(lang, _RANK_WORDS["en"])
    said = words.get(rank) or f"{_NUMBER_ARTICLE.get(lang, 'the')} {rank}"
    return f"{said} {_OF.get(lang, 'of')} {suit_name(suit, lang)}"


CATALOG: Final = Path(__file__).parent / "catalog"    # one file per language: es.json...
_PLURAL: Final = re.compile(r"\{(\w+), plural, one \{([^{}]*)\} other \{([^{}]*)\}\}")


def load_catalog(lang: str) -> dict[str, dict[str, str]]:
    """A language's catalog as its layers (``core``, ``term``, ``server``, ``web``...),
    each of keys and texts -- what the browser is sent too."""
    data: dict[str, dict[str, str]] = json.loads(
        (CATALOG / f"{lang}.json").read_text(encoding="utf-8"))
    return {layer: texts for layer, texts in data.items() if not layer.startswith("_")}


def _messages() -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for lang in LANGS:
        for texts in load_catalog(lang).values():
            for key, text in texts.items():
                out.setdefault(key, {})[lang] = text
    return out


MESSAGES: Final[dict[str, dict[str, str]]] = _messages()   # key -> language -> text


def plural(template: str, params: Mapping[str, object]) -> str:
    """ICU's plural, the part of it these catalogs use:
    ``{tricks, plural, one {# baza} other {# bazas}}`` (``#``: the number)."""
    def choose(m: re.Match[str]) -> str:
        value = params.get(m.group(1))
        one = isinstance(value, int) and not isinstance(value, bool) and value == 1
        return (m.group(2) if one else m.group(3)).replace("#", str(value))
    return _PLURAL.sub(choose, template)


# a preposition before an article, as the language writes it: "en vez del as", not "en
# vez de el as" -- where a parameter (a card's name, "el as de oros") begins with the
# article after a preposition of the message; the page does the same with the same
# table (static/i18n.js)
_IT_ARTICLES: Final = {"il": "l", "lo": "llo", "la": "lla", "i": "i", "gli": "gli",
                       "le": "lle", "l'": "ll'"}
CONTRACTIONS: Final[dict[str, dict[str, str]]] = {
    "es": {"de el": "del", "a el": "al"},
    "pt": {f"{p} {a}": f"{stem}{a}" for p, stem in (("de", "d"), ("em", "n"), ("por", "pel"))
           for a in ("o", "a", "os", "as")},
    "it": {f"{p} {a}": f"{stem}{end}"
           for p, stem in (("di", "de"), ("a", "a"), ("da", "da"), ("in", "ne"), ("su", "su"))
           for a, end in _IT_ARTICLES.items()},
}
_JOIN: Final = "\x00"           # where a parameter begins, while a message is made
_JOINING: Final = {
    lang: re.compile(r"(?<![\w'])(" + "|".join(
        re.escape(k.replace(" ", " " + _JOIN)) + ("" if k.endswith("'") else r"(?![\w'])")
        for k in sorted(table, key=len, reverse=True)) + ")")
    for lang, table in CONTRACTIONS.items()}


def contract(text: str, lang: str) -> str:
    """``text`` with a preposition and the article that begins a parameter after it
    (marked by ``_JOIN``) joined as ``lang`` writes them, and the marks taken out."""
    pattern = _JOINING.get(lang)
    if pattern is not None and _JOIN in text:
        table = CONTRACTIONS[lang]
        text = pattern.sub(lambda m: table[m.group(1).replace(_JOIN, "")], text)
    return text.replace(_JOIN, "")


def render(key: str, params: Mapping[str, object], lang: str = "en") -> str:
    """The message ``key`` in ``lang`` with its parameters filled in (English where the
    language lacks it, the key where every language does); a parameter that is itself a
    message (an error: it has ``localized``) is said in ``lang`` too."""
    texts = MESSAGES.get(key)
    if texts is None:
        return key if not params else f"{key}: {dict(params)}"
    template = texts.get(lang) or texts.get("en") or key
    if "plural," in template:
        template = plural(template, params)
    words: dict[str, object] = {}
    for name, value in params.items():
        if name.startswith("card") and isinstance(value, str):
            words[name] = card_name(value, lang)
        elif name == "suit":
            words[name] = suit_name(value, lang)
        elif name == "which" and f"tute_set_{value}" in MESSAGES:    # a tute's cards
            words[name] = render(f"tute_set_{value}", {}, lang)
        elif callable(say := getattr(value, "localized", None)):   # an error, in lang too
            words[name] = say(lang)
        else:
            words[name] = value
    if lang in CONTRACTIONS:                      # where a parameter begins
        words = {k: f"{_JOIN}{w}" if isinstance(w, str) else w for k, w in words.items()}
    try:
        return contract(template.format(**words), lang)
    except (KeyError, IndexError, ValueError):
        return template
