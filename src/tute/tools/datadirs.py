"""Where tute keeps what it writes: the user's data folder, never the current folder.

``$XDG_DATA_HOME/tute`` (``~/.local/share/tute`` when the variable is unset), with one
folder a kind: ``records/`` (``tute play``), ``arena/`` (``tute arena``) and the server's
embedded database ``tute.db`` (``tute serve``).  Each command takes an option to write
elsewhere (``--records``, ``--results``, ``--db``).
"""

from __future__ import annotations

import os
from pathlib import Path


def data_home() -> Path:
    """The folder of everything tute writes by default (not created here)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "tute"


def default_records_dir() -> Path:
    """``tute play``'s records."""
    return data_home() / "records"


def default_arena_dir() -> Path:
    """``tute arena``'s results files (one JSON line per deal; a run resumes from them)."""
    return data_home() / "arena"


def default_db_path() -> Path:
    """The embedded SQLite database of ``tute serve`` and ``tute admin``."""
    return data_home() / "tute.db"


def default_db_url() -> str:
    """``sqlite:///`` and :func:`default_db_path`, its folder made on first use."""
    path = default_db_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path}"
