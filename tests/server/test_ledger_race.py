"""Two settlements at once into an account that has no balance row yet (issue 46,
finding 6): on PostgreSQL both transactions found no row for the bank, both inserted
one, and the second's UniqueViolation left its pot in escrow until a restart.  A
movement must never depend on its destination's row existing first."""

from __future__ import annotations

import threading
import time

from sqlalchemy import create_engine, select
from sqlalchemy.engine import Engine

from tute.server.db import migrate
from tute.server.db.schema import balances
from tute.server.site import ledger


def _postgres() -> Engine:
    from server_harness import postgres_or_skip

    engine = create_engine(postgres_or_skip())
    migrate.upgrade(engine)
    return engine


def _balance(engine: Engine, account: str) -> int:
    with engine.connect() as c:
        return int(c.execute(select(balances.c.balance)
                             .where(balances.c.account == account)).scalar() or 0)


def _pots(engine: Engine, n: int) -> list[str]:
    """``n`` escrows of 100 chips each, as n matches' bets leave them."""
    pots = [ledger.escrow(f"t{k}", "1.a") for k in range(n)]
    for k, pot in enumerate(pots):
        ledger.transfer(engine, f"grant:{k}", ledger.MINT, ledger.player(k), 1000, "grant")
        ledger.transfer(engine, f"bet:{k}", ledger.player(k), pot, 100, "bet")
    return pots


def test_two_settlements_create_the_banks_row_together_on_postgresql() -> None:
    """The first settlement's transaction has made the bank's row and not committed
    when the second one pays the bank too: the second waits for it, then adds to the
    same row -- both settle, and the ledger is clean."""
    engine = _postgres()
    try:
        first, second = _pots(engine, 2)
        errors: list[BaseException] = []
        with engine.begin() as c:
            assert ledger.move(c, "cut:0", first, ledger.BANK, 25, "the bank's cut")

            def other() -> None:
                try:
                    ledger.transfer(engine, "cut:1", second, ledger.BANK, 25,
                                    "the bank's cut")
                except BaseException as e:           # what the first failure was
                    errors.append(e)
            thread = threading.Thread(target=other)
            thread.start()
            time.sleep(0.5)                          # the second waits on our new row
        thread.join(10)
        assert not thread.is_alive()
        assert errors == []
        assert _balance(engine, ledger.BANK) == 50
        assert ledger.check(engine) == []
    finally:
        engine.dispose()


def test_many_moves_to_a_new_account_at_once_all_land_on_postgresql() -> None:
    """Eight threads pay one new account at once, each in its own transaction: every
    movement is kept and the balance is their sum."""
    engine = _postgres()
    try:
        pots = _pots(engine, 8)
        start = threading.Barrier(len(pots))
        errors: list[BaseException] = []

        def pay(k: int) -> None:
            start.wait()
            try:
                ledger.transfer(engine, f"cut:{k}", pots[k], "p:999", 100, "a share")
            except BaseException as e:
                errors.append(e)
        threads = [threading.Thread(target=pay, args=(k,)) for k in range(len(pots))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(20)
        assert errors == []
        assert _balance(engine, "p:999") == 800
        assert ledger.check(engine) == []
    finally:
        engine.dispose()
