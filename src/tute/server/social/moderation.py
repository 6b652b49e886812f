"""What players do about each other's words, kept in the store: blocks (an account
hides another's messages everywhere, for good, and ends any friendship) and reports (a message kept for the
operator, ``tute admin reports``).  Muting is lighter and lives with the table
(:class:`tute.server.tables.chat.TableChat`)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

import msgspec
from sqlalchemy import and_, delete, or_, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from tute.server.db.schema import accounts, blocks, friends, reports
from tute.server.social.chat import ChatError
from tute.server.wire.limits import RateLimit

REPORTS_PER_HOUR = 10            # per person, and per address


@dataclass(frozen=True, slots=True)
class Report:
    id: int
    at: int
    place: str
    seq: int
    reporter: str
    author: str
    name: str
    text: str


class Moderation:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def blocked(self, account: int) -> set[int]:
        """The accounts ``account`` blocks."""
        with self.engine.connect() as c:
            return set(c.execute(select(blocks.c.blocked_id)
                                 .where(blocks.c.account_id == account)).scalars())

    def blocked_names(self, account: int) -> list[dict[str, object]]:
        with self.engine.connect() as c:
            rows = c.execute(select(accounts.c.id, accounts.c.name)
                             .join(blocks, blocks.c.blocked_id == accounts.c.id)
                             .where(blocks.c.account_id == account)
                             .order_by(accounts.c.name)).all()
        return [{"id": r.id, "name": r.name, "author": f"a{r.id}"} for r in rows]

    def block(self, account: int, other: int, on: bool = True) -> None:
        """``account`` blocks ``other`` (or no longer: ``on`` false); once is enough."""
        with self.engine.begin() as c:
            if not on:
                c.execute(delete(blocks).where(blocks.c.account_id == account,
                                               blocks.c.blocked_id == other))
                return
            if c.execute(select(accounts.c.id).where(accounts.c.id == other)).first() is None:
                return
            if c.execute(select(blocks.c.at).where(blocks.c.account_id == account,
                                                   blocks.c.blocked_id == other)).first():
                return
            c.execute(blocks.insert().values(account_id=account, blocked_id=other,
                                             at=int(time.time())))
            c.execute(delete(friends).where(or_(                # a block ends a friendship
                and_(friends.c.requester == account, friends.c.target == other),
                and_(friends.c.requester == other, friends.c.target == account))))

    def report(self, place: str, seq: int, reporter: str, author: str, name: str,
               text: str) -> bool:
        """Keep a reported message; False when this reporter reported it already."""
        try:
            with self.engine.begin() as c:
                c.execute(reports.insert().values(at=int(time.time()), place=place, seq=seq,
                                                  reporter=reporter, author=author,
                                                  name=name, text=text))
        except IntegrityError:
            return False
        return True

    def reports(self, limit: int = 100) -> list[Report]:
        """The latest reports, newest first."""
        with self.engine.connect() as c:
            rows = c.execute(select(reports).order_by(reports.c.id.desc()).limit(limit)).all()
        return [Report(r.id, r.at, r.place, r.seq, r.reporter, r.author, r.name, r.text)
                for r in rows]


def account_of_author(author: str) -> int | None:
    """The account behind a public author id (``a12``), None for a guest's."""
    digits = author[1:]
    if author[:1] == "a" and digits.isascii() and digits.isdigit() and len(author) < 15:
        return int(author[1:])
    return None


class Reported(msgspec.Struct, frozen=True):
    """A chat message as a report keeps it: who wrote it (author id and name), what."""

    author: str
    name: str
    text: str


class ReportDesk:
    """Where a chat (a table's, the lobby's) files reports: the rules every report
    meets -- not one's own, not too many per person nor per address -- then the store."""

    def __init__(self) -> None:
        self.by_author = RateLimit(REPORTS_PER_HOUR, 3600.0)
        self.by_address = RateLimit(REPORTS_PER_HOUR, 3600.0)

    async def file(self, moderation: Moderation | None, place: str, seq: int,
                   author: str, address: str, said: Reported | None) -> None:
        """Keep the message ``said`` (None: there is none by that number)."""
        if said is None:
            raise ChatError("chat_no_message")
        if not author or said.author == author:
            raise ChatError("chat_bad_author")
        if not self.by_author.allow(author) or (
                address and not self.by_address.allow(address)):
            raise ChatError("chat_too_many_reports")
        if moderation is None:
            raise ChatError("chat_no_reports")
        try:
            await asyncio.get_running_loop().run_in_executor(
                None, moderation.report, place, seq, author, said.author, said.name,
                said.text)
        except Exception as e:                   # the store is down: say so, keep going
            raise ChatError("chat_report_failed") from e
