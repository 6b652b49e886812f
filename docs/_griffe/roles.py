"""A Griffe extension for the API reference: the code's docstrings use reST roles
(``:class:`Card```, ``:meth:`new```) and double backticks; the reference is Markdown, so
a role becomes a code span of its target's last name and ````x```` becomes ```x```."""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(class|meth|func|mod|attr|data|exc|obj):`~?([^`]+)`")
_DOUBLE = re.compile(r"``([^`]+)``")


def _span(m: re.Match[str]) -> str:
    role, target = m.groups()
    return f"`{target}`" if role == "mod" else f"`{target.split('.')[-1]}`"


def _markdown(text: str) -> str:
    return _DOUBLE.sub(r"`\1`", _ROLE.sub(_span, text))


class ReSTRoles(griffe.Extension):
    """Rewrites every docstring as it is loaded."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = _markdown(obj.docstring.value)
