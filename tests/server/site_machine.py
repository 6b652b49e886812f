"""The whole site as one system (issue 46): a Hypothesis state machine that drives
several people, a guest and a bot through the real server -- HTTP and sockets --
with the actions a person has (befriend, open and join tables competitive with bets,
practice and private, with robots; play, automatic play, annul, rematch, play again
from a decision, a duplicate series' deals, a tournament's entries, bot tokens) and
restarts of the server between steps, and after every step checks what must hold
whatever was done:

- the ledger sums to zero, and no pot of a finished match stays in escrow;
- no person's balance falls after a match they won;
- no one reads a card of a series deal before playing it, through any door (the kept
  game, its record, its TPN, its analysis, its hand face up, play-again, friends, the
  lobby, a spectator's socket);
- every kept game rebuilds from its events (it opens for a player of it), and the
  export of a closed series verifies with ``tute verify``'s checks;
- an analysis asked is never lost -- through restarts and workers that die holding a
  decision it runs (only forward) until a worker elsewhere (``/api/work``, with a key)
  has judged it, then reads the same every time;
- no answer is a 500, and every refusal is a typed error in the reader's language.

``tests/server/test_site_system.py`` runs it in the test command with a bounded number
of steps; ``scripts/soak`` runs many more and prints what it tried.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule
from sqlalchemy import update
from websockets.sync.client import connect

from server_harness import Client, Server, until
from tute.analysis import Settings
from tute.i18n import MESSAGES
from tute.server.db.schema import series as series_rows
from tute.server.site import ledger
from tute.server.site.economy import winning_seats
from tute.server.site.series import SeriesBook
from tute.server.site.tourneys import TourneyBook
from tute.server.site.workerkeys import WorkerKeys
from tute.server.tables import analyst, jobs
from tute.server.tables.worksite import SiteSource
from tute.tools.seriesfile import read_series, verify_series

PEOPLE = {"Ana": "127.0.0.2", "Bea": "127.0.0.3", "Caro": "127.0.0.4", "Dani": "127.0.0.5"}
LANGS = {"Ana": "es", "Bea": "en", "Caro": "pt", "Dani": "it"}    # each reads their own
GUEST = "127.0.0.9"
SERIES_DEALS = 2
# the site's analysis: judged by the machine's own worker elsewhere, step by step (the
# server runs none of its own), quickly; a lease lost in 2 s
ANALYSIS: dict[str, Any] = {"analysis": Settings(min_samples=4, max_samples=4), "analysts": 0,
            "analysis_lease": 2.0}
TRIED: Counter[str] = Counter()          # what the machine did, over every run (the soak)


class Refused(AssertionError):
    """An answer the site must never give: a 500, or a refusal not in words."""


@dataclass
class Person:
    """One browser: a person's account (or a guest) reading the site in ``lang``, every
    answer it gets checked."""

    name: str
    client: Client
    lang: str = "es"

    def _checked(self, method: str, path: str, r: httpx.Response) -> httpx.Response:
        if r.status_code >= 500:
            raise Refused(f"{self.name}: {method} {path} answered {r.status_code}: {r.text}")
        if r.status_code >= 400 and r.headers.get("content-type", "").startswith(
                "application/json"):
            body = r.json()
            key = body.get("key") if isinstance(body, dict) else None
            said = body.get("error") if isinstance(body, dict) else None
            texts = MESSAGES.get(str(key), {})
            if not key or not said or said == key or self.lang not in texts:
                raise Refused(f"{self.name}: {method} {path}: a refusal not in words "
                              f"of {self.lang}: {r.text}")
            if "{" not in texts[self.lang] and said != texts[self.lang]:
                raise Refused(f"{self.name}: {method} {path}: not said in {self.lang}: "
                              f"{said!r}")
        return r

    def _in_my_language(self, path: str) -> str:
        return f"{path}{'&' if '?' in path else '?'}lang={self.lang}"

    def get(self, path: str) -> httpx.Response:
        return self._checked("GET", path, self.client.get(self._in_my_language(path)))

    def post(self, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
        return self._checked("POST", path,
                             self.client.post(self._in_my_language(path), body))

    def chips(self) -> int:
        return int(self.get("/api/me").json()["chips"])


@dataclass
class Kept:
    """A finished match the site keeps: its id, who played it, and the series deal it
    is (or was played again from), if any."""

    game: str
    players: frozenset[str]
    series_deal: int | None = None


@dataclass
class World:
    """What the machine knows the site should hold."""

    kept: list[Kept] = field(default_factory=list)
    series_played: dict[str, set[int]] = field(default_factory=dict)   # person: deals
    series_tables: set[str] = field(default_factory=set)   # series deals and replays
    series_closed: bool = False
    entered: set[str] = field(default_factory=set)         # in the tournament
    tokens: list[tuple[int, str]] = field(default_factory=list)   # the bot's live ones
    revoked: list[str] = field(default_factory=list)
    asked: dict[str, tuple[str, str]] = field(default_factory=dict)  # analysis url: who
    analysed: dict[str, list[Any]] = field(default_factory=dict)     # url: its decisions
    progress: dict[str, int] = field(default_factory=dict)           # url: done, last seen


def _until_event(ws: Any, kinds: set[str], seconds: float) -> dict[str, Any]:
    """The first event of one of ``kinds`` (or an error message) on a table's socket."""
    return until(ws, lambda m: m.get("type") == "error" or (
        m.get("type") == "event" and m["event"].get("kind") in kinds), seconds)


