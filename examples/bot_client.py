"""The reference client of tute's bot API (docs/guide/bots.md): runs any ``tute.bots``
robot, or your own ``module:Class``, on a ``tute serve`` site with a bot account's
token.  It sees what any player's page sees -- its seat's view, over the table's socket
-- and nothing else::

    export TUTE_BOT_TOKEN=tute_bot_...        # made on the profile page of a bot account
    python examples/bot_client.py --server http://127.0.0.1:8000 robots --variant habanero
    python examples/bot_client.py accept       # answer challenges as they come
    python examples/bot_client.py join         # sit at an open table that lets bots in

Needs ``pip install -e '.[web]'`` (httpx, websockets).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from tute.bots import make_bot
from tute.bots.base import Bot
from tute.core.variants import parse_variant
from tute.core.views import PlayerView
from tute.server.wire.views import view_from_json

Log = Callable[[str], None]


class ApiError(Exception):
    """A refusal of the server: its key (``table_no_bots``...) and its words."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}")
        self.key = key


class Api:
    """The site's HTTP API with the bot's token (no cookie is ever sent)."""

    def __init__(self, server: str, token: str) -> None:
        self.server = server.rstrip("/")
        self.token = token
        self.http = httpx.Client(base_url=self.server, timeout=30.0,
                                 headers={"Authorization": f"Bearer {token}"})

    def _answer(self, r: httpx.Response) -> dict[str, Any]:
        try:
            body: dict[str, Any] = r.json()
        except ValueError:
            body = {}
        if r.status_code >= 400:
            raise ApiError(str(body.get("key", r.status_code)), str(body.get("error", "")))
        return body

    def get(self, path: str) -> dict[str, Any]:
        return self._answer(self.http.get(path))

    def post(self, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        return self._answer(self.http.post(path, json=body or {}))

    def stream(self) -> Iterator[dict[str, Any]]:
        """The bot's stream: one JSON object a line (empty lines keep it alive)."""
        with self.http.stream("GET", "/api/bot/stream", timeout=None) as r:
            if r.status_code >= 400:
                r.read()
                self._answer(r)
            for line in r.iter_lines():
                if line.strip():
                    yield json.loads(line)

    def socket(self, table: str) -> ClientConnection:
        url = self.server.replace("http", "ws", 1) + f"/ws/{table}?last=0"
        return connect(url, additional_headers={"Authorization": f"Bearer {self.token}"},
                       open_timeout=30)


def robot(spec: str, seed: int | None = None) -> Bot:
    """A level of ``tute.bots`` (``expert``, ``heuristic``...) or ``module:Class``."""
    if ":" in spec:
        from tute.arena.duplicate import outside_bot

        return outside_bot(spec)(seed)
    return make_bot(spec, seed)


@dataclass
class Seat:
    """A robot at one table, fed the seat's views as they come."""

    bot: Bot
    seat: int | None = None
    hand_key: tuple[int, int] | None = None     # (match hand number, dealer) now
    seen: int = 0                               # actions of this hand already observed
    sent_at: int = -1                           # the event a decision was sent after
    results: list[dict[str, Any]] = field(default_factory=list)

    def decide(self, view: dict[str, Any], seq: int) -> dict[str, Any] | None:
        """What to send after event ``seq`` (None: nothing now)."""
        if view.get("seat") is None or not view.get("legal") or seq <= self.sent_at:
            return None
        pv: PlayerView = view_from_json(view)
        key = (int((view.get("match") or {}).get("hand", 0)), pv.dealer)
        if key != self.hand_key:                        # a new hand: told once
            self.hand_key, self.seen = key, 0
            self.bot.start_hand(pv)
        for s, a in pv.table.history[self.seen:]:
            self.bot.observe(s, a, pv)
        self.seen = len(pv.table.history)
        if pv.to_act == pv.seat:
            action = self.bot.choose(pv)
        else:                                           # out of turn: a declaration?
            answer = self.bot.declare(pv)
            if answer is None:
                return None
            action = answer
        self.sent_at = seq
        return {"type": "act", "action": str(action)}


def winner_words(view: dict[str, Any]) -> str:
    """Who won the view's match, in words ("won by Ada (robot) + Carmen (robot)", "won
    by Robo (bot), this bot"): the match's ``winner`` is a side's number -- a seat, or
    in partnerships the pair of seats s and s + 2 -- not a name."""
    match = view.get("match") or {}
    side = match.get("winner")
    if side is None:
        return "annulled, nobody won" if match.get("annulled") else "nobody won"
    names: list[str] = list(view.get("names") or [])
    pair = bool(view.get("partnerships")) and match.get("format") != "elimination"
    seats = [s for s in ((side, side + 2) if pair else (side,)) if s < len(names)]
    who = " + ".join(names[s] for s in seats) or f"side {side}"
    mine = view.get("seat") in seats
    return f"won by {who}" + ((", this bot's side" if pair else ", this bot") if mine else "")


def play_table(api: Api, table: str, bot: Bot, matches: int = 1, host: bool = False,
               log: Log = print, timeout: float = 600.0) -> list[dict[str, Any]]:
    """Play at ``table`` until ``matches`` matches are over (the host starts each next
    one); the matches' ends, as the table said them."""
    seat = Seat(bot)
    done: list[dict[str, Any]] = []
    current, counted = 0, set()                        # the table's matches, by start
    deadline = time.monotonic() + timeout
    with api.socket(table) as ws:
        while len(done) < matches:
            if time.monotonic() > deadline:
                raise TimeoutError(f"table {table}: no end in {timeout:.0f} s")
            msg = json.loads(ws.recv(timeout=120))
            if msg.get("type") == "error":
                log(f"refused: {msg.get('key')}: {msg.get('message')}")
                if msg.get("key") in ("bot_bad_token", "not_seated", "no_such_table"):
                    raise ApiError(str(msg.get("key")), str(msg.get("message")))
                seat.sent_at = -1                       # try again on the next event
                continue
            if msg.get("type") != "event":
                continue
            view = msg.get("view")
            if not isinstance(view, dict):
                continue
            seq = int(msg["event"].get("seq", 0))
            if msg["event"].get("kind") == "start":
                current += 1
            match = view.get("match") or {}
            if match.get("over") and current not in counted:
                counted.add(current)
                done.append(match)
                log(f"table {table}: match over, {winner_words(view)}")
                if host and len(done) < matches:
                    ws.send(json.dumps({"type": "start"}))
                continue
            reply = seat.decide(view, seq)
            if reply is not None:
                ws.send(json.dumps(reply))
    return done


def play_robots(api: Api, bot: Bot, variant: str, level: str, matches: int,
                log: Log = print) -> list[dict[str, Any]]:
    """A table of the bot against the site's robots (bots allowed), played out."""
    made = api.post("/api/tables", {"variant": variant, "robot_level": level,
                                    "bots": "yes", "name": "bot"})
    table = str(made["id"])
    api.post(f"/api/tables/{table}/robots")
    api.post(f"/api/tables/{table}/start")
    log(f"table {table}: {variant} against {level} robots")
    return play_table(api, table, bot, matches, host=True, log=log)


def sit_and_play(api: Api, table: str, seats: list[int], bot: Bot, log: Log = print
                 ) -> list[dict[str, Any]]:
    for s in seats:
        try:
            api.post(f"/api/tables/{table}/seats", {"seat": s, "name": "bot"})
        except ApiError as e:
            if e.key in ("seat_taken", "seat_busy"):
                continue
            raise
        log(f"table {table}: seated at {s}")
        return play_table(api, table, bot, log=log)
    raise ApiError("no_free_seat", f"table {table} has no free seat")


def accept(api: Api, spec: str, log: Log = print, games: int | None = None) -> int:
    """Answer challenges from the stream as they come (``games``: stop after so many)."""
    played = 0
    for note in api.stream():
        if note.get("type") == "hello":
            log(f"listening as {note.get('bot')}")
        if note.get("type") == "notice" and note.get("kind") == "challenge":
            log(f"challenge from {note.get('from')}: {note.get('variant')}")
            try:
                sit_and_play(api, str(note["table"]), list(note.get("seats") or []),
                             robot(spec), log)
            except ApiError as e:
                log(f"challenge not taken: {e}")
            played += 1
            if games is not None and played >= games:
                return played
    return played


def join(api: Api, spec: str, log: Log = print) -> int:
    """Sit at the first open table that lets bots in, and play it."""
    for row in api.get("/api/tables")["tables"]:
        if row.get("status") != "open" or row.get("bots", "no") == "no":
            continue
        taken = {s["seat"] for s in row.get("seats", [])}
        free = [s for s in range(parse_variant(row["variant"]).players) if s not in taken]
        if free:
            sit_and_play(api, str(row["id"]), free, robot(spec), log)
            return 1
    log("no open table lets bots in now")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--server", default="http://127.0.0.1:8000")
    ap.add_argument("--token", default=os.environ.get("TUTE_BOT_TOKEN", ""),
                    help="the bot's token (default: $TUTE_BOT_TOKEN)")
    ap.add_argument("--bot", default="heuristic", help="a tute.bots level or module:Class")
    sub = ap.add_subparsers(dest="mode", required=True)
    r = sub.add_parser("robots", help="play against the site's robots")
    r.add_argument("--variant", default="habanero")
    r.add_argument("--level", default="heuristic")
    r.add_argument("--matches", type=int, default=1)
    a = sub.add_parser("accept", help="answer challenges")
    a.add_argument("--games", type=int, default=None)
    sub.add_parser("join", help="sit at an open table that lets bots in")
    args = ap.parse_args(argv)
    if not args.token:
        print("bot_client: give the bot's token (--token or TUTE_BOT_TOKEN)", file=sys.stderr)
        return 2
    api = Api(args.server, args.token)
    try:
        if args.mode == "robots":
            play_robots(api, robot(args.bot), args.variant, args.level, args.matches)
        elif args.mode == "accept":
            accept(api, args.bot, games=args.games)
        else:
            join(api, args.bot)
    except ApiError as e:
        print(f"bot_client: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
