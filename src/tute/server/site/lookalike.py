"""Letters that look like others, and letters that show nothing.

Names and chat compare text by what a reader sees: a Cyrillic ``а`` or a Greek ``Α`` is an
``a`` (Unicode's confusables, for the letters that pass for Latin ones), a small capital
``ᴘ`` is a ``p``; and a few "letters" draw nothing at all (Hangul fillers, the blank
Braille pattern...): a name or a message may not hide behind them.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

# letters that draw nothing (categories Lo, So, Mn...), removed from messages and names
INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e\u17b4\u17b5\u034f\u2061\u2062"
                      "\u2063\u2064\u1cbc\u1cbd\U000e0001")

_LOOKS: dict[str, str] = {}
for _latin, _others in {
    "a": "АаΑαɑ", "b": "ВвΒβ", "c": "Сс", "d": "Ԁԁ", "e": "ЕеЁёΕε", "g": "ɡ",
    "h": "НнΗҺһ", "i": "ІіΙιıɩӀ", "j": "Јјȷ", "k": "КкΚκ", "m": "МмΜ", "n": "ΝηП",
    "o": "ОоΟοσ", "p": "РрΡρ", "q": "ԛ", "s": "Ѕѕ", "t": "ТтΤτ", "u": "υμʋ",
    "v": "ν", "w": "ԝω", "x": "ХхΧχ", "y": "УуΥүҮ", "z": "Ζ",
}.items():
    for _ch in _others:
        _LOOKS[_ch] = _latin
_SMALL_CAPITAL = re.compile(r"LATIN LETTER SMALL CAPITAL ([A-Z])")


@cache
def _letter(ch: str) -> str:
    if ch in _LOOKS:
        return _LOOKS[ch]
    found = _SMALL_CAPITAL.fullmatch(unicodedata.name(ch, ""))
    if found:
        return found.group(1).lower()
    return ch


def latin(text: str) -> str:
    """``text`` with each look-alike of a Latin letter written as that letter (lower
    case); every other character as it was."""
    return "".join(_letter(ch) for ch in text)


def visible(text: str) -> str:
    """``text`` without the letters that draw nothing."""
    return "".join(ch for ch in text if ch not in INVISIBLE)


# Cyrillic letters as they sound (a writer may spell "N" with Н, en, which looks like H)
_SOUNDS = str.maketrans({
    "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ё": "e", "ж": "zh",
    "з": "z", "и": "i", "й": "i", "к": "k", "л": "l", "м": "m", "н": "n", "о": "o",
    "п": "p", "р": "r", "с": "s", "т": "t", "у": "u", "ф": "f", "х": "h", "ц": "ts",
    "ч": "ch", "ш": "sh", "щ": "sh", "ы": "y", "э": "e", "ю": "yu", "я": "ya",
})


def sounded(text: str) -> str:
    """``text`` lower-cased with Cyrillic letters written as they sound."""
    return text.casefold().translate(_SOUNDS)
