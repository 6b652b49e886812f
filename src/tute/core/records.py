"""Game records: a text format for hands and matches, its reader and writer, JSON export.

The format (see ``docs/records.md``) is a block of tags then, for each hand, a block of
tags and the numbered actions, one line per trick::

    [Event "tute"]
    [Date "2026-11-29"]
    [Variant "habanero(match_target=5)"]
    [Seat0 "Tú"]
    [Seat1 "Ada"]
    [Match "1-0"]

    [Hand "1"]
    [Dealer "1"]
    [Deck "7b 4e Rb 6e ..."]
    [Result "0"]
    [Score "cards 68 62; cantes 60 20; totals 128 82"]
    1. 0 swap, 0 2c, 1 4e
    2. 0 40, 0 5e, 1 6e

Line ``N.`` holds the actions of trick N (the declarations before its lead included);
line ``0.`` the auction.  The shuffle is a ``Seed`` (``random.Random(seed)``) or the full
``Deck`` order, top card first.  ``Result``, ``Score`` and ``Match`` are derived: the
writer computes them by replaying, and the reader checks them.  The reader checks every
action against the rules and reports the first bad one with its line and the rule.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from tute.core.actions import Action, parse_action
from tute.core.cards import Card, parse_card
from tute.core.deal import deal_from_deck, deck_order
from tute.core.errors import TuteError
from tute.core.game import Game
from tute.core.match import Match
from tute.core.result import HandResult
from tute.core.shuffle import ShuffleProof
from tute.core.tags import escape_note, quote, read_tag
from tute.core.variants import Variant, parse_variant
from tute.i18n import render

Visit = Callable[[int, int, Game, tuple[int, ...]], None]


class RecordError(TuteError):
    """A record that cannot be read or does not replay; names the line.

    ``why`` is the message key of what is wrong (``record_tag_twice``...), with its
    ``params``; ``cause`` the rules' own error where one is behind it (a card the rules
    refuse, a bad option), said after it -- all in the reader's language.  The attribute
    :attr:`why` is the English reason, as before."""

    def __init__(self, line: int, why: str | None, cause: TuteError | None = None,
                 **params: object) -> None:
        self.line = line
        self.reason_key = why
        self.reason_params = dict(params)
        self.cause = cause
        self.why = self.reason("en")
        super().__init__("record_error", line=line, why=self.why)

    def reason(self, lang: str = "es") -> str:
        """What is wrong, without the line, in ``lang``."""
        text = render(self.reason_key, self.reason_params, lang) if self.reason_key else ""
        if self.cause is None:
            return text
        cause = self.cause.localized(lang)
        return f"{text}: {cause}" if text else cause

    def localized(self, lang: str = "es") -> str:
        """``line N: why`` -- just the reason where it is the whole file's (line 0)."""
        if self.line <= 0:
            return self.reason(lang)
        return render("record_error", {"line": self.line, "why": self.reason(lang)}, lang)


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One hand: its deal (a seed or the deck order) and its actions by seat."""

    dealer: int
    seed: int | str | None = None
    deck: tuple[Card, ...] | None = None
    actions: tuple[tuple[int, Action], ...] = ()
    notes: tuple[str, ...] = ()          # per action, its annotation ("" none; may be short)
    proof: ShuffleProof | None = None    # how the deck was shuffled, verifiably

    def note(self, i: int) -> str:
        """The annotation of action ``i`` ("" when it has none)."""
        return self.notes[i] if i < len(self.notes) else ""

    def annotated(self, i: int, text: str) -> HandRecord:
        """A copy with action ``i`` annotated (text without line breaks)."""
        if not 0 <= i < len(self.actions):
            raise IndexError(i)
        notes = list(self.notes) + [""] * (len(self.actions) - len(self.notes))
        notes[i] = " ".join(text.split())
        return dataclasses.replace(self, notes=tuple(notes))

    def new_game(self, variant: Variant) -> Game:
        if self.deck is not None:
            return Game(variant, deal_from_deck(variant, self.deck, self.dealer))
        return Game.new(variant, seed=self.seed, dealer=self.dealer)


@dataclass(frozen=True, slots=True)
class GameRecord:
    variant: Variant
    names: tuple[str, ...]
    hands: tuple[HandRecord, ...]
    date: str = ""
    event: str = "tute"
    notes: tuple[str, ...] = field(default=())


# -------------------------------------------------------------------------- building
def hand_record(game: Game) -> HandRecord:
    """The record of a game as it stands (finished or not)."""
    actions = tuple(game.history)
    if game.seed is not None and isinstance(game.seed, (int, str)):
        return HandRecord(game.dealer, seed=game.seed, actions=actions)
    deck = tuple(deck_order(game.variant, game.deal))
    return HandRecord(game.dealer, deck=deck, actions=actions, proof=game.proof)


def record_of_games(games: list[Game], names: tuple[str, ...] = (), date: str = "",
                    notes: tuple[str, ...] = (), event: str = "tute") -> GameRecord:
    """A record of consecutive hands of one variant (a match, or a single hand)."""
    variant = games[0].variant
    names = names or tuple(f"Seat {s}" for s in range(variant.players))
    return GameRecord(variant, tuple(names), tuple(hand_record(g) for g in games), date,
                      event, tuple(notes))


# -------------------------------------------------------------------------- replay
@dataclass(frozen=True, slots=True)
class Replay:
    games: tuple[Game, ...]
    match: Match
    seat_maps: tuple[tuple[int, ...], ...]    # per hand: game seat -> match seat
    tallies: tuple[str, ...] = ()             # per hand: the match after it (match_text)


def replay(record: GameRecord, lines: dict[tuple[int, int], int] | None = None,
           before: Visit | None = None) -> Replay:
    """Replay every hand; raise RecordError at the first action the rules refuse.

    ``lines`` maps (hand, action) -- action -1 for the hand itself -- to a line number;
    ``before(hand, action, game, seat_map)`` is called before each action is applied
    (0-based indexes; the game as it stands), for a reader that visits every position
    in the one replay."""
    done, error = replay_partial(record, lines, before)
    if error is not None:
        raise error
    assert done is not None
    return done


def replay_partial(record: GameRecord, lines: dict[tuple[int, int], int] | None = None,
                   before: Visit | None = None
                   ) -> tuple[Replay | None, RecordError | None]:
    """Replay as far as the rules allow: the games up to the first bad action (the last
    one stopped just before it) and that action's error, or the whole replay and None.
    ``None`` for the replay when not even the first hand could be dealt."""
    where = lines or {}
    games: list[Game] = []
    maps: list[tuple[int, ...]] = []
    tallies: list[str] = []
    match: Match | None = None

    def so_far() -> Replay | None:
        return None if match is None else Replay(tuple(games), match, tuple(maps),
                                                 tuple(tallies))

    for h, hand in enumerate(record.hands):
        try:
            if match is None:
                g = hand.new_game(record.variant)
                match = Match(record.variant, first_game=g)
            else:
                g = hand.new_game(match.hand_variant())
                match.deal_next(g)
        except TuteError as e:
            return so_far(), RecordError(where.get((h, -1), 0), "record_hand", e, hand=h + 1)
        maps.append(match.seat_map)
        games.append(g)
        for i, (seat, action) in enumerate(hand.actions):
            if before is not None:
                before(h, i, g, match.seat_map)
            try:
                g.apply(seat, action)
            except TuteError as e:
                return so_far(), RecordError(where.get((h, i), 0), "record_action", e,
                                             seat=seat, action=str(action))
        if g.is_over:
            match.record_hand()
        elif h != len(record.hands) - 1:
            return so_far(), RecordError(where.get((h, -1), 0),
                                         "record_hand_unfinished", hand=h + 1)
        tallies.append(match_text(match))
    if match is None:
        return None, RecordError(0, "record_no_hand")
    return so_far(), None


@dataclass(frozen=True, slots=True)
class PartialRecord:
    """What :func:`read_partial` made of a text: the record (None: unreadable), its
    replay as far as it goes, and the first error (None: the record is good)."""

    record: GameRecord | None
    replay: Replay | None
    error: RecordError | None


def read_partial(text: str) -> PartialRecord:
    """Read a record and replay it up to its first bad line, without raising."""
    try:
        record, lines = _read(text)
    except RecordError as e:
        return PartialRecord(None, None, e)
    done, error = replay_partial(record, lines)
    if error is None and done is not None:
        try:
            _check_derived(text, record, done)
        except RecordError as e:
            error = e
    return PartialRecord(record, done, error)


# -------------------------------------------------------------------------- text
def result_text(r: HandResult | None) -> str:
    if r is None:
        return "*"
    if r.void:
        return "void"
    if r.contract is not None:
        c = r.contract
        return f"contract {c.declarer} {c.bid} {'made' if c.made else 'failed'}"
    if r.porotos is not None:
        losers = [str(s) for s, p in enumerate(r.porotos) if p]
        return "porotos " + (" ".join(losers) if losers else "none")
    text = str(r.winner)
    if r.tute is not None:
        text += " tute"
    if r.games == 2:
        text += " double"
    return text


def score_text(r: HandResult) -> str:
    def nums(xs: tuple[int, ...]) -> str:
        return " ".join(str(x) for x in xs)
    return f"cards {nums(r.card_points)}; cantes {nums(r.cantes)}; totals {nums(r.totals)}"


def match_text(m: Match) -> str:
    s = m.score()
    v = m.variant
    if v.match == "elimination":
        text = "porotos " + "-".join(str(p) for p in s.porotos)
    elif v.match == "cumulative" or v.scoring == "contract":
        text = "-".join(str(p) for p in s.points)
    else:
        text = "-".join(str(w) for w in s.hands_won)
    if s.winner is not None:
        text += f" winner {s.winner}"
    return text


def format_record(record: GameRecord) -> str:
    """The canonical text of a record (replays it to write the derived tags)."""
    rep = replay(record)
    out = [f"[Event {quote(record.event)}]"]
    if record.date:
        out.append(f"[Date {quote(record.date)}]")
    out.append(f"[Variant {quote(str(record.variant))}]")
    for s, name in enumerate(record.names):
        out.append(f"[Seat{s} {quote(name)}]")
    out.append(f"[Match {quote(match_text(rep.match))}]")
    for note in record.notes:
        out.append(f"[Note {quote(note)}]")
    for h, (hand, game) in enumerate(zip(record.hands, rep.games, strict=True)):
        out.append("")
        out.append(f"[Hand {quote(str(h + 1))}]")
        out.append(f"[Dealer {quote(str(hand.dealer))}]")
        if hand.deck is not None:
            out.append(f"[Deck {quote(' '.join(c.code for c in hand.deck))}]")
        else:
            out.append(f"[Seed {quote(str(hand.seed))}]")
        if hand.proof is not None:
            out.extend(f"[{k} {quote(v)}]" for k, v in proof_tags(hand.proof))
        r = game.result()
        out.append(f"[Result {quote(result_text(r))}]")
        if r is not None and not r.void:
            out.append(f"[Score {quote(score_text(r))}]")
        if len(rep.seat_maps[h]) != record.variant.players:
            out.append(f"[Players {quote(' '.join(str(s) for s in rep.seat_maps[h]))}]")
        out.extend(_move_lines(game.variant, hand))
    return "\n".join(out) + "\n"


def _move_lines(variant: Variant, hand: HandRecord) -> list[str]:
    g = hand.new_game(variant)
    lines: dict[int, list[str]] = {}
    for i, (seat, action) in enumerate(hand.actions):
        trick = 0 if g.phase == "auction" else sum(g.tricks_won) + 1
        note = hand.note(i)
        text = f"{seat} {action}" + (f" {{{escape_note(note)}}}" if note else "")
        lines.setdefault(trick, []).append(text)
        g.apply(seat, action)
    return [f"{n}. " + ", ".join(items) for n, items in sorted(lines.items())]


_MOVES = re.compile(r"^(\d+)\.\s*(.*)$")


def _items(line: str, n: int) -> list[tuple[str, str]]:
    """A moves line's items, ``(seat and action, note)``: split at the commas that are
    not inside a ``{note}``."""
    out: list[tuple[str, str]] = []
    item: list[str] = []
    note: list[str] | None = None
    text = ""
    i = 0
    while i < len(line):
        ch = line[i]
        if note is not None:
            if ch == "\\" and i + 1 < len(line):
                note.append(line[i + 1])
                i += 1
            elif ch == "}":
                text, note = "".join(note), None
            else:
                note.append(ch)
        elif ch == "{":
            note = []
        elif ch == ",":
            out.append(("".join(item).strip(), text))
            item, text = [], ""
        else:
            item.append(ch)
        i += 1
    if note is not None:
        raise RecordError(n, "record_note_open")
    out.append(("".join(item).strip(), text))
    return [(a, t) for a, t in out if a or t]


def parse_record(text: str) -> GameRecord:
    """Read a record and replay it; raise RecordError at the first problem."""
    record, lines = _read(text)
    rep = replay(record, lines)
    _check_derived(text, record, rep)
    return record


def seed_of(text: str) -> int | str:
    """A Seed tag's value: a number where it is one (ASCII digits, at most 4,000 --
    Python's own limit on reading one), else the text itself."""
    return int(text) if re.fullmatch(r"-?[0-9]{1,4000}", text) else text


