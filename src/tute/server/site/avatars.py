"""Faces: the avatar an account chose from the site's drawn set (``static/avatars.js``
draws each), or none -- then every page draws one from the name (its initials on a
colour the name decides).  Robots have their own face.  The key is kept on the account
and on each seat taken (the ``seat`` event), so the table, its chat and its replays show
the face the person had when they sat down."""

from __future__ import annotations

from sqlalchemy import select, update
from sqlalchemy.engine import Engine

from tute.core.errors import TuteError
from tute.server.db.schema import accounts

AVATARS = tuple(f"face{k:02d}" for k in range(1, 13))
ROBOT = "robot"


class AvatarError(TuteError):
    """An avatar that is not one of the site's."""


def checked(key: object) -> str | None:
    """An avatar key of the set, or None (the face drawn from the name); AvatarError
    for anything else."""
    if key is None:
        return None
    if not isinstance(key, str) or key not in AVATARS:
        raise AvatarError("bad_avatar", known=", ".join(AVATARS))
    return key


def avatar_of(engine: Engine, account: int | None) -> str | None:
    """The avatar an account chose (None: none, or no account)."""
    if account is None:
        return None
    with engine.connect() as c:
        found = c.execute(select(accounts.c.avatar).where(accounts.c.id == account)).scalar()
    return None if found is None else str(found)


def set_avatar(engine: Engine, account: int, key: object) -> str | None:
    """Choose an avatar (None: the face drawn from the name)."""
    chosen = checked(key)
    with engine.begin() as c:
        c.execute(update(accounts).where(accounts.c.id == account).values(avatar=chosen))
    return chosen
