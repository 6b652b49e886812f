"""Competitive matches (seed 001): the bets in escrow, the pot and the XP at the end.

A pot is between people who play against each other (docs/server.md, "Chips and the
bank"): robots bet nothing and win nothing.  At a competitive match's start every
person's bet moves into the match's escrow, all together or not at all (one
transaction) -- but only when two people sit on different sides (:func:`bettors`): a
person whose rivals are all robots bets against no one, and the match moves no chips
(it still counts for XP and the rating).  At its end, in one transaction: the bank takes
:data:`~tute.server.site.ledger.BANK_SHARE` per cent of the pot, never more than the
losing people put in, and the rest is split equally between the winning people (what
does not divide, and the share of a person who abandoned, goes to the bank), so a
winner never loses chips; where no person won (a robot did) or no person lost, every
bet goes back.  Every person gets the XP of seed 001's "Ranking por pontos": the
winners 10 × the number of players (in pairs split between the partners: 20 each),
plus 10 for each round beyond the first; every loser 5.  Each movement and each XP row
has a key of its own, so a step retried after a crash gives nothing twice;
:meth:`Purse.reconcile` settles, at a restart, every escrow a finished match left open
and returns those of matches that will not finish.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sqlalchemy import select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from tute.core.match import Match
from tute.core.variants import Variant
from tute.server.db.schema import accounts, balances, xp
from tute.server.db.schema import ledger as movements
from tute.server.site import ledger
from tute.server.site.ratings import update_ratings
from tute.server.store import SeatRow

log = logging.getLogger("tute.server")
WIN_XP_PER_PLAYER = 10
LOSS_XP = 5
ROUND_XP = 10


@dataclass(frozen=True, slots=True)
class Stake:
    """A person at a competitive match: the seat and the account."""

    seat: int
    account: int


@dataclass(frozen=True, slots=True)
class Gain:
    """What a person took from a settled match, as the ledger has it: the chips won
    less the bet (a loser: minus the bet), and the XP."""

    seat: int
    chips: int
    xp: int


def stakes_of(rows: Iterable[SeatRow]) -> list[Stake]:
    """The people among a table's seats, with their accounts (robots and guests bet
    nothing)."""
    return [Stake(r.seat, r.account) for r in sorted(rows, key=lambda r: r.seat)
            if r.kind == "human" and r.account is not None]


def accounts_at(rows: Iterable[SeatRow], seats: set[int]) -> frozenset[int]:
    """The accounts of the people at ``seats``."""
    return frozenset(r.account for r in rows if r.seat in seats and r.account is not None)


def winning_seats(match: Match, seats: Sequence[int]) -> set[int]:
    """The seats that won a finished match (a side's seats; Cabrero's one survivor)."""
    w = match.winner
    if w is None:
        return set()
    if match.variant.match == "elimination":
        return {w}
    return {s for s in seats if match.variant.side_of(s) == w}


def rounds_of(v: Variant) -> int:
    """The rounds a match is played to (seed 001's "Rodadas por partida")."""
    return v.match_target if v.match in ("first_to", "series", "two_ahead") else 1


def xp_awards(v: Variant, winners: set[int], stakes: Sequence[Stake],
              abandoned: frozenset[int] = frozenset()) -> dict[int, int]:
    """XP per account: a winning seat's share of 10 × players (split between the winning
    partners), plus 10 for each round beyond one; 5 for a loser; nothing for a person
    who abandoned the match (``abandoned``: accounts)."""
    winning_seats = len(winners) if winners else 1
    base = WIN_XP_PER_PLAYER * v.players // (winning_seats if v.partnerships else 1)
    extra = ROUND_XP * (rounds_of(v) - 1)
    return {s.account: (base + extra if s.seat in winners else LOSS_XP) for s in stakes
            if s.account not in abandoned}


def bettors(v: Variant, stakes: Sequence[Stake]) -> list[Stake]:
    """The people whose bets a match takes: all of them when two of them sit on
    different sides (people who play against each other), none otherwise -- robots bet
    nothing, so a person whose rivals are all robots bets against no one."""
    return list(stakes) if len({v.side_of(s.seat) for s in stakes}) >= 2 else []


def pot_shares(pot: int, winners: set[int], stakes: Sequence[Stake],
               abandoned: frozenset[int] = frozenset()
               ) -> tuple[dict[int, int], int] | None:
    """(chips per winning account, the bank's chips) of a pot that ``stakes`` (the
    people who bet, equal bets) put in: the bank's share first -- never more than the
    losing people's bets, so a winner never loses chips -- then the rest equally
    between the winning people; the shares of people who abandoned, and the remainder,
    go to the bank.  None: the bets go back, since no person won (a robot did) or no
    person lost."""
    won = [s for s in stakes if s.seat in winners]
    lost = len(stakes) - len(won)
    if not won or not lost:
        return None
    cut = min(pot * ledger.BANK_SHARE // 100, pot // len(stakes) * lost)
    each = (pot - cut) // len(won)
    paid = {s.account: each for s in won if each > 0 and s.account not in abandoned}
    return paid, pot - sum(paid.values())


def _gains(c: Connection, table_id: str, match: int | str, stakes: Sequence[Stake]
           ) -> list[Gain]:
    """Each person's :class:`Gain` from a match, read from its ledger movements (the
    bet, the winnings, a bet returned) and its XP row."""
    out = []
    for s in stakes:
        me = ledger.player(s.account)
        keys = [f"{kind}:{table_id}:{match}:{s.account}" for kind in ("bet", "win")]
        keys.append(f"refund:{table_id}:{match}:{me}")          # a bet that went back
        moved = c.execute(select(movements.c.dest, movements.c.amount)
                          .where(movements.c.key.in_(keys))).all()
        chips = sum(int(m.amount) if m.dest == me else -int(m.amount) for m in moved)
        points = c.execute(select(xp.c.amount).where(
            xp.c.key == f"xp:{table_id}:{match}:{s.account}")).scalar()
        out.append(Gain(s.seat, chips, int(points or 0)))
    return out


def _bets_in(c: Connection, box: str) -> dict[str, int]:
    """The bets put into an escrow, by the ledger account that put each in."""
    rows = c.execute(select(movements.c.source, movements.c.amount)
                     .where(movements.c.dest == box, movements.c.key.like("bet:%"))).all()
    return {str(r.source): int(r.amount) for r in rows}


def _account_order(account: str) -> tuple[int, str]:
    """Where a ledger account's row is locked among others in one transaction: players
    by their number, then anything else -- every transaction that moves chips between
    several people locks their rows in this order (and the bank's last), so two
    settling at once never wait on each other in a circle (PostgreSQL would abort one,
    its pot left in escrow)."""
    head, _, number = account.partition(":")
    return (int(number), "") if head == "p" and number.isdigit() else (1 << 62, account)


def _return_bets(c: Connection, table_id: str, match: int | str, box: str,
                 abandoned: frozenset[int]) -> None:
    """Every bet in an escrow back to who put it in, in the caller's transaction -- but
    a person penalised for abandoning the match: that bet goes to the bank."""
    kept = {ledger.player(a) for a in abandoned}
    bets = _bets_in(c, box)          # the people's rows first, by account, the bank's
    for source in sorted(bets, key=lambda a: (a in kept, _account_order(a))):  # last
        amount = bets[source]
        if ledger.balance(c, box) < amount:
            break
        if source in kept:
            ledger.move(c, f"forfeit:{table_id}:{match}:{source}", box, ledger.BANK,
                        amount, f"abandoned, table {table_id}")
        else:
            ledger.move(c, f"refund:{table_id}:{match}:{source}", box, source, amount,
                        f"returned, table {table_id}")


class Purse:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def reserve(self, table_id: str, match: int | str, bet: int, stakes: Sequence[Stake]) -> None:
        """Every person's bet into the match's escrow, all or none (LedgerError: who
        lacks chips; nothing moved)."""
        if bet <= 0:
            return
        box = ledger.escrow(table_id, match)
        try:
            with self.engine.begin() as c:
                for s in sorted(stakes, key=lambda s: s.account):    # rows in one order
                    ledger.move(c, f"bet:{table_id}:{match}:{s.account}",
                                ledger.player(s.account), box, bet,
                                f"bet, table {table_id} match {match}")
        except IntegrityError:   # another start took the chips meanwhile (the database's
            with self.engine.connect() as c:          # check on balances said no)
                have = min(ledger.balance(c, ledger.player(s.account)) for s in stakes)
            raise ledger.LedgerError("not_enough_chips", need=bet, have=have) from None

    def settle(self, table_id: str, match: int | str, v: Variant, winners: set[int],
               stakes: Sequence[Stake], robot_level: str = "heuristic",
               abandoned: frozenset[int] = frozenset(),
               unearned: frozenset[int] = frozenset(), bets: bool = True) -> list[Gain]:
        """The pot to the winners and the bank, the XP and the ratings (once).  A match
        whose escrow never received its bets (the start's reservation lost) pays
        nothing; the accounts in ``unearned`` (:func:`~tute.server.tables.log.unearned_seats`)
        get no XP (the game is counted as played, with 0 XP: the ranking leaves them
        out).  ``bets``: the table had a bet (competitive tables stored before a bet
        was required may have none, and pay as they did).  Returns each person's
        :class:`Gain`, read back from the ledger and the XP rows (the same figures the
        profile shows), whether this call or an earlier one settled it."""
        box = ledger.escrow(table_id, match)
        now = int(time.time())
        with self.engine.begin() as c:
            staked = _bets_in(c, box)
            if bets and bettors(v, stakes) and not staked:
                log.warning("table %s: match %s had no bets in escrow: it pays nothing",
                            table_id, match)
                return []
            first = c.execute(select(xp.c.id).where(
                xp.c.key.like(f"xp:{table_id}:{match}:%"))).first() is None
            pot = ledger.balance(c, box)
            shares = pot_shares(pot, winners, [s for s in stakes
                                               if ledger.player(s.account) in staked],
                                abandoned)
            if shares is None:                  # no person won, or none lost: bets back
                _return_bets(c, table_id, match, box, abandoned)
            else:
                paid, bank = shares
                for account, chips in sorted(paid.items()):    # by account, the bank last
                    ledger.move(c, f"win:{table_id}:{match}:{account}", box,
                                ledger.player(account), chips, f"won, table {table_id}")
                if bank > 0:
                    ledger.move(c, f"cut:{table_id}:{match}", box, ledger.BANK, bank,
                                f"the bank's share, table {table_id}")
            if not first:                               # settled before: nothing again
                return _gains(c, table_id, match, stakes)
            awards = xp_awards(v, winners, stakes, abandoned | unearned)
            for stake in stakes:          # unearned: a row of 0 (a game played, no XP)
                if stake.account in abandoned:
                    continue
                c.execute(xp.insert().values(key=f"xp:{table_id}:{match}:{stake.account}",
                                             account_id=stake.account, at=now,
                                             amount=awards.get(stake.account, 0),
                                             table_id=table_id, preset=v.preset,
                                             won=int(stake.seat in winners)))
            if stakes:
                update_ratings(c, v, [v.side_of(s) for s in range(v.players)], winners,
                               {s.seat: s.account for s in stakes}, robot_level)
            return _gains(c, table_id, match, stakes)

    def refund(self, table_id: str, match: int | str, stakes: Sequence[Stake] | None = None,
               abandoned: frozenset[int] = frozenset()) -> None:
        """Every bet in a match's escrow back to who put it in (an annulled match, or one
        that never started) -- but a person penalised for abandoning it: that bet goes
        to the bank."""
        box = ledger.escrow(table_id, match)
        with self.engine.begin() as c:
            _return_bets(c, table_id, match, box, abandoned)

    def count_abandon(self, account: int) -> None:
        with self.engine.begin() as c:
            c.execute(update(accounts).where(accounts.c.id == account)
                      .values(abandons=accounts.c.abandons + 1))

    def open_escrows(self) -> list[tuple[str, str]]:
        """(table, match) of every escrow still holding chips (the match as
        :func:`~tute.server.site.ledger.escrow` names it: its number, and its attempt)."""
        with self.engine.connect() as c:
            rows = c.execute(select(balances.c.account)
                             .where(balances.c.account.like("escrow:%"),
                                    balances.c.balance > 0)).scalars().all()
        out = []
        for account in rows:
            _, table_id, match = str(account).split(":")
            out.append((table_id, match))
        return out
