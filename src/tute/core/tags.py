"""The tag pairs both record formats share (``.tute`` records and TPN boards): a line
``[Name "value"]`` with ``\\`` and ``"`` escaped by a backslash, and a note in braces with
``\\`` and ``}`` escaped -- written and read here, once."""

from __future__ import annotations

import re

_TAG = re.compile(r'^\[([A-Za-z][A-Za-z0-9]*)\s+"((?:[^"\\]|\\.)*)"\]$')
_ESCAPED = re.compile(r"\\(.)")


def quote(value: str) -> str:
    """``value`` in double quotes, as a tag pair's value is written."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def tag_line(name: str, value: str) -> str:
    """The line ``[name "value"]``."""
    return f"[{name} {quote(value)}]"


def read_tag(line: str) -> tuple[str, str] | None:
    """A stripped line's tag pair ``(name, value)``, its escapes undone; ``None`` where
    the line is not one."""
    m = _TAG.match(line)
    return None if m is None else (m.group(1), _ESCAPED.sub(r"\1", m.group(2)))


def escape_note(text: str) -> str:
    """A note's text as written between braces."""
    return text.replace("\\", "\\\\").replace("}", "\\}")