class SiteMachine(RuleBasedStateMachine):
    """The site, driven as its people use it.  ``db_dir``: set by the test (a folder
    for the SQLite store) or ``db_url`` (PostgreSQL, emptied by the test)."""

    db_url: str = ""

    def __init__(self) -> None:
        super().__init__()
        self.server = Server(self.db_url, robot_delay=0.0, **ANALYSIS)
        self.port = self.server.port
        self.worker_key = WorkerKeys(self.server.lobby.store.engine).new("elsewhere")
        self.people = {n: Person(n, self.server.account(n, a), LANGS[n])
                       for n, a in PEOPLE.items()}
        self.guest = Person("guest", self.server.client(GUEST))
        engine = self.server.lobby.store.engine
        self.series = SeriesBook(engine).create("habanero", SERIES_DEALS, "random", 1.0)
        self.tourney = TourneyBook(engine).create("Copa", "habanero", 2, 10, 30, "random",
                                                  time.time() + 3600)
        bot = Person("Robotina", self.server.account("Robotina", "127.0.0.6"))
        assert bot.post("/api/me/bot", {"confirm": "Robotina"}).status_code == 200
        self.bot = bot
        self.world = World()
        self.steps_since_restart = 0

    def teardown(self) -> None:
        self.server.stop()

    # ------------------------------------------------------------------ helpers
    @property
    def engine(self) -> Any:
        return self.server.lobby.store.engine

    def _play_out(self, table: str, seated: list[Person], seconds: float = 120
                  ) -> dict[str, Any]:
        """Every person at ``table`` in automatic play until the match ends; the last
        message (``match_over``, ``annulled`` or an error)."""
        socks = []
        try:
            for p in seated:
                w = p.client.ws(table)
                socks.append(w)
                _until_event(w, {"state"}, 20)
                w.send(json.dumps({"type": "automatic", "on": True}))
            return _until_event(socks[0], {"match_over", "annulled"}, seconds)
        finally:
            for w in socks:
                w.close()

    def _settled(self, table: str) -> None:
        """Until the table's escrow is settled or returned (off the event loop)."""
        end = time.time() + 15
        while time.time() < end:
            if not any(t == table for t, _ in self.server.lobby.purse.open_escrows()):
                return
            time.sleep(0.05)
        raise AssertionError(f"table {table}: its pot stayed in escrow")

    def _winners_kept_their_chips(self, table: str, before: dict[str, int],
                                  bet: int | None = None) -> set[str]:
        """No person's balance falls after a match they won, nor by more than the bet
        after one they lost; the people at the table.  (A person who abandoned did not
        win: the robot that played the seat on may have, and the bet is forfeit.)"""
        t = self.server.lobby.tables[table]
        won = winning_seats(t.match, list(t.seats)) if t.match is not None else set()
        stake = t.options.bet if bet is None else bet
        names = {s: r.name for s, r in t.seats.items() if r.kind == "human"}
        for seat, name in names.items():
            after = self.people[name].chips()
            if seat in won and seat not in t.abandoned:
                assert after >= before[name], (table, name, "won", before[name], after)
            assert after >= before[name] - stake, (table, name, before[name], after)
        return set(names.values())

    def _two_bet_and_start(self, host: Person, rival: Person, options: dict[str, Any]
                           ) -> tuple[str, dict[str, int]] | None:
        """A competitive habanero table, bet 50, of ``host`` with ``rival`` in seat 1,
        started: the table and their balances before it (None: a step refused, in
        words -- too many tables, not enough chips...)."""
        r = host.post("/api/tables", {"variant": "habanero", "name": host.name,
                                      "competitive": True, "bet": 50, **options})
        if r.status_code != 200:
            return None
        table = str(r.json()["id"])
        if rival.post(f"/api/tables/{table}/seats", {"seat": 1, "name": rival.name}
                      ).status_code != 200:
            return None
        before = {p.name: p.chips() for p in (host, rival)}
        if host.post(f"/api/tables/{table}/start").status_code != 200:
            return None
        return table, before

    # ------------------------------------------------------------------ rules
    @rule(a=st.sampled_from(sorted(PEOPLE)), b=st.sampled_from(sorted(PEOPLE)))
    def befriend(self, a: str, b: str) -> None:
        TRIED["befriend"] += 1
        asker, asked = self.people[a], self.people[b]
        r = asker.post("/api/friends", {"name": b})
        if r.status_code != 200:
            return                                     # oneself, or already: in words
        for request in asked.get("/api/friends").json()["incoming"]:
            asked.post("/api/friends/answer", {"id": request["id"]})

    @rule(host=st.sampled_from(sorted(PEOPLE)), rivals=st.sets(
        st.sampled_from(sorted(PEOPLE)), max_size=3),
        variant=st.sampled_from(["habanero", "parejas"]),
        kind=st.sampled_from(["competitive", "practice", "private"]),
        bet=st.sampled_from([0, 50, 100]))
    def play_a_match(self, host: str, rivals: set[str], variant: str, kind: str,
                     bet: int) -> None:
        """A table opened, people sitting (the rest robots), the match played out in
        automatic play; a winner's balance never falls."""
        TRIED[f"match {variant} {kind}"] += 1
        h = self.people[host]
        options: dict[str, Any] = {"variant": variant, "name": host, "robot_level": "random"}
        if kind == "competitive":
            options.update(competitive=True, bet=bet)
        if kind == "private":
            options["private"] = True
        r = h.post("/api/tables", options)
        if r.status_code != 200:
            return
        table = str(r.json()["id"])
        seated = [h]
        seats = 2 if variant == "habanero" else 4
        for name in sorted(rivals - {host}):
            if len(seated) == seats:
                break
            got = self.people[name].post(f"/api/tables/{table}/seats",
                                         {"seat": len(seated), "name": name})
            if got.status_code == 200:
                seated.append(self.people[name])
        h.post(f"/api/tables/{table}/robots")
        before = {p.name: p.chips() for p in seated}
        if h.post(f"/api/tables/{table}/start").status_code != 200:
            return
        last = self._play_out(table, seated)
        assert last.get("type") == "event", last
        self._settled(table)
        names = self._winners_kept_their_chips(table, before, bet)
        self.world.kept.append(Kept(f"{table}-1", frozenset(names)))

    @rule(host=st.sampled_from(sorted(PEOPLE)), rival=st.sampled_from(sorted(PEOPLE)))
    def annul_a_match(self, host: str, rival: str) -> None:
        """Two people at a competitive table agree to annul its match: every bet back."""
        if host == rival:
            return
        TRIED["annul"] += 1
        h, o = self.people[host], self.people[rival]
        started = self._two_bet_and_start(h, o, {"move_seconds": 60,
                                                  "robot_level": "random"})
        if started is None:
            return
        table, before = started
        with h.client.ws(table) as a, o.client.ws(table) as b:
            _until_event(a, {"state"}, 20)
            _until_event(b, {"state"}, 20)
            a.send(json.dumps({"type": "annul"}))
            time.sleep(0.2)
            b.send(json.dumps({"type": "annul", "agree": True}))
            end = _until_event(a, {"annulled", "match_over"}, 30)
        self._settled(table)
        if end.get("type") == "event" and end["event"]["kind"] == "annulled":
            for p in (h, o):
                assert p.chips() == before[p.name], (table, p.name)

    @rule(host=st.sampled_from(sorted(PEOPLE)), rival=st.sampled_from(sorted(PEOPLE)),
          leave=st.booleans())
    def a_rematch_or_an_abandon(self, host: str, rival: str, leave: bool) -> None:
        """Two people bet against each other: one leaves mid-match (an abandon, the
        robot plays on), or both play it out and then agree to a rematch."""
        if host == rival:
            return
        TRIED["abandon" if leave else "rematch"] += 1
        h, o = self.people[host], self.people[rival]
        started = self._two_bet_and_start(h, o, {"robot_level": "random"})
        if started is None:
            return
        table, before = started
        matches = 1
        with h.client.ws(table) as a, o.client.ws(table) as b:
            _until_event(a, {"state"}, 20)
            _until_event(b, {"state"}, 20)
            if leave:
                b.send(json.dumps({"type": "leave"}))
                _until_event(a, {"abandon"}, 20)
            for w in (a, b) if not leave else (a,):
                w.send(json.dumps({"type": "automatic", "on": True}))
            end = _until_event(a, {"match_over"}, 120)
            assert end.get("type") == "event", end
            if not leave:
                self._settled(table)
                self._winners_kept_their_chips(table, before)
                before = {p.name: p.chips() for p in (h, o)}
                a.send(json.dumps({"type": "rematch"}))
                _until_event(b, {"rematch_vote"}, 20)
                b.send(json.dumps({"type": "rematch", "agree": True}))
                again = _until_event(a, {"start"}, 20)
                assert again.get("type") == "event", again
                matches = 2
                for w in (a, b):
                    w.send(json.dumps({"type": "automatic", "on": True}))
                end = _until_event(a, {"match_over"}, 120)
                assert end.get("type") == "event", end
        self._settled(table)
        self._winners_kept_their_chips(table, before)
        for n in range(1, matches + 1):
            self.world.kept.append(Kept(f"{table}-{n}", frozenset({host, rival})))

    @rule(a=st.sampled_from(sorted(PEOPLE)), b=st.sampled_from(sorted(PEOPLE)))
    def two_accounts_on_one_computer(self, a: str, b: str) -> None:
        """Two people at one address at a competitive table: a practice match, said."""
        if a == b:
            return
        TRIED["one computer"] += 1
        h = self.people[a]
        other = Person(b, self.server.client(PEOPLE[a]), LANGS[b])
        if other.post("/api/login", {"name": b, "password": "naipes de la abuela"}
                      ).status_code != 200:
            return
        r = h.post("/api/tables", {"variant": "habanero", "name": a, "competitive": True,
                                   "bet": 100, "robot_level": "random"})
        if r.status_code != 200:
            return
        table = str(r.json()["id"])
        if other.post(f"/api/tables/{table}/seats", {"seat": 1, "name": b}
                      ).status_code != 200:
            return
        before = {a: h.chips(), b: other.chips()}
        with h.client.ws(table) as w:
            _until_event(w, {"state"}, 20)
            if h.post(f"/api/tables/{table}/start").status_code != 200:
                return
            told = _until_event(w, {"practice"}, 20)
            assert told.get("type") == "event", told
        self._play_out(table, [h, other])
        self._settled(table)
        assert {a: h.chips(), b: other.chips()} == before
        self.world.kept.append(Kept(f"{table}-1", frozenset({a, b})))

    @rule(bet=st.booleans())
    def a_guest_plays(self, bet: bool) -> None:
        """A guest at a table with robots; a bet is refused in words."""
        TRIED["guest"] += 1
        g = self.guest
        options: dict[str, Any] = {"variant": "habanero", "name": "Invitada",
                                   "robot_level": "random"}
        if bet:
            options.update(competitive=True, bet=10)
        r = g.post("/api/tables", options)
        if bet:
            assert r.status_code in (400, 401, 403), r.text
            return
        if r.status_code != 200:
            return                                  # too many tables open: in words
        table = str(r.json()["id"])
        g.post(f"/api/tables/{table}/robots")
        if g.post(f"/api/tables/{table}/start").status_code == 200:
            self._play_out(table, [g])

    @rule(who=st.sampled_from(sorted(PEOPLE)), annul=st.booleans())
    def play_a_series_deal(self, who: str, annul: bool) -> None:
        """The person's next deal of the series; trying first to annul it alone."""
        TRIED["series deal"] += 1
        p = self.people[who]
        r = p.post(f"/api/series/{self.series.id}/play")
        if r.status_code != 200:
            return                                    # all played, or closed: in words
        table, deal = str(r.json()["id"]), int(r.json()["deal"])
        self.world.series_tables.add(table)
        with p.client.ws(table) as w:
            _until_event(w, {"state"}, 20)
            for name, other in self.people.items():      # nobody watches a series deal
                if name != who:
                    with other.client.ws(table, watch=True) as spy:
                        refused = until(spy, lambda m: m.get("type") in ("error", "event"), 10)
                        assert refused.get("type") == "error", (name, refused)
                    break
            if annul:
                TRIED["series annul"] += 1
                w.send(json.dumps({"type": "annul"}))
            w.send(json.dumps({"type": "automatic", "on": True}))
            end = _until_event(w, {"match_over", "annulled"}, 120)
            while end.get("type") == "error":          # the refusal, in words
                assert end.get("key") and end.get("message", end.get("error")), end
                end = _until_event(w, {"match_over", "annulled"}, 120)
        assert end["event"]["kind"] == "match_over", f"a series deal annulled: {end}"
        self.world.series_played.setdefault(who, set()).add(deal)
        self.world.kept.append(Kept(f"{table}-1", frozenset({who}), deal))

    @rule(who=st.sampled_from(sorted(PEOPLE)), index=st.integers(0, 12),
          finish=st.booleans(), series=st.booleans())
    def play_again_from_a_decision(self, who: str, index: int, finish: bool,
                                   series: bool = False) -> None:
        """A kept match of the person's played again from one of their decisions (a
        series deal's, where ``series`` and there is one)."""
        mine = [k for k in self.world.kept if who in k.players]
        if series and any(k.series_deal is not None for k in mine):
            mine = [k for k in mine if k.series_deal is not None]
        if not mine:
            return
        TRIED["play again"] += 1
        k = mine[index % len(mine)]
        p = self.people[who]
        made = None
        for i in range(index, index + 8):
            for seat in (0, 1, 2, 3):
                r = p.post(f"/api/games/{k.game}/again", {"seat": seat, "hand": 1,
                                                          "index": i,
                                                          "robot_level": "random"})
                if r.status_code == 200:
                    made = r.json()
                    break
            if made is not None:
                break
        if made is None:
            return
        table = str(made["id"])
        if k.series_deal is not None:
            self.world.series_tables.add(table)
        if finish:
            last = self._play_out(table, [p])
            if last.get("type") == "event" and last["event"]["kind"] == "match_over":
                self.world.kept.append(Kept(f"{table}-1", frozenset({who}),
                                            k.series_deal))

    @precondition(lambda self: not self.world.series_closed)
    @rule()
    def close_the_series(self) -> None:
        TRIED["series closed"] += 1
        with self.engine.begin() as c:
            c.execute(update(series_rows).where(series_rows.c.id == self.series.id)
                      .values(closes=int(time.time()) - 1))
        self.world.series_closed = True

    @rule(who=st.sampled_from(sorted(PEOPLE)), join=st.booleans())
    def tournament_entry(self, who: str, join: bool) -> None:
        TRIED["tourney " + ("join" if join else "leave")] += 1
        p = self.people[who]
        r = p.post(f"/api/tourneys/{self.tourney.id}/{'join' if join else 'leave'}")
        if r.status_code == 200:
            (self.world.entered.add if join else self.world.entered.discard)(who)

    @rule(make=st.booleans())
    def bot_token(self, make: bool) -> None:
        """The bot's owner makes a token, or revokes the oldest; a revoked token opens
        nothing."""
        TRIED["bot token"] += 1
        if make or not self.world.tokens:
            r = self.bot.post("/api/me/bot/tokens", {"label": "portátil"})
            if r.status_code == 200:
                self.world.tokens.append((int(r.json()["id"]), str(r.json()["token"])))
            return
        number, token = self.world.tokens.pop(0)
        assert self.bot.post(f"/api/me/bot/tokens/{number}/revoke").status_code == 200
        self.world.revoked.append(token)

    @precondition(lambda self: bool(self.world.tokens))
    @rule()
    def the_bot_plays(self) -> None:
        """The bot, by its token, opens a table against a robot and plays it out."""
        TRIED["bot plays"] += 1
        _, token = self.world.tokens[-1]
        auth = {"Authorization": f"Bearer {token}"}
        r = httpx.post(f"{self.server.base}/api/tables", headers=auth,
                       json={"variant": "habanero", "name": "Robotina",
                             "robot_level": "random"})
        assert r.status_code < 500, r.text
        if r.status_code != 200:
            return
        table = str(r.json()["id"])
        httpx.post(f"{self.server.base}/api/tables/{table}/robots", headers=auth, json={})
        if httpx.post(f"{self.server.base}/api/tables/{table}/start", headers=auth,
                      json={}).status_code != 200:
            return
        with connect(f"ws://127.0.0.1:{self.port}/ws/{table}", open_timeout=10,
                     additional_headers=auth, source_address=("127.0.0.6", 0)) as w:
            _until_event(w, {"state"}, 20)
            w.send(json.dumps({"type": "automatic", "on": True}))
            end = _until_event(w, {"match_over"}, 120)
        assert end.get("type") == "event", end

    @rule(who=st.sampled_from(sorted(PEOPLE)), pick=st.integers(0, 10**6),
          seat=st.integers(0, 1))
    def ask_an_analysis(self, who: str, pick: int, seat: int) -> None:
        """A player of a kept match asks for the analysis of one seat's first hand."""
        TRIED["ask an analysis"] += 1
        p = self.people[who]
        mine = [k for k in self.world.kept if who in k.players]
        if not mine:
            return
        game = mine[pick % len(mine)].game
        r = p.post(f"/api/games/{game}/analysis", {"hand": 1, "seat": seat})
        if r.status_code in (200, 202):
            url = f"/api/games/{game}/analysis?hand=1&seat={seat}"
            self.world.asked.setdefault(url, (who, r.json()["status"]))

    @rule(decisions=st.integers(1, 12), dies=st.booleans())
    def a_worker_elsewhere_judges(self, decisions: int, dies: bool) -> None:
        """A worker on another machine takes up to ``decisions`` decisions over HTTP,
        judges and gives them back; one that ``dies`` takes one more and never gives it
        (its lease runs out: the decision goes to the next)."""
        TRIED["worker judges" + (" and dies" if dies else "")] += 1
        source = SiteSource(self.server.base, self.worker_key, wait=0.0)
        try:
            task = source.take()
            for _ in range(decisions):
                if task is None:
                    break
                task = source.give(task, analyst.judge_task(task))
            if dies and task is not None and self._tries(task) < jobs.TRIES - 1:
                return                                    # killed, holding ``task``
            if dies:
                time.sleep(2.1)                            # what a dead one holds is free
        finally:
            source.close()

    def _tries(self, task: jobs.Task) -> int:
        from sqlalchemy import select

        from tute.server.db.schema import analysis_jobs as j
        with self.engine.connect() as c:
            return int(c.execute(select(j.c.tries).where(
                j.c.table_id == task.key[0], j.c.number == task.key[1],
                j.c.hand == task.key[2], j.c.seat == task.key[3])).scalar() or 0)

    @precondition(lambda self: self.steps_since_restart >= 4)
    @rule()
    def restart(self) -> None:
        """The server stops and starts again on the same store and port (after a few
        other steps: a rule without arguments would be drawn too often)."""
        TRIED["restart"] += 1
        self.steps_since_restart = 0
        self.server.stop()
        for _ in range(50):
            try:
                self.server = Server(self.db_url, port=self.port, robot_delay=0.0,
                                     **ANALYSIS)
                break
            except OSError:
                time.sleep(0.1)
        for p in [*self.people.values(), self.guest, self.bot]:
            p.client.server = self.server

    # ------------------------------------------------------------------ invariants
    @invariant()
    def the_ledger_holds(self) -> None:
        self.steps_since_restart += 1
        assert ledger.check(self.engine) == []
        running = {t.id for t in self.server.lobby.tables.values()
                   if t.match is not None and not t.match.is_over}
        stuck = [e for e in self.server.lobby.purse.open_escrows() if e[0] not in running]
        assert stuck == [], f"pots left in escrow: {stuck}"

    @invariant()
    def every_kept_game_rebuilds(self) -> None:
        for k in self.world.kept:
            who = self.people[sorted(k.players)[0]]
            assert who.get(f"/api/games/{k.game}").status_code == 200, k
            assert who.get(f"/api/games/{k.game}/record.tute").status_code == 200, k

    @invariant()
    def no_one_reads_a_series_deal_before_playing_it(self) -> None:
        if self.world.series_closed:
            return
        for k in self.world.kept:
            if k.series_deal is None:
                continue
            for name, p in [*self.people.items(), ("guest", self.guest)]:
                if name in k.players or k.series_deal in self.world.series_played.get(
                        name, set()):
                    continue
                for door in ("", "/record.tute", "/record.tpn", "/analysis",
                             "/openhand?hand=1"):
                    got = p.get(f"/api/games/{k.game}{door}")
                    assert got.status_code in (403, 404), (name, k, door, got.text[:200])
                again = p.post(f"/api/games/{k.game}/again", {"seat": 0, "hand": 1,
                                                              "index": 0})
                assert again.status_code in (403, 404), (name, k, again.text[:200])
            export = self.guest.get(f"/api/series/{self.series.id}/export")
            assert export.status_code == 409, export.text[:200]    # not while it runs
        listed = set()
        for p in [*self.people.values(), self.guest]:
            listed |= {t["id"] for t in p.get("/api/tables").json()["tables"]}
            friends = p.get("/api/friends")
            if friends.status_code == 200:
                text = friends.text
                for table in self.world.series_tables:
                    assert table not in text, (p.name, table, "in /api/friends")
        assert not (listed & self.world.series_tables), listed & self.world.series_tables

    @invariant()
    def a_closed_series_exports_and_verifies(self) -> None:
        if not self.world.series_closed:
            return
        r = self.guest.get(f"/api/series/{self.series.id}/export")
        assert r.status_code == 200, r.text
        assert all(c.verdict == "ok" for c in verify_series(read_series(r.text)))
        tpn = self.guest.get(f"/api/series/{self.series.id}/export?format=tpn")
        assert tpn.status_code == 200, tpn.text

    @invariant()
    def no_analysis_asked_is_lost(self) -> None:
        for url, (who, _) in self.world.asked.items():
            body = self.people[who].get(url).json()
            assert body["status"] in ("running", "done"), (url, body)
            if body["status"] == "running":
                assert body["done"] >= self.world.progress.get(url, 0), (url, body)
                self.world.progress[url] = body["done"]
                assert url not in self.world.analysed, (url, "done, then running")
            else:
                first = self.world.analysed.setdefault(url, body["decisions"])
                assert body["decisions"] == first, url

    @invariant()
    def revoked_tokens_open_nothing(self) -> None:
        for token in self.world.revoked[-2:]:
            r = httpx.get(f"{self.server.base}/api/me",
                          headers={"Authorization": f"Bearer {token}"})
            assert r.status_code == 401 and r.json().get("key"), r.text
        for _, token in self.world.tokens[-2:]:
            r = httpx.get(f"{self.server.base}/api/me",
                          headers={"Authorization": f"Bearer {token}"})
            assert r.status_code == 200, r.text


