"""Achievements as rules on a table's event log: what a person did in a counted match
(:mod:`tute.server.tables.feats`), folded into achievements each earned once, in the
order the matches ended (:mod:`tute.server.site.achievements`); practice, annulled and
automatic play earn nothing; the store keeps a match's feats once."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace

from sqlalchemy import create_engine

from tute.bots import HeuristicBot
from tute.core.actions import DeclareTute
from tute.core.cards import Rank
from tute.core.match import Match
from tute.core.result import Contract, HandResult
from tute.core.variants import parse_variant
from tute.server.db import migrate
from tute.server.site.achievements import (
    CATALOGUE,
    GAMES_GOAL,
    STREAK_GOAL,
    Achievements,
    Feat,
    earned,
    new_ones,
)
from tute.server.site.economy import winning_seats
from tute.server.store import Event
from tute.server.tables.decide import act, start
from tute.server.tables.events import (
    Annulled,
    AutomaticSet,
    OptionsSet,
    Seated,
    SeatGain,
    Settled,
    TableEvent,
    stored,
    typed,
)
from tute.server.tables.feats import hand_feats, table_feats
from tute.server.tables.options import Options
from tute.server.tables.state import TableState, apply

Hook = Callable[[TableState, list[TableEvent]], None]


def _log(variant: str = "habanero", seed: int = 1, *, competitive: bool = True,
         practice: bool = False, people: int = 2, automatic: frozenset[int] = frozenset(),
         annul_after: int | None = None, settle_xp: int = 20,
         before_each: Hook | None = None) -> list[Event]:
    """A table's stored events: people (accounts 100 + seat) and robots seated, one
    match played by L1 robots for everybody, settled with ``settle_xp`` each."""
    v = parse_variant(variant)
    state = TableState(Options(v, "heuristic", 0.0))
    out: list[Event] = []

    def emit(events: list[TableEvent]) -> None:
        for e in events:
            seq = state.seq + 1
            apply(state, seq, e)
            out.append(stored(seq, e))

    emit([OptionsSet(str(v), "heuristic", 0.0, competitive)])
    emit([Seated(s, f"P{s}", s >= people, None if s >= people else f"k{s}",
                 None if s >= people else 100 + s) for s in range(v.players)])
    emit(start(state, None, seed, "a", "practice" if practice else None))
    emit([AutomaticSet(s, True) for s in sorted(automatic)])
    bots = [HeuristicBot(s) for s in range(v.players)]
    actions = 0
    while state.match is not None and not state.match.is_over:
        m = state.match
        if annul_after is not None and actions == annul_after:
            emit([Annulled(list(range(people)))])
            return out
        game_seat = m.game.to_act
        assert game_seat is not None
        view = m.game.view(game_seat)
        action = bots[m.seat_map[game_seat]].choose(view)
        if before_each is not None:
            extra: list[TableEvent] = []
            before_each(state, extra)
            emit(extra)
        seat = m.seat_map[game_seat]
        emit(act(state, None, seat, str(action), seat in automatic).events)
        actions += 1
    if not practice and competitive:
        emit([Settled([SeatGain(s, 0, settle_xp) for s in range(people)], 1_000 + seed)])
    return out


def test_a_settled_match_gives_each_person_their_feats() -> None:
    log = _log("habanero", seed=3)
    feats = table_feats("t1", log, "habanero", "heuristic")
    assert sorted(f.account for f in feats) == [100, 101]
    assert all(f.table_id == "t1" and f.match == 1 and f.at == 1_003 and
               f.preset == "habanero" for f in feats)
    winners = [f for f in feats if f.won]
    assert len(winners) == 1
    # the feats are the hands' own: every cuarenta the log shows is there
    sang = {e.data["seat"] for e in log if e.kind == "action" and e.data["action"] == "40"}
    for f in feats:
        assert ("forty" in f.things) == (f.account - 100 in sang)


def test_practice_annulled_robots_and_automatic_play_earn_nothing() -> None:
    assert table_feats("t", _log(practice=True), "habanero", "heuristic") == []
    assert table_feats("t", _log(competitive=False), "habanero", "heuristic") == []
    assert table_feats("t", _log(annul_after=30), "habanero", "heuristic") == []
    unearned = table_feats("t", _log(seed=3, settle_xp=0), "habanero", "heuristic")
    assert [(f.counted, f.won, f.things) for f in unearned] == \
        [(False, False, frozenset())] * 2              # no XP: kept, counting for nothing
    assert not any(p.done for p in earned(unearned).values())
    alone = table_feats("t", _log("parejas", people=1), "parejas", "heuristic")
    assert [f.account for f in alone] == [100]           # robots are nobody
    helped = table_feats("t", _log(seed=3, automatic=frozenset({0})), "habanero",
                         "heuristic")
    assert [f.things for f in helped if f.account == 100] == [frozenset()]


def test_a_clock_move_takes_that_hand_s_feats_only() -> None:
    """Seat 0's cuarenta in a hand where the clock played one of its cards is not its
    own; without that, the same hand gives it."""
    seed = next(s for s in range(1, 60) if any(
        e.kind == "action" and e.data == {"seat": 0, "action": "40"} for e in _log(seed=s)))
    plain = table_feats("t", _log(seed=seed), "habanero", "heuristic")
    assert "forty" in next(f for f in plain if f.account == 100).things

    def clock(state: TableState, extra: list[TableEvent]) -> None:
        extra.append(AutomaticSet(0, True)) if not state.automatic else None
    helped = table_feats("t", _log(seed=seed, before_each=clock), "habanero", "heuristic")
    assert "forty" not in next(f for f in helped if f.account == 100).things


def test_the_feats_a_hand_s_count_says() -> None:
    match = Match(parse_variant("parejas"), seed=1)
    won = HandResult(card_points=(70, 40), cantes=(0, 20), totals=(70, 60),
                     tricks_won=(6, 4), winner=0, last_trick=0)
    got = hand_feats(match, won)
    assert got[0] == got[2] == {"no_songs", "last_ten"} and 1 not in got
    wide = replace(won, totals=(100, 30), capote=0)
    assert hand_feats(match, wide)[0] == {"no_songs", "capote"}
    assert hand_feats(match, replace(won, void=True)) == {}
    sub = Match(parse_variant("subastado"), seed=1)
    made = HandResult(card_points=(10, 110, 10), cantes=(0, 40, 0), totals=(10, 150, 10),
                      tricks_won=(1, 7, 2), winner=1, last_trick=2,
                      contract=Contract(declarer=1, bid=100, made=True))
    assert hand_feats(sub, made)[sub.seat_map[1]] == {"contract_100"}
    small = replace(made, contract=Contract(declarer=1, bid=90, made=True))
    assert "contract_100" not in hand_feats(sub, small).get(sub.seat_map[1], set())


def test_a_tute_of_kings_and_one_of_knights_are_told_apart() -> None:
    """The tute's kind is the declaring hand's then: four Reyes or four Caballos (read
    here by replaying the log up to the declaration)."""
    kinds = {}
    for seed in (21, 24):                   # habanero deals where L1 declares each kind
        log = _log("habanero", seed=seed)
        feats = {f.account - 100: f.things for f in table_feats("t", log, "habanero",
                                                                "heuristic")}
        state = TableState(Options(parse_variant("habanero"), "heuristic", 0.0))
        for e in log:
            if e.kind == "action" and e.data["action"] == str(DeclareTute()):
                m = state.match
                assert m is not None
                seat = e.data["seat"]
                hand = m.game.hand(m.seat_map.index(seat))
                kings = sum(1 for c in hand if c.rank is Rank.REY) == 4
                knights = sum(1 for c in hand if c.rank is Rank.CABALLO) == 4
                assert kings or knights
                kind = "tute_kings" if kings else "tute_knights"
                assert kind in feats[seat]
                kinds[seed] = kind
            apply(state, e.seq, typed(e))
    assert kinds == {21: "tute_kings", 24: "tute_knights"}


def _feat(at: int, won: bool, preset: str = "habanero", things: frozenset[str] = frozenset(),
          account: int = 7) -> Feat:
    return Feat(account, f"t{at}", 1, at, preset, won, things)


def test_each_achievement_is_earned_once_in_the_order_matches_ended() -> None:
    feats = [_feat(3, True, things=frozenset({"forty"})), _feat(1, False),
             _feat(2, True, things=frozenset({"forty"}))]
    got = earned(feats)
    assert got["first_win"].at == 2 and got["first_win"].table_id == "t2"
    assert got["forty"].at == 2 and got["forty"].count == 1      # once, the first time
    assert got["streak"].count == 2 and not got["streak"].done   # 2 of 3 in a row
    assert got["capote"].count == 0 and got["capote"].at is None
    assert set(got) == {a.key for a in CATALOGUE}
    run = [_feat(t, True) for t in range(10, 10 + STREAK_GOAL)]
    assert earned(run)["streak"].at == 9 + STREAK_GOAL
    broken = [_feat(1, True), _feat(2, False), _feat(3, True), _feat(4, True)]
    assert not earned(broken)["streak"].done
    left = Feat(7, "tx", 1, 2, "habanero", False, frozenset(), counted=False)
    assert not earned([_feat(1, True), left, _feat(3, True), _feat(4, True)])["streak"].done
    assert earned([left])["games_habanero"].count == 0      # it counted for nothing
    ten = [_feat(t, False, "guinote") for t in range(GAMES_GOAL)]
    assert earned(ten)["games_guinote"].at == GAMES_GOAL - 1
    assert earned(ten[:-1])["games_guinote"].count == GAMES_GOAL - 1
    assert earned([_feat(1, True, "cabrero")])["survivor"].done
    assert new_ones([_feat(1, True)], [_feat(2, True, things=frozenset({"forty"}))]) == \
        {7: ["forty"]}                                           # not first_win again


def test_the_store_keeps_a_match_s_feats_once(tmp_path: object) -> None:
    engine = create_engine(f"sqlite:///{tmp_path}/a.db")
    migrate.upgrade(engine)
    trophies = Achievements(engine)
    first = [_feat(1, True, things=frozenset({"capote"})), _feat(1, False, account=8)]
    assert trophies.record(first) == {7: ["first_win", "capote"]}
    assert trophies.record(first) == {}                          # done again: nothing
    assert {p.key for p in trophies.of(7) if p.done} == {"first_win", "capote"}
    assert not any(p.done for p in trophies.of(8))
    assert trophies.compare(first) == ([], [])
    other = [*first, _feat(5, True)]
    assert trophies.compare(other) == ([_feat(5, True)], [])
    trophies.compare(other, write=True)
    assert trophies.compare(other) == ([], [])
    assert trophies.of(7)[[a.key for a in CATALOGUE].index("wins")].count == 2


def test_the_winner_s_first_win() -> None:
    log = _log("habanero", seed=5)
    state = TableState(Options(parse_variant("habanero"), "heuristic", 0.0))
    for e in log:
        apply(state, e.seq, typed(e))
    assert state.match is not None and any(e.kind == "match_over" for e in log)
    winners = winning_seats(state.match, list(state.seats))
    feats = table_feats("t", log, "habanero", "heuristic")
    news = new_ones([], feats)
    assert winners
    for seat in winners:
        assert "first_win" in news[100 + seat]
    for seat in {0, 1} - winners:
        assert "first_win" not in news.get(100 + seat, [])


def test_two_people_earn_and_see_their_achievements(db: str) -> None:
    """Ana and Bea play a competitive match through the real server: the table is told
    what each earned, the profile shows it (the winner's first win, never the loser's),
    and ``tute admin achievements`` rebuilds the same feats from the events."""
    from server_harness import Playing, Server, two_at_a_table
    from tute.cli import main

    s = Server(db)
    try:
        ana, bea, table = two_at_a_table(s, competitive=True, bet=10)
        with Playing(ana, table) as a, Playing(bea, table) as b:
            time.sleep(0.3)
            assert ana.post(f"/api/tables/{table}/start").status_code == 200
            a.wait()
            b.wait()
            assert a.paid.wait(10) and b.paid.wait(10), "no settled event"
            deadline = time.time() + 10
            while time.time() < deadline and not (a.earned and b.earned):
                time.sleep(0.05)
        t = s.lobby.tables[table]
        assert t.match is not None
        winners = winning_seats(t.match, list(t.seats))
        told = {e["seat"]: e for e in a.earned}
        assert {e["seat"]: e for e in b.earned} == told          # every page is told
        for seat, c in ((0, ana), (1, bea)):
            mine = {p["key"]: p for p in c.get("/api/me").json()["achievements"]}
            assert set(mine) == {x.key for x in CATALOGUE}
            assert mine["first_win"]["at"] is not None if seat in winners \
                else mine["first_win"]["at"] is None
            assert mine["games_habanero"]["count"] == 1 and mine["games_habanero"]["goal"] \
                == GAMES_GOAL
            assert ("first_win" in told[seat]["keys"]) == (seat in winners) \
                if seat in told else seat not in winners
            assert told.get(seat, {}).get("name", c.get("/api/me").json()["name"]) == \
                c.get("/api/me").json()["name"]
        assert main(["admin", "achievements", "--db", db]) == 0
        engine = s.lobby.store.engine
        with engine.begin() as conn:                # a feat lost: found and put back
            conn.exec_driver_sql("DELETE FROM tute_feats WHERE account_id IN "
                                 "(SELECT MIN(account_id) FROM tute_feats)")
        assert main(["admin", "achievements", "--db", db]) == 1
        assert main(["admin", "achievements", "--db", db, "--write"]) == 0
        assert main(["admin", "achievements", "--db", db]) == 0
    finally:
        s.stop()


def test_people_at_one_address_earn_nothing(db: str) -> None:
    """A match the server made practice (two people at one address) is not settled:
    no feats, no achievements, nothing told."""
    from server_harness import Playing, Server, two_at_a_table

    s = Server(db)
    try:
        ana, bea, table = two_at_a_table(s, bea_address="127.0.0.1",   # the same address
                                         competitive=True, bet=10)
        with Playing(ana, table) as a, Playing(bea, table):
            time.sleep(0.3)
            assert ana.post(f"/api/tables/{table}/start").status_code == 200
            a.wait()
            time.sleep(0.5)
        assert a.earned == []
        for c in (ana, bea):
            assert not any(p["at"] for p in c.get("/api/me").json()["achievements"])
        with s.lobby.store.engine.connect() as conn:
            assert conn.exec_driver_sql("SELECT COUNT(*) FROM tute_feats").scalar() == 0
    finally:
        s.stop()
