"""Player names: what a person may be called at a table.

A name is checked on the server before it is stored or sent (the page shows it as text
whatever it holds, but a name is also read by other players): NFC, 1 to 20 characters
of letters (with their combining accents), digits, spaces and ``- _ . '``; no control,
bidi or zero-width character; not ending in the robots' marker; unique at a table
(compared without case or width, look-alike letters of other alphabets read as Latin:
"ANA", "ａｎａ" and "Аna" with a Cyrillic А are Ana).
"""

from __future__ import annotations

import unicodedata

from tute.core.errors import TuteError
from tute.server.site.lookalike import INVISIBLE, latin

MAX_LENGTH = 20
ROBOT_MARKER = "robot"            # robots are "Ada (robot)": no person ends in it
BOT_SUFFIX = " (bot)"             # a bot account's seats are "Eve (bot)" (site.bots)
_PUNCTUATION = frozenset(" -_.'")
_MAX_MARKS = 2                    # combining marks on one letter (no "zalgo" towers)


class InvalidNameError(TuteError):
    """A player name that may not be used; the message says which rule it breaks."""


def validate_name(raw: object) -> str:
    """The name as it will be stored and shown, or an :class:`InvalidNameError`."""
    if not isinstance(raw, str):
        raise InvalidNameError("name_needed")
    if len(raw) > 4 * MAX_LENGTH:                   # before any work on a long text
        raise InvalidNameError("name_too_long", limit=MAX_LENGTH)
    name = " ".join(unicodedata.normalize("NFC", raw).split(" "))
    name = " ".join(part for part in name.split(" ") if part)   # one space between words
    if not name:
        raise InvalidNameError("name_needed")
    if len(name) > MAX_LENGTH:
        raise InvalidNameError("name_too_long", limit=MAX_LENGTH)
    marks = 0
    previous = ""
    for ch in name:
        category = unicodedata.category(ch)
        if category[0] == "M":                      # a combining accent: on a letter only
            marks += 1
            if not previous.isalpha() or marks > _MAX_MARKS:
                raise InvalidNameError("name_bad_character", char=_shown(ch))
            continue
        marks = 0
        if ch in INVISIBLE or not (category[0] == "L" or category == "Nd"
                                   or ch in _PUNCTUATION):
            raise InvalidNameError("name_bad_character", char=_shown(ch))
        previous = ch
    if name_key(name).endswith(ROBOT_MARKER):
        raise InvalidNameError("name_reserved")
    return name


def name_key(name: str) -> str:
    """What two names are compared by (unique at a table and among accounts): no case,
    no width, and a look-alike letter of another alphabet read as the Latin one ("Аna"
    with a Cyrillic А is Ana)."""
    return latin(unicodedata.normalize("NFKC", name).casefold()).replace(" ", "")


def name_skeleton(name: str) -> str:
    """What two names are told apart by at all: :func:`name_key` without the signs
    ``- _ . '`` ("Ana.", "A.na" and "A-na" are Ana: no one may take a name that reads as
    another's)."""
    return "".join(ch for ch in name_key(name) if ch not in _PUNCTUATION)


def _shown(ch: str) -> str:
    """A refused character as a player can read it in the message."""
    if ch.isprintable() and not ch.isspace():
        return ch
    return f"U+{ord(ch):04X}"


def seat_name(raw: object, bot: bool = False) -> str:
    """The name a seat shows: a valid name, marked " (bot)" for a bot account's (no
    person's name can end so: names hold no brackets)."""
    return validate_name(raw) + (BOT_SUFFIX if bot else "")