def machine_for(db_url: str) -> type[SiteMachine]:
    """The machine over one store (a SQLite file, or an emptied PostgreSQL)."""
    return type("Site", (SiteMachine,), {"db_url": db_url})


def sqlite_url(folder: Path) -> str:
    return f"sqlite:///{folder / 'site.db'}"


INVARIANTS = ("the_ledger_holds", "every_kept_game_rebuilds",
              "no_one_reads_a_series_deal_before_playing_it",
              "a_closed_series_exports_and_verifies", "revoked_tokens_open_nothing",
              "no_analysis_asked_is_lost")


def every_action_once(m: SiteMachine) -> None:
    """Each of the machine's actions at least once, in an order where each meets the
    others (a series deal then played again, bets with robots and between people, a
    restart in the middle), the invariants checked after every step: the test
    command's sure pass over every seam, beside the random walks."""
    steps: list[Callable[[], None]] = [
        lambda: m.befriend("Ana", "Bea"),
        lambda: m.befriend("Caro", "Dani"),
        lambda: m.play_a_match("Ana", {"Bea"}, "habanero", "competitive", 100),
        lambda: m.play_a_match("Ana", {"Bea"}, "parejas", "competitive", 100),   # vs robots
        lambda: m.play_a_match("Caro", {"Dani"}, "parejas", "private", 0),
        lambda: m.play_a_series_deal("Ana", True),
        lambda: m.play_again_from_a_decision("Ana", 0, True, True),
        lambda: m.ask_an_analysis("Ana", 0, 0),
        lambda: m.a_worker_elsewhere_judges(2, True),
        lambda: m.ask_an_analysis("Bea", 1, 1),
        lambda: m.annul_a_match("Bea", "Caro"),
        lambda: m.a_rematch_or_an_abandon("Dani", "Ana", False),
        lambda: m.a_rematch_or_an_abandon("Bea", "Dani", True),
        lambda: m.two_accounts_on_one_computer("Caro", "Ana"),
        lambda: m.a_guest_plays(True),
        lambda: m.a_guest_plays(False),
        lambda: m.bot_token(True),
        lambda: m.the_bot_plays(),
        lambda: m.bot_token(True),
        lambda: m.bot_token(False),
        lambda: m.tournament_entry("Caro", True),
        lambda: m.tournament_entry("Dani", True),
        lambda: m.tournament_entry("Caro", False),
        m.restart,
        lambda: m.a_worker_elsewhere_judges(80, False),
        lambda: m.play_a_series_deal("Ana", False),
        lambda: m.play_a_series_deal("Bea", False),
        lambda: m.play_again_from_a_decision("Bea", 1, False, True),
        m.close_the_series,
        lambda: m.play_again_from_a_decision("Dani", 0, True, False),
    ]
    for step in steps:
        step()
        for name in INVARIANTS:
            check: Callable[[], None] = getattr(m, name)
            check()
    assert m.world.asked and set(m.world.analysed) == set(m.world.asked), \
        "the worker elsewhere judged every analysis asked"

