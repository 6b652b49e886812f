"""The chat's rules without a server: text only, limits, the flood rule, the filter."""

from __future__ import annotations

import pytest

from tute.server.social.chat import MAX_CHARS, ChatError, Flood, WordFilter, clean


def test_a_message_is_plain_text_on_one_line() -> None:
    assert clean("  <b>hola</b>\n\tqué tal  ") == "<b>hola</b> qué tal"   # kept as text
    assert clean("a\u202eb\u200bc\x00d") == "abcd"          # bidi, zero-width, controls
    assert clean("cafe\u0301") == "café"                    # one spelling (NFC)


@pytest.mark.parametrize("bad", ["", "   ", "\u202e\u200b", 12, None])
def test_an_empty_message_is_refused(bad: object) -> None:
    with pytest.raises(ChatError) as e:
        clean(bad)
    assert e.value.key == "chat_empty"


def test_a_long_message_is_refused_with_its_limit() -> None:
    clean("x" * MAX_CHARS)
    with pytest.raises(ChatError) as e:
        clean("x" * (MAX_CHARS + 1))
    assert e.value.key == "chat_too_long"
    assert str(MAX_CHARS) in e.value.localized("es")


@pytest.mark.parametrize("said", [
    "eres una puta", "PUTA", "put@", "p.u.t.a", "p u t a", "puuuuta", "Pútá",
    "\u0440uta",                    # a Cyrillic er for the p
    "ｐｕｔａ",                      # full-width letters
    "m1erda", "mi3rda!", "vete a la m-i-e-r-d-a", "gilipollas,", "fuck",
    "pvta", "putaputa", "pu ta", "eres una pu ta",             # the third attack
])
def test_the_filter_masks_the_words_however_spelt(said: str) -> None:
    masked = WordFilter("es").mask(said)
    assert masked != said and "*" in masked
    assert len(masked) == len(said)


@pytest.mark.parametrize("said", [
    "computadora", "disputa", "reputación", "Scunthorpe", "cazo de sopa",
    "putamadre no es una palabra sino dos",   # a run of letters is not a word
    "el as de oros", "tres de copas", "¡qué mano!", "vas a ver", "la vaca", "a la de tres",
    "juega con o sin robots", "si con o sin",
])
def test_the_filter_leaves_other_words(said: str) -> None:
    assert WordFilter("es").mask(said) == said


def test_each_language_has_its_words() -> None:
    assert WordFilter("it").mask("che cazzo") == "che *****"
    assert WordFilter("es").mask("che cazzo") == "che cazzo"     # no Spanish word
    assert WordFilter("pt").mask("caralho") == "*******"
    assert WordFilter("en").mask("bullshit") == "********"
    assert WordFilter("pt").mask("fuck") == "****"                # in every language


def test_the_flood_rule() -> None:
    now = [0.0]
    flood = Flood(clock=lambda: now[0])
    for i in range(4):
        flood.check("a1", f"mensaje {i}")
    with pytest.raises(ChatError) as e:
        flood.check("a1", "uno más")
    assert e.value.key == "chat_too_fast"
    flood.check("a2", "otra persona escribe")          # each person counts alone
    now[0] = 6.0
    flood.check("a1", "ya puedo")
    with pytest.raises(ChatError) as e:
        flood.check("a1", "YA PUEDO")                  # the same again, however written
    assert e.value.key == "chat_repeated"
    now[0] = 70.0
    flood.check("a1", "ya puedo")                      # a minute later: fine
    for i in range(14):                                # 15 a minute at most
        now[0] += 2.0
        flood.check("a1", f"frase {i}")
    now[0] += 2.0
    with pytest.raises(ChatError):
        flood.check("a1", "otra frase más")
