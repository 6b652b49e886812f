"""Quick phrases and emoticons for the table's chat: a message that is one of a fixed
set, kept as its key and shown to each reader in their own language ("¡Bien jugado!"
to one, "Well played!" to another).  Nothing a player types: nothing to filter; the
flood rules apply as to any message."""

from __future__ import annotations

from tute.server.social.chat import ChatError

PHRASES = ("hello", "well_played", "lucky", "good_hand_partner", "good_game", "thanks",
           "sorry", "one_more", "bye")
EMOTICONS = ("smile", "laugh", "wink", "wow", "sad")
KEYS = frozenset(PHRASES + EMOTICONS)


def phrase(key: object) -> str:
    """A quick phrase's or emoticon's key, checked; ChatError where it is none."""
    if not isinstance(key, str) or key not in KEYS:
        raise ChatError("chat_bad_phrase")
    return key