def is_seat_number(text: str) -> bool:
    """A seat's number as a record writes it: ASCII digits, at most two (what else
    is refused in words, not turned into a huge or foreign number)."""
    return text.isascii() and text.isdigit() and len(text) <= 2


def _read(text: str) -> tuple[GameRecord, dict[tuple[int, int], int]]:
    if not isinstance(text, str):
        raise RecordError(0, "record_not_text")
    top: dict[str, str] = {}
    notes: list[str] = []
    hands: list[dict[str, object]] = []
    where: dict[tuple[int, int], int] = {}
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        tag = read_tag(line)
        if tag is not None:
            name, value = tag
            if name == "Hand":
                hands.append({"tags": {}, "actions": [], "notes": [], "line": n})
                where[(len(hands) - 1, -1)] = n
                continue
            target = hands[-1]["tags"] if hands else top
            assert isinstance(target, dict)
            if name == "Note" and not hands:
                notes.append(value)
            elif name in target:
                raise RecordError(n, "record_tag_twice", tag=name)
            else:
                target[name] = value
            continue
        mm = _MOVES.match(line)
        if not mm:
            raise RecordError(n, "record_unreadable", text=line[:40])
        if not hands:
            raise RecordError(n, "record_actions_first")
        actions = hands[-1]["actions"]
        hand_notes = hands[-1]["notes"]
        assert isinstance(actions, list) and isinstance(hand_notes, list)
        for item, note in _items(mm.group(2), n):
            if not item:
                raise RecordError(n, "record_note_first")
            seat_text, _, action_text = item.partition(" ")
            if not is_seat_number(seat_text):
                raise RecordError(n, "record_seat_action", text=item[:40])
            try:
                action = parse_action(action_text)
            except TuteError as e:
                raise RecordError(n, None, e) from None
            where[(len(hands) - 1, len(actions))] = n
            actions.append((int(seat_text), action))
            hand_notes.append(note)
    try:
        variant = parse_variant(top.get("Variant", ""))
    except TuteError as e:
        raise RecordError(0, "record_tag", e, tag="Variant") from None
    names = tuple(top.get(f"Seat{s}", f"Seat {s}") for s in range(variant.players))
    if not hands:
        raise RecordError(0, "record_no_hand_tag")
    out: list[HandRecord] = []
    for hand in hands:
        tags = hand["tags"]
        assert isinstance(tags, dict)
        line_no = hand["line"]
        assert isinstance(line_no, int)
        dealer_text = tags.get("Dealer", "0")
        if not is_seat_number(dealer_text):
            raise RecordError(line_no, "record_dealer")
        seed: int | str | None = None
        deck: tuple[Card, ...] | None = None
        if "Deck" in tags:
            try:
                deck = tuple(parse_card(c) for c in tags["Deck"].split())
            except TuteError as e:
                raise RecordError(line_no, "record_tag", e, tag="Deck") from None
        elif "Seed" in tags:
            seed = seed_of(tags["Seed"])
        else:
            raise RecordError(line_no, "record_seed_or_deck")
        acts, notes_ = hand["actions"], hand["notes"]
        assert isinstance(acts, list) and isinstance(notes_, list)
        kept = tuple(notes_) if any(notes_) else ()
        proof = proof_of_tags(tags, line_no)
        if proof is not None and deck is None:
            raise RecordError(line_no, "record_shuffle_deck")
        out.append(HandRecord(int(dealer_text), seed, deck, tuple(acts), kept, proof))
    record = GameRecord(variant, names, tuple(out), top.get("Date", ""),
                        top.get("Event", "tute"), tuple(notes))
    return record, where


