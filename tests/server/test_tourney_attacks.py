"""Swiss tournaments attacked (issue 33): what a hostile player tries against the entry
book, the pot and a tournament's tables, and what an operator may type at
``tute admin tourney new``.  Each test is an attack; it passes where the code resists.

The book's races are replayed deterministically: a request reads the tournament
(``book.get``) and acts on what it read a moment later, while the director -- another
thread, or another process with its own clock -- starts the tournament meanwhile."""

from __future__ import annotations

import contextlib
import itertools
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, update

from server_harness import Client, Server, until
from tute.cli import main as cli
from tute.core.errors import TuteError
from tute.server.db.schema import tourney_boards, tourney_entries
from tute.server.site import ledger
from tute.server.site.tourneys import TourneyBook, TourneyError
from tute.server.store import Store
from tute.tourney.prizes import paid_places, prizes
from tute.tourney.swiss import Standing

FEE = 100
FUND = 1000


# ---------------------------------------------------------------------- helpers
@pytest.fixture
def book(db: str) -> Iterator[TourneyBook]:
    store = Store(db)
    try:
        yield TourneyBook(store.engine)
    finally:
        store.close()


def fund(book: TourneyBook, account: int, chips: int = FUND) -> None:
    assert ledger.transfer(book.engine, f"grant:{account}", ledger.MINT,
                           ledger.player(account), chips, "grant")


def chips(book: TourneyBook, account: str | int) -> int:
    name = account if isinstance(account, str) else ledger.player(account)
    with book.engine.connect() as c:
        return ledger.balance(c, name)


def entry(book: TourneyBook, tourney: str, account: int) -> Any:
    return next((e for e in book.entries(tourney) if e.account == account), None)


def people_of(board: Any) -> list[int]:
    """The accounts seated at a board (robots left out)."""
    seats = getattr(board, "seats", None)
    if seats is None:                           # a book that keeps the accounts as a, b
        seats = (board.a, board.b)
    return [x for x in seats if x is not None]


def seated(book: TourneyBook, tourney: str) -> list[int]:
    return [x for s in book.boards(tourney) for x in people_of(s)]


def new_tourney(book: TourneyBook, entrants: int, fee: int = FEE, rounds: int = 3,
                starts_in: float = 3600) -> Any:
    t = book.create("Copa", "habanero", rounds, fee, 30, "random", time.time() + starts_in)
    for a in range(1, entrants + 1):
        fund(book, a)
        book.join(t, a, f"P{a}", time.time())
    return t


def finish_round(book: TourneyBook, tourney: str, score: float = 0.5) -> None:
    """Every unfinished board of the tournament over with ``score`` for seat 0."""
    with book.engine.begin() as c:
        c.execute(update(tourney_boards).where(tourney_boards.c.tourney_id == tourney,
                                               tourney_boards.c.score.is_(None))
                  .values(score=score, margin=0, finished=int(time.time())))


