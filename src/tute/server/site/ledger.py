"""Chips: a double-entry ledger (docs/server.md, "Chips and the bank").

Every movement goes from one ledger account to another -- a player (``p:<id>``), the
bank (``bank``: its 25% of each pot), a match's escrow (``escrow:<table>:<match>``) or
the mint (``mint``: where grants and top-ups come from, the only account that may be
below zero) -- and is written once: its *key* (one per match event) is unique, so a step
retried after a crash moves nothing twice.  Each movement and both balances change in
one transaction, and the database refuses a balance below zero: the balances always sum
to zero and :func:`check` proves each equals its movements.

Policy (written down here and in docs/server.md): a new account gets
:data:`GRANT` chips; once a day an account below :data:`FLOOR` is topped up to it.
Chips cannot be bought, sold or given to another player: they only move through bets.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from sqlalchemy import func, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from tute.core.errors import TuteError
from tute.server.db.schema import balances, ledger

GRANT = 1000            # chips on registering
FLOOR = 200             # a daily top-up brings an account below this back up to it
MINT = "mint"
BANK = "bank"
BANK_SHARE = 25         # per cent of each pot


class LedgerError(TuteError):
    """A movement the ledger refuses (not enough chips); nothing moved."""


@dataclass(frozen=True, slots=True)
class Movement:
    key: str
    at: int
    source: str
    dest: str
    amount: int
    memo: str


def player(account_id: int) -> str:
    return f"p:{account_id}"


def escrow(table_id: str, match: int | str) -> str:
    """A match's escrow: ``match`` is the match's number, and since the third attack
    also the start's attempt (``3.9f2c``): a start that failed and was refunded never
    shares an escrow, nor ledger keys, with the next try."""
    return f"escrow:{table_id}:{match}"


def balance(c: Connection, account: str) -> int:
    value = c.execute(select(balances.c.balance).where(balances.c.account == account)
                      ).scalar()
    return int(value or 0)


def in_escrow(c: Connection, account: str) -> int:
    """The chips ``account`` has bet into escrows that still hold them (matches not
    yet settled or returned): held, though not in its balance."""
    value = c.execute(select(func.sum(ledger.c.amount))
                      .select_from(ledger.join(balances, balances.c.account == ledger.c.dest))
                      .where(ledger.c.source == account, ledger.c.key.like("bet:%"),
                             balances.c.account.like("escrow:%"), balances.c.balance > 0)
                      ).scalar()
    return int(value or 0)


def move(c: Connection, key: str, source: str, dest: str, amount: int, memo: str
         ) -> bool:
    """Move ``amount`` chips in the caller's transaction: True if moved, False if this
    key moved already (then nothing moves again).  A source without enough chips raises
    :class:`LedgerError` (the caller's transaction must be rolled back)."""
    if amount <= 0 or source == dest:
        raise ValueError(f"not a movement: {amount} from {source} to {dest}")
    if c.execute(select(ledger.c.id).where(ledger.c.key == key)).first() is not None:
        return False
    if source != MINT:                     # its balance row locked until the end
        held = c.execute(select(balances.c.balance).where(balances.c.account == source)
                         .with_for_update()).scalar()
        if int(held or 0) < amount:
            raise LedgerError("not_enough_chips", need=amount, have=int(held or 0))
    c.execute(ledger.insert().values(key=key, at=int(time.time()), source=source,
                                     dest=dest, amount=amount, memo=memo))
    if source == MINT:
        _add(c, MINT, -amount)
    else:                                  # its row exists: it held the chips
        c.execute(update(balances).where(balances.c.account == source)
                  .values(balance=balances.c.balance - amount))
    _add(c, dest, amount)
    return True


def _add(c: Connection, account: str, delta: int) -> None:
    """Add ``delta`` to ``account``'s balance, its row made if it has none -- in one
    statement (``INSERT ... ON CONFLICT DO UPDATE``): two transactions paying a new
    account at once (two matches settling, each paying the bank) never both insert
    its row; the second waits for the first and adds to it.  Not for a debit of an
    account that must stay at or above zero: the row proposed (``delta`` alone) is
    checked against the constraint before the conflict is found."""
    upsert = (pg_insert if c.dialect.name == "postgresql" else sqlite_insert)(balances)
    c.execute(upsert.values(account=account, balance=delta).on_conflict_do_update(
        index_elements=[balances.c.account],
        set_={"balance": balances.c.balance + delta}))


def transfer(engine: Engine, key: str, source: str, dest: str, amount: int, memo: str
             ) -> bool:
    """:func:`move` in a transaction of its own (committed, or nothing kept)."""
    try:
        with engine.begin() as c:
            return move(c, key, source, dest, amount, memo)
    except IntegrityError:                 # the same key, moved meanwhile by another
        with engine.connect() as c:
            if c.execute(select(ledger.c.id).where(ledger.c.key == key)).first():
                return False
        raise


def movements(engine: Engine, account: str, limit: int = 200) -> list[Movement]:
    """An account's movements, the newest first."""
    with engine.connect() as c:
        rows = c.execute(select(ledger).where((ledger.c.source == account)
                                              | (ledger.c.dest == account))
                         .order_by(ledger.c.id.desc()).limit(limit)).all()
    return [Movement(r.key, r.at, r.source, r.dest, r.amount, r.memo) for r in rows]


def check(engine: Engine) -> list[str]:
    """What is wrong with the ledger (nothing: an empty list): every balance equals the
    movements into its account less those out of it, none but the mint's is negative,
    and all of them sum to zero."""
    problems: list[str] = []
    with engine.connect() as c:
        into = dict(c.execute(select(ledger.c.dest, func.sum(ledger.c.amount))
                              .group_by(ledger.c.dest)).all())
        out = dict(c.execute(select(ledger.c.source, func.sum(ledger.c.amount))
                             .group_by(ledger.c.source)).all())
        held = dict(c.execute(select(balances.c.account, balances.c.balance)).all())
    for account in sorted(set(into) | set(out) | set(held)):
        expected = int(into.get(account, 0)) - int(out.get(account, 0))
        if int(held.get(account, 0)) != expected:
            problems.append(f"{account}: balance {held.get(account, 0)}, movements "
                            f"{expected}")
        if account != MINT and expected < 0:
            problems.append(f"{account}: below zero ({expected})")
    total = sum(int(b) for b in held.values())
    if total != 0:
        problems.append(f"the balances sum to {total}, not 0")
    return problems


def biggest_bet(c: Connection, account: str, since: int) -> int:
    """The biggest bet ``account`` put into a match's escrow since ``since``."""
    value = c.execute(select(func.max(ledger.c.amount))
                      .where(ledger.c.source == account, ledger.c.at >= since,
                             ledger.c.key.like("bet:%"))).scalar()
    return int(value or 0)
