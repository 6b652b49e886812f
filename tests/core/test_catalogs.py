"""Text as data: one catalog per language (es, pt, it, en), keys grouped by layer, read
by Python and by the browser alike; every key in all four, with the same placeholders."""

from __future__ import annotations

import json
import re

import pytest

from tute.i18n import CATALOG, LANGS, MESSAGES, load_catalog, render

_PLACEHOLDER = re.compile(r"\{(\w+)(?:[:!][^{}]*)?\}")
_PLURAL = re.compile(r"\{(\w+), plural, one \{([^{}]*)\} other \{([^{}]*)\}\}")


def _names(text: str) -> set[str]:
    plurals = set(_PLURAL.findall(text))
    flat = _PLURAL.sub(lambda m: "", text)
    return {m for m in _PLACEHOLDER.findall(flat)} | {p[0] for p in plurals}


def test_every_language_has_every_key_in_the_same_layer() -> None:
    layers = {lang: load_catalog(lang) for lang in LANGS}
    shape = {layer: set(texts) for layer, texts in layers["es"].items()}
    for lang in LANGS:
        assert {layer: set(texts) for layer, texts in layers[lang].items()} == shape, lang
    keys = [k for texts in layers["es"].values() for k in texts]
    assert len(keys) == len(set(keys)), "a key in two layers"
    assert set(MESSAGES) == set(keys)


def test_placeholders_match_in_every_language() -> None:
    wrong = []
    for key, texts in MESSAGES.items():
        want = _names(texts["en"])
        for lang in LANGS:
            if _names(texts[lang]) != want:
                wrong.append(f"{key} [{lang}]: {_names(texts[lang])} != {want}")
    assert not wrong, wrong[:10]


def test_the_files_are_the_catalogs_python_reads() -> None:
    for lang in LANGS:
        data = json.loads((CATALOG / f"{lang}.json").read_text(encoding="utf-8"))
        assert data["_meta"]["language"] == lang
        assert {k for t in data.values() for k in t if not k.startswith("language")} \
            >= set(load_catalog(lang)["web"])


@pytest.mark.parametrize(("lang", "one", "many"), [
    ("es", "1 baza, 1 punto", "2 bazas, 30 puntos"),
    ("pt", "1 vaza, 1 ponto", "2 vazas, 30 pontos"),
    ("it", "1 presa, 1 punto", "2 prese, 30 punti"),
    ("en", "1 trick, 1 point", "2 tricks, 30 points"),
])
def test_plural_forms(lang: str, one: str, many: str) -> None:
    assert render("play_side_status", {"side": "X", "tricks": 1, "points": 1}, lang) \
        == f"X: {one}"
    assert render("play_side_status", {"side": "X", "tricks": 2, "points": 30}, lang) \
        == f"X: {many}"


def test_spanish_speaks_to_the_player_in_the_second_person() -> None:
    assert render("term_sings_forty_you", {"cards": "R C"}, "es") == "cantas las cuarenta (R C)"
    assert render("play_trick_won_you", {}, "es") == "-> la baza es tuya"
    for key, texts in MESSAGES.items():
        assert "Tú canta" not in texts["es"] and "para Tú" not in texts["es"], key