# ---------------------------------------------------------------------- the book
def _at_once(n: int, fn: Any) -> list[str]:
    """``fn`` in ``n`` threads released together: each outcome ("ok", a refusal's key,
    or the repr of a fault that is no refusal)."""
    gate = threading.Barrier(n)
    outcomes: list[str] = []

    def go() -> None:
        gate.wait()
        try:
            fn()
            outcomes.append("ok")
        except TuteError as e:
            outcomes.append(e.key)
        except Exception as e:                  # a fault, not a refusal
            outcomes.append(repr(e)[:120])

    threads = [threading.Thread(target=go) for _ in range(n)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(30)
    return outcomes


def test_concurrent_joins_pay_once_and_enter_once(book: TourneyBook) -> None:
    """Eight threads of one account enter at once (three times, leaving between): one
    entry, one fee; every other try told it entered already (no fault)."""
    t = book.create("Copa", "habanero", 3, FEE, 30, "random", time.time() + 3600)
    fund(book, 1)
    for _ in range(3):
        outcomes = _at_once(8, lambda: book.join(t, 1, "Ana", time.time()))
        assert (chips(book, 1), chips(book, t.pot), sorted(outcomes)) == \
            (FUND - FEE, FEE, ["ok"] + ["tourney_entered"] * 7)
        book.leave(t, 1)
        assert chips(book, 1) == FUND and chips(book, t.pot) == 0
    assert ledger.check(book.engine) == []


def test_a_raced_rejoin_takes_two_fees_for_one_entry(book: TourneyBook) -> None:
    """Ana left before the start and enters again from two tabs: B reads "left before
    the start", A's entry commits meanwhile, then B deletes the entry it did not read
    (A's, fee paid) and writes its own.  One entry must cost one fee."""
    t = book.create("Copa", "habanero", 3, FEE, 30, "random", time.time() + 3600)
    fund(book, 1)
    book.join(t, 1, "Ana", time.time())
    book.leave(t, 1)
    b_read, a_done = threading.Event(), threading.Event()

    def hold_b(conn: Any, cursor: Any, statement: str, *rest: Any) -> None:
        if threading.current_thread().name == "B" and \
                statement.lstrip().upper().startswith("DELETE FROM TUTE_TOURNEY_ENTRIES"):
            b_read.set()
            a_done.wait(10)

    outcomes: dict[str, str] = {}

    def join(name: str) -> None:
        if name == "A":
            b_read.wait(10)
        try:
            book.join(t, 1, "Ana", time.time())
            outcomes[name] = "ok"
        except TuteError as e:
            outcomes[name] = e.key
        finally:
            if name == "A":
                a_done.set()

    event.listen(book.engine, "before_cursor_execute", hold_b)
    try:
        threads = [threading.Thread(target=join, args=(n,), name=n) for n in "BA"]
        for th in threads:
            th.start()
        for th in threads:
            th.join(30)
    finally:
        event.remove(book.engine, "before_cursor_execute", hold_b)
    assert len(book.entries(t.id)) == 1
    assert (chips(book, 1), chips(book, t.pot), sorted(outcomes.values())) == \
        (FUND - FEE, FEE, ["ok", "tourney_entered"])
    book.leave(t, 1)
    assert chips(book, 1) == FUND and chips(book, t.pot) == 0


def test_concurrent_leaves_refund_once_and_refuse_in_words(book: TourneyBook) -> None:
    """Eight threads of one entrant leave at once: the fee back once, and every other
    try told it is not entered -- not "not enough chips" (the pot's, after the first
    refund), and not a server fault (the refund's ledger key taken by the first)."""
    t = book.create("Copa", "habanero", 3, FEE, 30, "random", time.time() + 3600)
    fund(book, 1)
    book.join(t, 1, "Ana", time.time())
    outcomes = _at_once(8, lambda: book.leave(t, 1))
    assert chips(book, 1) == FUND and chips(book, t.pot) == 0
    assert ledger.check(book.engine) == []
    assert sorted(outcomes) == ["ok"] + ["tourney_not_entered"] * 7, outcomes


def test_leave_and_rejoin_in_a_loop_mints_and_loses_nothing(book: TourneyBook) -> None:
    t = book.create("Copa", "habanero", 3, FEE, 30, "random", time.time() + 3600)
    fund(book, 1)
    for _ in range(12):
        book.join(t, 1, "Ana", time.time())
        assert chips(book, 1) == FUND - FEE and chips(book, t.pot) == FEE
        with pytest.raises(TourneyError) as again:
            book.join(t, 1, "Ana", time.time())
        assert again.value.key == "tourney_entered"
        book.leave(t, 1)
        assert chips(book, 1) == FUND and chips(book, t.pot) == 0
        with pytest.raises(TourneyError) as twice:
            book.leave(t, 1)
        assert twice.value.key == "tourney_not_entered"
    assert ledger.check(book.engine) == []
    assert [e.withdrawn for e in book.entries(t.id)] == [0]


def test_join_without_enough_chips_is_refused_and_keeps_nothing(book: TourneyBook) -> None:
    t = book.create("Copa", "habanero", 3, FUND + 1, 30, "random", time.time() + 3600)
    fund(book, 1)
    with pytest.raises(TuteError) as poor:
        book.join(t, 1, "Ana", time.time())
    assert poor.value.key == "not_enough_chips"
    assert "1001" in poor.value.localized("en")
    assert book.entries(t.id) == [] and chips(book, 1) == FUND
    assert chips(book, t.pot) == 0 and ledger.check(book.engine) == []
    # never funded at all (no balance row): the same refusal
    with pytest.raises(TuteError) as none:
        book.join(t, 99, "Nadie", time.time())
    assert none.value.key == "not_enough_chips" and book.entries(t.id) == []


def test_not_enough_chips_because_of_a_concurrent_entry_says_so(book: TourneyBook) -> None:
    """Two tournaments entered at once with chips for only one: the one refused must
    be told it lacks chips -- not that it entered already (it did not)."""
    fee = 600
    a = book.create("A", "habanero", 3, fee, 30, "random", time.time() + 3600)
    b = book.create("B", "habanero", 3, fee, 30, "random", time.time() + 3600)
    fund(book, 1)
    got: list[BaseException | None] = []
    with book.engine.connect() as c:
        tx = c.begin()                          # tournament A's entry, not committed yet
        c.execute(tourney_entries.insert().values(tourney_id=a.id, account_id=1, name="Ana",
                                                  joined=int(time.time()), ticket="t" * 16))
        ledger.move(c, f"tourney-entry:{a.id}:{'t' * 16}", ledger.player(1), a.pot, fee, "x")

        def enter_b() -> None:
            try:
                book.join(b, 1, "Ana", time.time())
                got.append(None)
            except BaseException as e:
                got.append(e)

        th = threading.Thread(target=enter_b)
        th.start()
        time.sleep(0.6)                         # B's entry has read the balance by now
        tx.commit()
        th.join(30)
    assert len(got) == 1 and got[0] is not None
    assert isinstance(got[0], TuteError) and got[0].key == "not_enough_chips", repr(got[0])
    assert entry(book, b.id, 1) is None and chips(book, 1) == FUND - fee
    assert ledger.check(book.engine) == []


def test_one_entrant_cancels_refunds_and_refuses_everything_after(book: TourneyBook) -> None:
    t = new_tourney(book, 1)
    fund(book, 2)
    book.join(t, 2, "P2", time.time())
    book.leave(t, 2)                            # left before: refunded already
    assert book.start(book.get(t.id), t.starts) is False
    assert book.start(book.get(t.id), t.starts) is False    # a second director: nothing
    now = book.get(t.id)
    assert now.status == "cancelled" and book.boards(t.id) == []
    assert chips(book, 1) == FUND and chips(book, 2) == FUND and chips(book, t.pot) == 0
    for account in (1, 2):
        with pytest.raises(TourneyError) as left:
            book.leave(now, account)
        assert left.value.key in ("tourney_over", "tourney_not_entered")
        with pytest.raises(TourneyError) as joined:
            book.join(now, account, "P", t.starts - 10)
        assert joined.value.key == "tourney_not_open"
    assert not book.finish(now, time.time())
    assert ledger.check(book.engine) == []


def test_nobody_entered_cancels_quietly(book: TourneyBook) -> None:
    t = new_tourney(book, 0, fee=0)
    assert book.start(t, t.starts) is False and book.get(t.id).status == "cancelled"
    assert ledger.check(book.engine) == []


def test_a_late_join_with_a_stale_view_lands_in_a_cancelled_tourney(book: TourneyBook
                                                                     ) -> None:
    """The join route reads the tournament (open), its clock says "before the start"
    (another process's clock, or a thread that waited); meanwhile the director
    started it -- cancelled, with one entrant.  The join must be refused: else the fee
    goes into the pot of a cancelled tournament that nothing ever pays out."""
    t = new_tourney(book, 1)
    seen = book.get(t.id)                                   # the join route's read
    assert book.start(book.get(t.id), t.starts) is False    # the director: cancelled
    fund(book, 2)
    with pytest.raises(TourneyError):
        book.join(seen, 2, "P2", t.starts - 0.5)
    assert chips(book, 2) == FUND and chips(book, t.pot) == 0


def test_a_late_join_with_a_stale_view_is_not_paired_into_a_running_tourney(
        book: TourneyBook) -> None:
    t = new_tourney(book, 2)
    seen = book.get(t.id)
    assert book.start(book.get(t.id), t.starts)             # running, round 1
    fund(book, 3)
    with pytest.raises(TourneyError):
        book.join(seen, 3, "P3", t.starts - 0.5)
    assert entry(book, t.id, 3) is None and chips(book, 3) == FUND


def test_a_leave_with_a_stale_view_after_the_start_gets_no_refund(book: TourneyBook
                                                                  ) -> None:
    """The leave route reads the tournament (open); the director pairs round 1; the
    leave then refunds the fee as if before the start, though the entrant is paired and
    plays: a free roll.  After the start a leave is a withdrawal (no fee back)."""
    t = new_tourney(book, 3)
    seen = book.get(t.id)                                   # the leave route's read
    assert book.start(book.get(t.id), t.starts)             # the director: round 1
    assert 1 in seated(book, t.id)
    with contextlib.suppress(TourneyError):     # refused: fine too
        book.leave(seen, 1)
    assert chips(book, 1) == FUND - FEE, "refunded though paired in round 1"
    assert entry(book, t.id, 1).withdrawn != 0
    assert ledger.check(book.engine) == []


def test_a_leave_while_the_first_round_is_paired_is_not_paired_and_refunded(
        book: TourneyBook, monkeypatch: pytest.MonkeyPatch) -> None:
    """The director reads the entries to pair round 1; before it writes the boards, a
    leave (the status still open) refunds one of them; the boards then pair the one
    who left and was paid back."""
    t = new_tourney(book, 4)
    elsewhere = TourneyBook(book.engine)        # the leave route, in another thread
    real = book.boards
    fired: list[bool] = []

    def boards_then_a_leave(tourney_id: str) -> Any:
        out = real(tourney_id)
        if not fired:
            fired.append(True)
            with contextlib.suppress(TourneyError):
                elsewhere.leave(elsewhere.get(t.id), 4)
        return out

    monkeypatch.setattr(book, "boards", boards_then_a_leave)
    book.start(book.get(t.id), t.starts)
    four = entry(book, t.id, 4)
    refunded = chips(book, 4) == FUND
    assert not (refunded and 4 in seated(book, t.id)), \
        f"entrant 4 refunded (withdrawn={four.withdrawn}) and paired in round 1"
    assert ledger.check(book.engine) == []


def test_withdrawn_is_never_paired_and_a_drawn_odd_tourney_pays_to_the_last_chip(
        book: TourneyBook) -> None:
    """Five entrants, every game drawn (places tied), one withdrawing after round 1,
    a leave refused after the end: nobody withdrawn is paired, each plays once a round,
    the pot ends at 0, nobody gets more than the pot, the ledger holds."""
    t = new_tourney(book, 5, rounds=3)
    assert book.start(book.get(t.id), t.starts)
    finish_round(book, t.id)
    book.leave(book.get(t.id), 5)                           # running: a withdrawal
    assert chips(book, 5) == FUND - FEE
    with pytest.raises(TourneyError) as again:
        book.leave(book.get(t.id), 5)
    assert again.value.key == "tourney_not_entered"
    for r in (2, 3):
        seen = book.get(t.id)
        assert book.pair_next(seen)
        assert not book.pair_next(seen)                     # a second director: nothing
        boards = [s for s in book.boards(t.id) if s.round == r]
        players = [x for s in boards for x in people_of(s)]
        assert sorted(players) == [1, 2, 3, 4], (r, boards)
        finish_round(book, t.id)
    before = {a: chips(book, a) for a in range(1, 6)}
    assert book.finish(book.get(t.id), time.time())
    assert not book.finish(book.get(t.id), time.time())     # once
    pot = 5 * FEE
    won = {a: chips(book, a) - before[a] for a in range(1, 6)}
    assert all(0 <= w <= pot for w in won.values())
    assert sum(won.values()) <= pot - pot * ledger.BANK_SHARE // 100
    assert chips(book, t.pot) == 0 and ledger.check(book.engine) == []
    with pytest.raises(TourneyError) as over:
        book.leave(book.get(t.id), 1)
    assert over.value.key == "tourney_over"
    with pytest.raises(TourneyError):
        book.join(book.get(t.id), 9, "Tarde", time.time())


def test_a_second_director_does_not_redraw_the_pairs_of_a_running_tourney(
        book: TourneyBook) -> None:
    """Every process runs a director.  One starts a parejas tournament (the pairs drawn,
    round 1 paired); another, which read the tournament as open a moment before, starts
    it too: its pairing writes nothing -- but its draw must not either, or the entries'
    pairs are no longer those seated at round 1's boards (standings, pairings and
    prizes then follow pairs that never played)."""
    t = book.create("Parejas", "parejas", 3, FEE, 30, "random", time.time() + 3600)
    for a in range(1, 9):
        fund(book, a)
        book.join(t, a, f"P{a}", time.time())
    seen = book.get(t.id)                       # the second director's read
    assert book.start(book.get(t.id), t.starts)
    before = {e.account: e.team for e in book.entries(t.id)}
    for _ in range(3):
        assert not book.start(seen, t.starts)
    after = {e.account: e.team for e in book.entries(t.id)}
    assert after == before
    teams = set(after.values())
    assert all(s.a in teams and (s.b is None or s.b in teams) for s in book.boards(t.id))


def test_a_parejas_tourney_pays_its_pairs_to_the_last_chip(book: TourneyBook) -> None:
    """Five people at parejas (two asking for each other, the odd one out with the
    robot), a partner withdrawing: the pot ends at 0, each pair's prize split, nobody
    paid more than the pot, the ledger holds; a partner asked for by oneself or at a
    game of two is refused."""
    t = book.create("Parejas", "parejas", 2, FEE, 30, "random", time.time() + 3600)
    for a in range(1, 6):
        fund(book, a)
    with pytest.raises(TourneyError):
        book.join(t, 1, "P1", time.time(), partner=1)
    two = book.create("Copa", "habanero", 2, FEE, 30, "random", time.time() + 3600)
    with pytest.raises(TourneyError):
        book.join(two, 1, "P1", time.time(), partner=2)
    book.join(t, 1, "P1", time.time(), partner=2)
    book.join(t, 2, "P2", time.time(), partner=1)
    for a in (3, 4, 5):
        book.join(t, a, f"P{a}", time.time())
    assert book.start(book.get(t.id), t.starts)
    teams = {e.account: e.team for e in book.entries(t.id)}
    assert teams[1] == teams[2] and len(set(teams.values())) == 3
    finish_round(book, t.id, 1.0)
    book.leave(book.get(t.id), 2)
    assert book.pair_next(book.get(t.id))
    finish_round(book, t.id, 0.0)
    before = {a: chips(book, a) for a in range(1, 6)}
    assert book.finish(book.get(t.id), time.time())
    won = {a: chips(book, a) - before[a] for a in range(1, 6)}
    pot = 5 * FEE
    assert all(0 <= w <= pot for w in won.values()) and sum(won.values()) <= pot
    assert chips(book, t.pot) == 0 and ledger.check(book.engine) == []


def test_malformed_ids_are_no_such_tourney(book: TourneyBook) -> None:
    for bad in (None, 7, b"0123456789ab", "", "x", "0123456789AB", "0123456789abc",
                "0123456789a", "../../etc/x", "0123456789ab\n", "٠١٢٣٤٥٦٧٨٩ab",
                "0123456789ab' OR '1'='1", "f" * 10_000, "0123456789ab"):
        with pytest.raises(TourneyError) as e:
            book.get(bad)
        assert e.value.key == "no_such_tourney"


# ---------------------------------------------------------------------- the prizes
def _tables(n: int) -> Iterator[list[Standing]]:
    """Every way ``n`` entrants can be ranked with ties (ranks as standings() gives)."""
    for cuts in itertools.product((False, True), repeat=max(0, n - 1)):
        rows, rank = [], 1
        for i in range(n):
            if i and cuts[i - 1]:
                rank = i + 1
            rows.append(Standing(rank, f"a{i + 1}", 0.0, 0.0, 0.0, 0, 0))
        yield rows


def test_prizes_empty_the_pot_and_never_pay_more_than_it() -> None:
    for n in range(1, 11):
        for table in _tables(n):
            for pot in (1, 3, 7, 99, 100, 101, 1234, 99_999, 10**9 + 7):
                paid, bank = prizes(pot, table, ledger.BANK_SHARE)
                assert all(c >= 0 for c in paid.values()) and bank >= 0
                assert sum(paid.values()) + bank == pot, (n, pot, table)
                assert bank >= pot * ledger.BANK_SHARE // 100
                assert all(c <= pot for c in paid.values())
                rank = {s.entrant: s.rank for s in table}
                for x, y in itertools.combinations(table, 2):
                    gx, gy = paid.get(x.entrant, 0), paid.get(y.entrant, 0)
                    if x.rank == y.rank:
                        assert gx == gy, (table, paid)
                    elif x.rank < y.rank:
                        assert gx >= gy, (table, paid)
                places = paid_places(n)
                assert all(rank[e] <= places for e, c in paid.items() if c > 0)


# ---------------------------------------------------------------------- the CLI
@pytest.mark.parametrize("argv", [
    ["--rounds", "0"], ["--rounds", "16"], ["--rounds", "-3"],
    ["--fee", "-1"], ["--fee", "100001"], ["--fee", str(10**30)],
    ["--move-seconds", "4"], ["--move-seconds", "301"], ["--move-seconds", "-30"],
    ["--robots", "nadie"], ["--variant", "tres"], ["--variant", "no-such-game"],
    ["--starts-in", "nan"], ["--starts-in", "inf"], ["--starts-in", "1e300"],
    ["--starts-in=-1e300"],
], ids=lambda argv: " ".join(argv).lstrip("-").replace(" ", "="))
def test_cli_tourney_new_refuses_bad_values_in_words(tmp_path: Path, argv: list[str],
                                                     capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    """Out-of-range or absurd values: exit 2 with a sentence, nothing stored (no
    traceback, no tournament that cannot be listed)."""
    db = f"sqlite:///{tmp_path / 'db.sqlite'}"
    try:
        rc = cli(["admin", "tourney", "new", "--db", db, *argv])
    except SystemExit as e:                     # argparse's own refusal: words, exit 2
        rc = int(e.code or 0)
    err = capsys.readouterr().err
    assert rc == 2 and err.strip(), err
    store = Store(db)
    try:
        assert TourneyBook(store.engine).listed() == []
    finally:
        store.close()


# ---------------------------------------------------------------------- the API
def _wait(test: Any, timeout: float = 30, what: str = "") -> Any:
    end = time.time() + timeout
    while time.time() < end:
        got = test()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError(f"not in time: {what}")


def test_api_refuses_guests_strangers_poor_and_malformed(db: str) -> None:
    s = Server(db)
    try:
        book = TourneyBook(s.lobby.store.engine)
        rich = book.create("Copa", "habanero", 3, FEE, 30, "random", time.time() + 3600)
        dear = book.create("Cara", "habanero", 3, FUND + 1, 30, "random",
                           time.time() + 3600)
        guest = s.client("127.0.0.50")
        for path in (f"/api/tourneys/{rich.id}/join", f"/api/tourneys/{rich.id}/leave"):
            r = guest.post(path)
            assert r.status_code == 401 and r.json()["key"] == "not_logged_in"
        ana = s.account("Ana", "127.0.0.51")
        for bad in ("nope", "0123456789AB", "0123456789abc", "%2e%2e", "f" * 5000,
                    "000000000000"):
            for r in (ana.get(f"/api/tourneys/{bad}"),
                      ana.post(f"/api/tourneys/{bad}/join"),
                      ana.post(f"/api/tourneys/{bad}/leave")):
                assert r.status_code in (404, 414), (bad, r.status_code, r.text)
        r = ana.post(f"/api/tourneys/{dear.id}/join")
        assert r.status_code in (400, 409) and r.json()["key"] == "not_enough_chips"
        assert r.json()["error"]
        assert book.entries(dear.id) == []
        assert ana.get("/api/me").json()["chips"] == FUND
        r = ana.post(f"/api/tourneys/{rich.id}/leave")
        assert r.status_code == 409 and r.json()["key"] == "tourney_not_entered"
        # eight of Ana's requests at once: one entry, one fee
        gate = threading.Barrier(8)
        codes: list[int] = []

        def join() -> None:
            gate.wait()
            codes.append(ana.post(f"/api/tourneys/{rich.id}/join").status_code)

        threads = [threading.Thread(target=join) for _ in range(8)]
        for th in threads:
            th.start()
        for th in threads:
            th.join(30)
        assert sorted(codes) == [200] + [409] * 7, codes
        assert ana.get("/api/me").json()["chips"] == FUND - FEE
        seen = ana.get(f"/api/tourneys/{rich.id}").json()
        assert seen["entered"] and seen["pot"] == FEE and len(seen["entrants"]) == 1
        assert ana.post(f"/api/tourneys/{rich.id}/leave").status_code == 200
        assert ana.get("/api/me").json()["chips"] == FUND
        assert ledger.check(s.lobby.store.engine) == []
    finally:
        s.stop()


# ---------------------------------------------------------------------- the tables
def _event(kind: str) -> Any:
    return lambda m: m.get("type") == "event" and m["event"]["kind"] == kind


def _refused(w: Any, message: dict[str, Any]) -> str:
    """The key of the refusal ``message`` gets (AssertionError if none comes)."""
    w.send(json.dumps(message))
    got = until(w, lambda m: m.get("type") in ("error", "hint"), 10)
    return str(got.get("key") or got["type"])


def _running(s: Server, people: list[Client], fee: int, rounds: int = 1) -> tuple[str, Any]:
    """A tournament of ``people``, started by the director; (its id, Ana's view once
    every board of round 1 has its table)."""
    book = TourneyBook(s.lobby.store.engine)
    t = book.create("Copa", "habanero", rounds, fee, 30, "random", time.time() + 4.0)
    for c in people:          # (entered before the start even on a loaded machine)
        r = c.post(f"/api/tourneys/{t.id}/join")
        assert r.status_code == 200, r.text

    def opened() -> Any:
        v = people[0].get(f"/api/tourneys/{t.id}").json()
        ids = [b["table"] for b in v["boards"]]
        return v if ids and all(i in s.lobby.tables and s.table(i).status == "playing"
                                for i in ids) else None
    return t.id, _wait(opened, 30, "round 1's tables")


def test_a_tourney_table_refuses_strangers_a_second_match_annulment_and_options(
        tmp_path: Path) -> None:
    s = Server(f"sqlite:///{tmp_path / 'db.sqlite'}")
    try:
        ana, bea = s.account("Ana", "127.0.0.2"), s.account("Bea", "127.0.0.3")
        zoe, guest = s.account("Zoe", "127.0.0.4"), s.client("127.0.0.5")
        tid, view = _running(s, [ana, bea], FEE)
        table = view["table"]["id"]
        host = ana if view["table"]["seat"] == 0 else bea
        other = bea if host is ana else ana
        # outsiders: no seat; watching only
        for c in (zoe, guest):
            with c.ws(table) as w:
                assert until(w, lambda m: m.get("type") == "error")["key"] == "not_seated"
            with c.ws(table, watch=True) as w:
                until(w, _event("state"))
                assert _refused(w, {"type": "start"}) == "only_host"
                for m in ({"type": "annul", "agree": True}, {"type": "leave"},
                          {"type": "automatic", "on": True}, {"type": "hint"},
                          {"type": "act", "action": "Ao"}, {"type": "rematch"}):
                    assert _refused(w, m) in ("not_seated", "out_of_turn"), m
            r = c.post(f"/api/tables/{table}/seats", {"seat": 1, "name": "Intrusa"})
            assert r.status_code >= 400 and r.json()["key"] in ("table_started", "seat_taken")
            for path in ("robots", "start", "options"):
                r = c.post(f"/api/tables/{table}/{path}", {} if path != "options"
                           else {"variant": "habanero(match_target=1)"})
                assert r.status_code >= 400, (path, r.text)
        # the entrants themselves, mid-match
        with host.ws(table) as hw, other.ws(table) as ow:
            until(hw, _event("state"))
            until(ow, _event("state"))
            assert _refused(hw, {"type": "start"}) == "table_started"
            assert _refused(ow, {"type": "start"}) == "only_host"
            assert _refused(hw, {"type": "annul", "agree": True}) == "tourney_no_annul"
            assert _refused(ow, {"type": "annul", "agree": True}) == "tourney_no_annul"
            r = host.post(f"/api/tables/{table}/options",
                          {"variant": "habanero(match_target=1)", "bet": 0})
            assert r.status_code >= 400 and r.json()["key"] in ("table_started",
                                                                "tourney_table")
            assert host.post(f"/api/tables/{table}/robots").status_code >= 400
            # played out, then a second match tried every way
            hw.send(json.dumps({"type": "automatic", "on": True}))
            ow.send(json.dumps({"type": "automatic", "on": True}))
            until(hw, _event("match_over"), 120)
            until(ow, _event("match_over"), 120)
            assert _refused(hw, {"type": "start"}) == "tourney_table"
            r = host.post(f"/api/tables/{table}/options",
                          {"variant": "habanero(match_target=1)"})
            assert r.status_code >= 400 and r.json()["key"] == "tourney_table"
            hw.send(json.dumps({"type": "rematch", "agree": True}))
            until(hw, _event("rematch_vote"))
            assert _refused(ow, {"type": "rematch", "agree": True}) == "tourney_table"
        assert s.table(table).state.matches == 1
        book = TourneyBook(s.lobby.store.engine)
        _wait(lambda: book.get(tid).status == "over", 30, "the end")
        engine = s.lobby.store.engine
        assert ledger.check(engine) == []
        with engine.connect() as c:
            assert ledger.balance(c, f"tourney:{tid}") == 0
        assert [b.score is not None for b in book.boards(tid)] == [True]
    finally:
        s.stop()


def test_no_hints_at_a_tourney_table(tmp_path: Path) -> None:
    """Chips are at stake (the prizes): the robot's advice must not be on tap there,
    as at any table where chips or XP are at stake ("no_hints_here")."""
    s = Server(f"sqlite:///{tmp_path / 'db.sqlite'}")
    try:
        ana, bea = s.account("Ana", "127.0.0.2"), s.account("Bea", "127.0.0.3")
        _, view = _running(s, [ana, bea], FEE)
        table = view["table"]["id"]
        with ana.ws(table) as aw, bea.ws(table) as bw:
            states = [until(aw, _event("state")), until(bw, _event("state"))]
            turn = next(i for i, m in enumerate(states) if (m.get("view") or {}).get("legal"))
            w = (aw, bw)[turn]
            w.send(json.dumps({"type": "hint"}))
            try:                                # a refusal comes at once; a hint is thought
                got = until(w, lambda m: m.get("type") in ("error", "hint"), 4)
            except (AssertionError, TimeoutError):
                got = {"type": "no refusal in 4 s: a hint being thought"}
            assert got.get("key") == "no_hints_here", got
    finally:
        s.stop()


def test_leaving_a_bye_board_does_not_close_its_table(tmp_path: Path) -> None:
    """Three entrants: one plays the bye's robot and leaves its table ("Salir").  The
    robot must play the seat on (a tournament's game is played out): if the lobby's
    sweep closes the table as deserted, the board never gets a result, the director
    never opens it again (it is stored), and the round -- the tournament, its pot --
    waits forever."""
    s = Server(f"sqlite:///{tmp_path / 'db.sqlite'}", robot_delay=0.5)
    try:
        people = [s.account(n, f"127.0.0.{k + 2}") for k, n in enumerate(("Ana", "Bea",
                                                                           "Ciro"))]
        ids = [int(c.get("/api/me").json()["id"]) for c in people]
        tid, _ = _running(s, people, FEE)
        bye = next(b for b in TourneyBook(s.lobby.store.engine).boards(tid) if b.b is None)
        lone = people[ids.index(people_of(bye)[0])]
        table = bye.table_id
        with lone.ws(table) as w:
            until(w, _event("state"))
            w.send(json.dumps({"type": "leave"}))
            until(w, _event("abandon"))
        s.call(s.lobby.sweep())
        swept = table not in s.lobby.tables
        s.call(s.app.state.director.step())     # does the director open it again?
        assert not swept, ("the bye's table was closed as deserted; opened again by the "
                           f"director: {table in s.lobby.tables}")
        assert s.table(table).status == "playing"
    finally:
        s.stop()


def test_cli_tourney_new_after_2038_is_stored_or_refused_in_words(
        db: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A start 20 years ahead (past 2038-01-19, the end of a 32-bit integer): kept and
    listed, or refused with a sentence -- never a database fault."""
    try:
        rc = cli(["admin", "tourney", "new", "--db", db, "--starts-in", str(20 * 365 * 1440)])
    except Exception as e:
        pytest.fail(f"a fault, not a refusal: {e!r}"[:300])
    err = capsys.readouterr().err
    store = Store(db)
    try:
        kept = TourneyBook(store.engine).listed()
    finally:
        store.close()
    assert (rc == 0 and len(kept) == 1) or (rc == 2 and err.strip() and kept == [])


def test_a_board_whose_table_failed_to_open_is_opened_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The director says of a board's table that failed to open: "it is tried again".
    A passing store fault while the second entrant is seated (the table made, its host
    seated) must not leave the board for ever at a table that never starts -- one the
    director never opens again (it is in the lobby), which the sweep later closes."""
    from tute.server.store import StoreError
    from tute.server.tables.runtime import TableRuntime

    real = TableRuntime.sit
    failed: list[bool] = []

    async def sit_once_failing(self: TableRuntime, *args: Any, **kw: Any) -> None:
        if self.options.tourney is not None and not failed:
            failed.append(True)
            raise StoreError("table_not_saved")
        await real(self, *args, **kw)

    monkeypatch.setattr(TableRuntime, "sit", sit_once_failing)
    s = Server(f"sqlite:///{tmp_path / 'db.sqlite'}")
    try:
        ana, bea = s.account("Ana", "127.0.0.2"), s.account("Bea", "127.0.0.3")
        book = TourneyBook(s.lobby.store.engine)
        t = book.create("Copa", "habanero", 1, FEE, 30, "random", time.time() + 4.0)
        for c in (ana, bea):
            assert c.post(f"/api/tourneys/{t.id}/join").status_code == 200
        board = _wait(lambda: book.boards(t.id), 10, "round 1")[0]
        _wait(lambda: failed, 10, "the failed opening")

        def started() -> bool:
            table = s.lobby.tables.get(board.table_id)
            return table is not None and table.status == "playing"
        try:
            _wait(started, 5, "the table opened again")
        except AssertionError:
            table = s.lobby.tables.get(board.table_id)
            pytest.fail("the board's table never started: "
                        f"{None if table is None else (table.status, sorted(table.seats))}")
    finally:
        s.stop()


def test_a_join_and_leave_storm_on_sqlite_never_answers_500(tmp_path: Path) -> None:
    """Several people enter and leave at once, again and again, while another
    connection to the same SQLite file (``tute admin``, a backup) holds the write lock
    for longer than the store's busy timeout: every answer is an entry, a leave or a
    refusal in words -- never a 500 ("database is locked") -- and no chip goes astray."""
    import sqlite3

    path = tmp_path / "storm.sqlite"
    s = Server(f"sqlite:///{path}")
    try:
        book = TourneyBook(s.lobby.store.engine)
        t = book.create("Copa", "habanero", 3, FEE, 30, "random", time.time() + 3600)
        people = [s.account(f"Gente{i}", f"127.0.0.{70 + i}") for i in range(6)]
        gate = threading.Barrier(len(people) + 1)
        got: list[tuple[int, str]] = []

        def storm(c: Client) -> None:
            gate.wait()
            time.sleep(0.2)                         # the lock taken first
            for _ in range(6):
                for way in ("join", "leave"):
                    r = c.post(f"/api/tourneys/{t.id}/{way}")
                    got.append((r.status_code, r.text[:300]))
                    if r.status_code == 503:            # "try again": the page does
                        r = c.post(f"/api/tourneys/{t.id}/{way}")
                        got.append((r.status_code, r.text[:300]))

        def holder() -> None:
            gate.wait()
            other = sqlite3.connect(path, timeout=30, isolation_level=None)
            try:
                for _ in range(2):
                    other.execute("BEGIN IMMEDIATE")      # the write lock, 2.6 s
                    time.sleep(2.6)
                    other.execute("COMMIT")
                    time.sleep(0.2)
            finally:
                other.close()
        threads = [threading.Thread(target=storm, args=(c,)) for c in people]
        threads.append(threading.Thread(target=holder))
        for th in threads:
            th.start()
        for th in threads:
            th.join(180)
        faults = [g for g in got if g[0] >= 500 and not (
            g[0] == 503 and json.loads(g[1]).get("key") == "store_busy")]
        assert faults == [], faults[:3]
        assert len(got) >= len(people) * 12, "a client's request failed outright"
        for code, text in got:
            if code != 200:
                assert json.loads(text)["error"], text       # said in words
        assert all(e.withdrawn == 0 for e in book.entries(t.id))
        assert chips(book, t.pot) == 0
        assert all(c.get("/api/me").json()["chips"] == FUND for c in people)
    finally:
        s.stop()


def test_an_entry_locked_out_for_long_is_refused_in_words(
        book: TourneyBook, db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the write lock stays held past every try, the entry (and an arena's mark
    of who waits on its page) is refused as "the server is busy, try again" (a
    StoreError: 503), nothing written."""
    import sqlite3

    from tute.server.site import tourneyrows
    from tute.server.store import StoreError

    if not db.startswith("sqlite"):
        pytest.skip("SQLite's one writer")
    t = book.create("Copa", "habanero", 3, FEE, 30, "random", time.time() + 3600)
    fund(book, 7)
    other = sqlite3.connect(db.removeprefix("sqlite:///"), isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        monkeypatch.setattr(tourneyrows, "BUSY_TRIES", 1)
        with pytest.raises(StoreError) as refused:
            book.join(t, 7, "Ana", time.time())
        with pytest.raises(StoreError):               # an arena's "on its page" too
            book.seen(t.id, 7, time.time())
        assert refused.value.key == "store_busy" and refused.value.localized("es")
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert book.entries(t.id) == [] and chips(book, 7) == FUND