_CLIENT = re.compile(r"(\d{1,2})=([0-9A-Za-z_-]{1,64})@(\d{1,12})")


def proof_tags(proof: ShuffleProof) -> list[tuple[str, str]]:
    """A verifiable shuffle as a hand's tags (``docs/verifiable-deals.md``)."""
    tags = [("Shuffle", proof.algorithm), ("Commitment", proof.commitment)]
    if proof.server_seed:
        tags.append(("ServerSeed", proof.server_seed))
    if proof.client_seeds:
        tags.append(("ClientSeeds", " ".join(f"{s}={c}@{e}" for s, c, e in proof.client_seeds)))
    tags += [("Nonce", str(proof.nonce)), ("Committed", str(proof.committed)),
             ("Dealt", str(proof.dealt))]
    return tags


def proof_of_tags(tags: dict[str, str], line: int) -> ShuffleProof | None:
    """A hand's verifiable shuffle from its tags (None: it has none)."""
    if "Shuffle" not in tags:
        stray = [n for n in ("Commitment", "ServerSeed", "ClientSeeds", "Nonce", "Committed",
                             "Dealt") if n in tags]
        if stray:
            raise RecordError(line, "record_needs_shuffle", tag=stray[0])
        return None
    numbers: dict[str, int] = {}
    for name in ("Nonce", "Committed", "Dealt"):
        text = tags.get(name, "")
        if not re.fullmatch(r"\d{1,12}", text):
            raise RecordError(line, "record_shuffle_number", tag=name)
        numbers[name] = int(text)
    clients: list[tuple[int, str, int]] = []
    for item in tags.get("ClientSeeds", "").split():
        m = _CLIENT.fullmatch(item)
        if m is None:
            raise RecordError(line, "record_tag_unreadable", tag="ClientSeeds", text=item[:40])
        clients.append((int(m.group(1)), m.group(2), int(m.group(3))))
    return ShuffleProof(tags.get("Commitment", ""), tags.get("ServerSeed", ""),
                        tuple(clients), numbers["Nonce"], numbers["Committed"],
                        numbers["Dealt"], tags["Shuffle"])


