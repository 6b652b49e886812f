"""Hypothesis over random sequences of competitive matches -- bets, wins, annulments,
players short of chips, and crashes between reserving and settling followed by a
restart's reconciliation: the ledger always sums to zero, no balance is ever negative,
every escrow ends settled or returned, each account holds exactly what a plain model
of the rules says, and settling or returning twice moves nothing more."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import create_engine
from sqlalchemy.engine import Engine
from sqlalchemy.pool import StaticPool

from tute.core.variants import parse_variant
from tute.server.db import migrate
from tute.server.site import ledger
from tute.server.site.economy import Purse, Stake, pot_shares

PLAYERS = 4
HABANERO = parse_variant("habanero")

match_steps = st.tuples(
    st.sampled_from(["settle", "annul", "crash_reserved", "crash_ended"]),
    st.integers(0, 400),                                  # the bet
    st.lists(st.integers(0, PLAYERS - 1), min_size=1, max_size=2, unique=True),
    st.integers(0, 1),                                    # the winning seat
)


def _engine() -> Engine:
    engine = create_engine("sqlite://", poolclass=StaticPool,
                           connect_args={"check_same_thread": False})
    migrate.upgrade(engine)
    return engine


def _balances(engine: Engine) -> dict[str, int]:
    from sqlalchemy import select

    from tute.server.db.schema import balances

    with engine.connect() as c:
        return {str(a): int(b) for a, b in c.execute(select(balances.c.account,
                                                            balances.c.balance))}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(match_steps, min_size=1, max_size=12))
def test_the_ledger_holds_whatever_happens(steps: list[tuple[str, int, list[int], int]]
                                          ) -> None:
    engine = _engine()
    purse = Purse(engine)
    model: dict[str, int] = {ledger.MINT: -PLAYERS * ledger.GRANT}
    for account in range(1, PLAYERS + 1):
        ledger.transfer(engine, f"grant:{account}", ledger.MINT, ledger.player(account),
                        ledger.GRANT, "grant")
        model[ledger.player(account)] = ledger.GRANT
    pending: list[tuple[str, str, list[Stake], int, int]] = []    # left by a crash
    for n, (what, bet, people, winner) in enumerate(steps):
        table = f"t{n}"
        stakes = [Stake(seat, who + 1) for seat, who in enumerate(people)]
        short = any(model[ledger.player(s.account)] < bet for s in stakes)
        try:
            purse.reserve(table, 1, bet, stakes)
        except ledger.LedgerError:
            assert short and bet > 0                       # refused whole: nothing moved
            held = _balances(engine)
            assert all(held.get(ledger.player(s.account), 0) ==
                       model[ledger.player(s.account)] for s in stakes)
            assert ledger.escrow(table, 1) not in held
            continue
        assert not short or bet == 0
        for s in stakes:
            if bet:
                model[ledger.player(s.account)] -= bet
        pot = bet * len(stakes) if bet else 0
        if what == "settle":
            purse.settle(table, 1, HABANERO, {winner}, stakes)
            _pay(model, pot, {winner}, stakes)
        elif what == "crash_ended":                        # killed before it settled
            pending.append(("settle", table, stakes, winner, pot))
        elif what == "annul":
            purse.refund(table, 1, stakes)
            for s in stakes:
                model[ledger.player(s.account)] += bet
        else:
            pending.append(("refund", table, stakes, winner, bet))
        assert ledger.check(engine) == []                  # at every step
    for kind, table, stakes, winner, amount in pending:    # the restart reconciles
        for _ in range(2):                                 # and twice moves nothing more
            if kind == "settle":
                purse.settle(table, 1, HABANERO, {winner}, stakes)
            else:
                purse.refund(table, 1, stakes)
        if kind == "settle":
            _pay(model, amount, {winner}, stakes)
        else:
            for s in stakes:
                model[ledger.player(s.account)] += amount
    assert ledger.check(engine) == []
    assert purse.open_escrows() == []                      # every escrow closed
    held = _balances(engine)
    for account in range(1, PLAYERS + 1):
        key = ledger.player(account)
        assert held.get(key, 0) == model[key] >= 0, (key, held, model)
    assert sum(held.values()) == 0


def _pay(model: dict[str, Any], pot: int, winners: set[int], stakes: list[Stake]) -> None:
    shares = pot_shares(pot, winners, stakes)
    if shares is None:                    # no person on one of the sides: bets go back
        for s in stakes:
            model[ledger.player(s.account)] += pot // len(stakes)
        return
    paid, bank = shares
    for s in stakes:                      # a winner never loses chips
        if s.seat in winners:
            assert paid.get(s.account, 0) >= pot // len(stakes), (pot, winners, stakes)
    for account, chips in paid.items():
        model[ledger.player(account)] += chips
    model[ledger.BANK] = model.get(ledger.BANK, 0) + bank
