"""Chat: what a message may be, how often one may write, and the word filter.

A message is plain text (the page shows it as text, never as markup): control and
formatting characters (bidi overrides included) are removed, spaces collapsed, at most
:data:`MAX_CHARS` characters.  :class:`Flood` refuses more than a few messages in a few
seconds, too many in a minute, and the same message again.  :class:`WordFilter` masks
the words of the writer's language's list (and of the list for every language) also when
they are spelt to slip past: accents, capitals, repeated letters, digits and signs for
letters (``put@``, ``m1erda``), look-alike letters of other alphabets, letters split by
dots or spaces (``p.u.t.a``, ``p u t a``).
"""

from __future__ import annotations

import re
import time
import unicodedata
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from tute.core.errors import TuteError
from tute.server.site.lookalike import latin, sounded, visible

MAX_CHARS = 200
BURST, BURST_SECONDS = 4, 5.0         # at most 4 messages in 5 seconds
MINUTE = 15                           # and 15 in a minute
REPEAT_SECONDS = 60.0                 # the same message again within a minute: refused
WORDS = Path(__file__).parent / "words"

# signs written for letters (the look-alike letters of other alphabets: site/lookalike.py)
_SIGNS = str.maketrans({
    "0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s",
    "€": "e", "!": "i", "|": "l", "ß": "ss",
})
_SPACES = re.compile(r"\s+")


class ChatError(TuteError):
    """A chat message that cannot be sent (empty, too long, too fast, repeated...)."""


def clean(text: object) -> str:
    """The message as it will be kept: text only, one line, trimmed; or ChatError."""
    if not isinstance(text, str):
        raise ChatError("chat_empty")
    kept = "".join(" " if ch.isspace() else ch
                   for ch in visible(unicodedata.normalize("NFC", text))
                   if ch.isspace() or unicodedata.category(ch)[0] != "C")
    kept = _SPACES.sub(" ", kept).strip()
    if not kept:
        raise ChatError("chat_empty")
    if len(kept) > MAX_CHARS:
        raise ChatError("chat_too_long", max=MAX_CHARS)
    return kept


_PUNCT = ".,;:!?¡¿'\"()[]{}«»-_*~"


def skeleton(word: str) -> str:
    """A word as the filter compares it: look-alikes and signs to letters, no accents,
    lower case, letters only, no letter twice in a row."""
    inner = word.strip(_PUNCT)
    text = latin(unicodedata.normalize("NFKD", latin(inner)).casefold()).translate(_SIGNS)
    letters = [ch for ch in text if ch.isalpha() and not unicodedata.combining(ch)]
    out: list[str] = []
    for ch in letters:
        if not out or out[-1] != ch:
            out.append(ch)
    return "".join(out)


@cache
def _list(name: str) -> frozenset[str]:
    path = WORDS / f"{name}.txt"
    lines = path.read_text(encoding="utf-8").splitlines()
    return frozenset(skeleton(w) for w in lines if w.strip() and not w.startswith("#"))


class WordFilter:
    """Masks the listed words with asterisks (the rest of the message stays)."""

    def __init__(self, lang: str) -> None:
        known = ("es", "pt", "it", "en")
        self.words = _list("all") | _list(lang if lang in known else "es")

    def listed(self, skel: str) -> bool:
        """Whether a word's skeleton is listed, read also with a ``v`` for a ``u``
        ("pvta"), or is listed words written together ("putaputa"; "putamadre" is not:
        "madre" is no listed word)."""
        if skel in self.words or skel.replace("v", "u") in self.words:
            return True
        return _joined(skel, self.words) or _joined(skel.replace("v", "u"), self.words)

    def bad(self, token: str) -> bool:
        if self.listed(skeleton(token)) or self.listed(skeleton(sounded(token))):
            return True
        parts = re.split(r"[^\w@$€!|]+", token)
        return len(parts) > 1 and any(self.listed(skeleton(p)) for p in parts if p)

    def mask(self, text: str) -> str:
        tokens = text.split(" ")
        out = list(tokens)
        for i, tok in enumerate(tokens):
            if self.bad(tok):
                out[i] = _stars(tok)
        # a word split into pieces of a letter or two: "p u t a", "pu ta"
        short = [0 < len(skeleton(t)) <= _PIECE for t in tokens]
        for i in range(len(tokens)):
            for j in range(i + 2, min(len(tokens), i + _LONGEST // 2) + 1):
                joined = skeleton("".join(tokens[i:j]))
                if not all(short[i:j]) or len(joined) > _LONGEST:
                    break
                if self.listed(joined):
                    for k in range(i, j):
                        out[k] = _stars(tokens[k])
        return " ".join(out)


_LONGEST = 24       # no listed word, nor two written together, is longer
_PIECE = 2          # a piece of a split word: at most this many letters ("pu ta"; not
                    # more: "con o sin" must stay as it is)


def _joined(skel: str, words: frozenset[str]) -> bool:
    """Whether ``skel`` is two or more listed words of three letters or more written
    together (a letter shared where one ends as the next begins: a skeleton has no
    letter twice in a row)."""
    n = len(skel)
    best = [-1] * (n + 1)                 # best[i]: most listed words making skel[:i]
    best[0] = 0
    for i in range(n):
        if best[i] < 0:
            continue
        starts = (i, i - 1) if best[i] > 0 else (i,)
        for start in starts:
            for stop in range(max(start + 3, i + 1), n + 1):
                if skel[start:stop] in words:
                    best[stop] = max(best[stop], best[i] + 1)
    return best[n] >= 2


def _plain(text: str) -> str:
    """A message as the repeat rule compares it: letters and digits, look-alikes read
    as Latin letters, no case, no accents, no spaces; a digit inside a word read as
    the letter it stands for ("h0la" is "hola"; "mensaje 2" stays "mensaje2")."""
    out = []
    for token in text.split(" "):
        word = latin(unicodedata.normalize("NFKD", latin(token.strip(_PUNCT))).casefold())
        if any(ch.isalpha() for ch in word):
            word = word.translate(_SIGNS)
        out.append("".join(ch for ch in word if ch.isalnum()))
    return "".join(out)                           # "h o l a" is "hola" too


def _stars(token: str) -> str:
    """The word masked, its punctuation kept: "¡qué ****!"."""
    inner = token.strip(_PUNCT) or token
    at = token.find(inner)
    return token[:at] + "*" * len(inner) + token[at + len(inner):]


@dataclass(slots=True)
class _Writer:
    times: deque[float] = field(default_factory=deque)
    recent: deque[tuple[float, str]] = field(default_factory=deque)


class Flood:
    """How often each author may write (in memory, per table or lobby)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._writers: dict[str, _Writer] = {}

    def check(self, author: str, text: str) -> None:
        """Count a message of ``author``, or raise ChatError (and count nothing)."""
        now = self._clock()
        w = self._writers.setdefault(author, _Writer())
        while w.times and now - w.times[0] >= 60.0:
            w.times.popleft()
        while w.recent and now - w.recent[0][0] >= REPEAT_SECONDS:
            w.recent.popleft()
        if sum(1 for t in w.times if now - t < BURST_SECONDS) >= BURST \
                or len(w.times) >= MINUTE:
            raise ChatError("chat_too_fast")
        said = _plain(text)                              # "Ya puedo!" is "ya puedo"
        if any(said == s for _, s in w.recent):
            raise ChatError("chat_repeated")
        w.times.append(now)
        w.recent.append((now, said))
        if len(self._writers) > 10_000:                   # forget the quiet ones
            for key in [k for k, v in self._writers.items() if not v.times][:5000]:
                del self._writers[key]