def _check_derived(text: str, record: GameRecord, rep: Replay) -> None:
    """The Result, Score and Match tags, where given, must be what the replay gives."""
    hand_no = -1
    for n, raw in enumerate(text.splitlines(), start=1):
        tag = read_tag(raw.strip())
        if tag is None:
            continue
        name, value = tag
        if name == "Hand":
            hand_no += 1
            continue
        if name == "Match" and hand_no < 0:
            want = match_text(rep.match)
        elif name == "Players" and hand_no >= 0:
            want = " ".join(str(s) for s in rep.seat_maps[hand_no])
        elif name in ("Result", "Score") and hand_no >= 0:
            r = rep.games[hand_no].result()
            if name == "Result":
                want = result_text(r)
            else:
                want = score_text(r) if r is not None else ""
        else:
            continue
        if value != want:
            raise RecordError(n, "record_tag_differs", tag=name, said=value[:40],
                              gives=want)


# -------------------------------------------------------------------------- JSON
def record_to_json(record: GameRecord) -> dict[str, object]:
    """The same content as the text, as JSON-ready data (derived figures included)."""
    rep = replay(record)
    hands: list[dict[str, object]] = []
    for hand, game in zip(record.hands, rep.games, strict=True):
        r = game.result()
        entry: dict[str, object] = {"dealer": hand.dealer}
        if hand.deck is not None:
            entry["deck"] = [c.code for c in hand.deck]
        else:
            entry["seed"] = hand.seed
        if hand.proof is not None:
            entry["shuffle"] = dict(proof_tags(hand.proof))
        entry["actions"] = [{"seat": s, "action": str(a), **({"note": hand.note(i)}
                                                             if hand.note(i) else {})}
                            for i, (s, a) in enumerate(hand.actions)]
        entry["result"] = result_text(r)
        if r is not None and not r.void:
            entry["card_points"] = list(r.card_points)
            entry["cantes"] = list(r.cantes)
            entry["totals"] = list(r.totals)
        hands.append(entry)
    return {"event": record.event, "date": record.date, "variant": str(record.variant),
            "seats": list(record.names), "notes": list(record.notes),
            "match": match_text(rep.match), "hands": hands}


def record_to_json_text(record: GameRecord) -> str:
    return json.dumps(record_to_json(record), ensure_ascii=False, indent=1)
