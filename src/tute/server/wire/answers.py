"""The one kind of JSON answer every route gives."""

from __future__ import annotations

from typing import Any

import msgspec
from starlette.responses import Response

_ENCODE = msgspec.json.Encoder().encode


class Sent(Response):
    """A JSON answer whose values may be typed -- structs, dataclasses -- as what is
    sent is (:mod:`tute.server.wire.views`, :mod:`tute.server.wire.summary`): encoded by
    msgspec.  Every route answers with it (or with a file or a page)."""

    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return _ENCODE(content)
