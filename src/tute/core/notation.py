"""Tute Portable Notation (TPN): records in the tag-pair style of bridge's PBN.

Beside the ``.tute`` record (:mod:`tute.core.records`), a ``.tpn`` file describes each
hand as a self-contained *board* that another program can read without knowing how tute
deals: the variant with every option spelled out, the players, the dealer, the deal as
each seat's hand by suits, the turn-up and the stock, the auction, the declarations and
the play by tricks in one column per seat, and the result.  One file may hold many
matches (a whole series or tournament).  ``docs/notation.md`` is the reference::

    % TPN 1
    [Event "tute"]
    [Site "?"]
    [Date "2026.11.29"]
    [Game "1"]
    [Board "1"]
    [Variant "habanero"]
    [Options "players=2, hand_size=8, trump=turn_up, ranking=tute, deck=40, ..."]
    [Seat0 "Tú"]
    [Seat1 "Ada"]
    [Dealer "1"]
    [Deal "0:3.RC2.5.RS7 1:RC7.54.64.2"]
    [TurnUp "Ab"]
    [Stock "Cb 6b 6o 2o Se 2e 3c Ce 7e Re 3b 6c So 7c Ao 4b Sc 5o 5b 4o 3e Ac Ae"]
    [Result "0"]
    [Score "cards 68 62; cantes 60 20; totals 128 82"]
    [Match "1-0"]
    [Declarations "4"]
    1 0 swap
    2 0 40 {the forty, at once}
    3 1 20o
    9 0 20c
    [Play "0"]
    2c 4e
    5e 6e
    ...

A board's ``Deal`` is enough to play it again; a ``Seed`` or a ``Deck`` is written too
where the exact deck order matters (a seeded or a verifiable shuffle, whose proof tags
follow the ``.tute`` ones), so ``.tute`` -> ``.tpn`` -> ``.tute`` gives back the same
record.  The reader replays every board through the rules, as the ``.tute`` reader does,
and names the first bad line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from tute.core.actions import Action, Play, parse_action
from tute.core.cards import SUITS, Card, parse_card
from tute.core.deal import Deal, deal_from_deck, deal_from_hands, deal_from_seed, deck_order
from tute.core.errors import TuteError
from tute.core.game import Game
from tute.core.match import Match
from tute.core.records import (
    GameRecord,
    HandRecord,
    RecordError,
    format_record,
    is_seat_number,
    match_text,
    parse_record,
    proof_of_tags,
    proof_tags,
    replay,
    result_text,
    score_text,
    seed_of,
)
from tute.core.tags import escape_note, quote, read_tag
from tute.core.variants import Variant, format_value, make_variant

HEADER = "% TPN 1"
_ORDER = "A3RCS76542"                       # a suit's cards as players sort them
_WHERE = re.compile(r"([0-9]{1,3})(?:\.([0-9]))?")       # a declaration's trick[.cards]
_ISO = re.compile(r"^(\d{4})-(\d\d)-(\d\d)$")
_PBN_DATE = re.compile(r"^(\d{4})\.(\d\d)\.(\d\d)$")
MAX_TEXT = 4_000_000                       # a larger text is refused unread


def is_notation(text: str) -> bool:
    """Whether ``text`` is TPN (its first line that is not blank is the header)."""
    for line in text.splitlines():
        if line.strip():
            return line.strip().startswith("% TPN")
    return False


# ------------------------------------------------------------------------------ writing
def _note(text: str) -> str:
    return "" if not text else " {" + escape_note(text) + "}"


def hand_text(cards: Sequence[Card]) -> str:
    """One seat's cards by suits, PBN style: ``oros.copas.espadas.bastos``, each suit's
    ranks from the As down (``A3R.C7..S2``); ``-`` for a seat dealt nothing."""
    if not cards:
        return "-"
    return ".".join("".join(r for r in _ORDER if any(c.code == r + s.value for c in cards))
                    for s in SUITS)


def deal_text(deal: Deal) -> str:
    """The ``Deal`` tag: every seat's hand, from seat 0."""
    return " ".join(f"{s}:{hand_text(h)}" for s, h in enumerate(deal.hands))


def _sorted_deal(deal: Deal) -> Deal:
    """The deal with each hand in the notation's order (the turn-up last where it is the
    dealer's card, as the deal gives it)."""
    def key(c: Card) -> tuple[int, int]:
        return c.suit.index, _ORDER.index(c.rank.value)
    return Deal(tuple(tuple(sorted(h, key=key)) for h in deal.hands), deal.turn_up,
                deal.stock, deal.dealer)


def options_text(variant: Variant) -> str:
    """Every option of ``variant`` as ``name=value``, in RULES.md's order."""
    return ", ".join(f"{k}={format_value(v)}" for k, v in variant.options().items())


def _pbn_date(date: str) -> str:
    m = _ISO.match(date)
    return f"{m.group(1)}.{m.group(2)}.{m.group(3)}" if m else (date or "????.??.??")


def _board(record: GameRecord, game_no: int, h: int, hand: HandRecord, game: Game,
           seat_map: tuple[int, ...], match: str) -> list[str]:
    v = game.variant
    out = [f"[Event {quote(record.event)}]", '[Site "?"]', f"[Date {quote(_pbn_date(record.date))}]",
           f"[Game {quote(str(game_no))}]", f"[Board {quote(str(h + 1))}]",
           f"[Variant {quote(record.variant.preset)}]",
           f"[Options {quote(options_text(record.variant))}]"]
    out += [f"[Seat{s} {quote(name)}]" for s, name in enumerate(record.names)]
    if h == 0:
        out += [f"[Note {quote(n)}]" for n in record.notes]
    if len(seat_map) != record.variant.players:
        out.append(f"[Players {quote(' '.join(str(s) for s in seat_map))}]")
    out.append(f"[Dealer {quote(str(hand.dealer))}]")
    deal = game.deal
    out.append(f"[Deal {quote(deal_text(deal))}]")
    if deal.turn_up is not None:
        out.append(f"[TurnUp {quote(deal.turn_up.code)}]")
    if deal.stock:
        out.append(f"[Stock {quote(' '.join(c.code for c in deal.stock))}]")
    if hand.seed is not None:
        out.append(f"[Seed {quote(str(hand.seed))}]")
    elif hand.deck is not None and tuple(deck_order(v, _sorted_deal(deal))) != hand.deck:
        out.append(f"[Deck {quote(' '.join(c.code for c in hand.deck))}]")
    if hand.proof is not None:
        out += [f"[{k} {quote(val)}]" for k, val in proof_tags(hand.proof)]
    r = game.result()
    out.append(f"[Result {quote(result_text(r))}]")
    if r is not None and not r.void:
        out.append(f"[Score {quote(score_text(r))}]")
    out.append(f"[Match {quote(match)}]")
    out += _sections(v, hand)
    return out


def _sections(variant: Variant, hand: HandRecord) -> list[str]:
    """The auction, declarations and play of a hand, replayed to place each action."""
    g = hand.new_game(variant)
    calls: list[str] = []
    first_call = g.acting
    decls: list[str] = []
    columns = _columns(g)
    rows: list[list[str]] = []
    for i, (seat, action) in enumerate(hand.actions):
        note = _note(hand.note(i))
        trick = sum(g.tricks_won) + 1
        if g.phase == "auction":
            calls.append(f"{action}{note}")
        elif isinstance(action, Play):
            if len(g.trick) == 0:
                rows.append(["-"] * len(columns))
            rows[-1][columns.index(seat)] = f"{action}{note}"
        else:
            where = f"{trick}" if not g.trick else f"{trick}.{len(g.trick)}"
            decls.append(f"{where} {seat} {action}{note}")
        g.apply(seat, action)
    out: list[str] = []
    if calls:
        out.append(f"[Auction {quote(str(first_call))}]")
        out += [" ".join(calls[i:i + 4]) for i in range(0, len(calls), 4)]
    if decls:
        out.append(f"[Declarations {quote(str(len(decls)))}]")
        out += decls
    if rows:
        out.append(f"[Play {quote(str(columns[0]))}]")
        out += [" ".join(r) for r in rows]
    return out


def _columns(g: Game) -> list[int]:
    """The play section's columns: the seats that play, from the first leader on."""
    lead = g.leader if g.phase != "auction" else g.next_seat[g.dealer]
    seats = list(g.playing)
    k = seats.index(lead)
    return seats[k:] + seats[:k]


def format_notation(records: Sequence[GameRecord]) -> str:
    """The TPN text of one or more records (each replayed for its derived tags)."""
    out = [HEADER, "% Tute Portable Notation (docs/notation.md)", ""]
    for k, record in enumerate(records, start=1):
        rep = replay(record)                        # once: each hand's tally comes with it
        for h, (hand, game) in enumerate(zip(record.hands, rep.games, strict=True)):
            out += _board(record, k, h, hand, game, rep.seat_maps[h], rep.tallies[h])
            out.append("")
    return "\n".join(out)


# ------------------------------------------------------------------------------ reading
@dataclass
class _Board:
    line: int
    tags: dict[str, tuple[str, int]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    section: str = ""
    lines: dict[str, list[tuple[int, str]]] = field(default_factory=dict)


def _tokens(text: str, n: int) -> list[tuple[str, str]]:
    """A section line's items and the note after each: ``Ao {a note} 3c``."""
    items: list[list[str]] = []
    i, word = 0, ""
    while i < len(text):
        ch = text[i]
        if ch == "{":
            if word:
                items.append([word, ""])
                word = ""
            if not items or items[-1][1]:
                raise RecordError(n, "record_note_first")
            j, buf = i + 1, []
            while j < len(text) and text[j] != "}":
                if text[j] == "\\" and j + 1 < len(text):
                    j += 1
                buf.append(text[j])
                j += 1
            if j >= len(text):
                raise RecordError(n, "record_note_open")
            items[-1][1] = "".join(buf)
            i = j + 1
            continue
        if ch.isspace():
            if word:
                items.append([word, ""])
                word = ""
        else:
            word += ch
        i += 1
    if word:
        items.append([word, ""])
    return [(w, note) for w, note in items]


def _boards(text: str) -> list[_Board]:
    boards: list[_Board] = []
    current: _Board | None = None
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            current = None
            continue
        if line.startswith("%") or line.startswith(";"):
            continue
        tag = read_tag(line)
        if tag is not None:
            if current is None:
                current = _Board(n)
                boards.append(current)
            name, value = tag
            if name == "Note":
                current.notes.append(value)
                continue
            if name in current.tags:
                raise RecordError(n, "record_tag_twice", tag=name)
            current.tags[name] = (value, n)
            current.section = name if name in ("Auction", "Declarations", "Play") else ""
            continue
        if current is None or not current.section:
            raise RecordError(n, "record_unreadable", text=line[:40])
        current.lines.setdefault(current.section, []).append((n, line))
    return boards


def _tag(b: _Board, name: str, default: str | None = None) -> str:
    if name in b.tags:
        return b.tags[name][0]
    if default is None:
        raise RecordError(b.line, "record_board_tag", tag=name)
    return default


def _line(b: _Board, name: str) -> int:
    return b.tags[name][1] if name in b.tags else b.line


def _variant(b: _Board) -> Variant:
    preset = _tag(b, "Variant")
    options: dict[str, str] = {}
    for item in _tag(b, "Options", "").split(","):
        if not item.strip():
            continue
        key, eq, value = item.partition("=")
        if not eq:
            raise RecordError(_line(b, "Options"), "record_option", text=item[:40])
        options[key.strip()] = value.strip()
    try:
        return make_variant(preset, options)
    except TuteError as e:
        raise RecordError(_line(b, "Options"), "record_tag", e, tag="Variant") from None


def _cards(text: str, n: int, what: str) -> tuple[Card, ...]:
    try:
        return tuple(parse_card(c) for c in text.split())
    except TuteError as e:
        raise RecordError(n, "record_tag", e, tag=what) from None


def _deal(b: _Board, variant: Variant, dealer: int) -> Deal:
    n = _line(b, "Deal")
    hands: dict[int, list[Card]] = {}
    for item in _tag(b, "Deal").split():
        seat_text, colon, cards = item.partition(":")
        if not colon or not is_seat_number(seat_text) or int(seat_text) >= variant.players \
                or int(seat_text) in hands:
            raise RecordError(n, "record_tag_unreadable", tag="Deal", text=item[:40])
        got: list[Card] = []
        if cards != "-":
            suits = cards.split(".")
            if len(suits) != 4:
                raise RecordError(n, "record_deal_suits", text=item[:40])
            for s, ranks in zip(SUITS, suits, strict=True):
                for r in ranks:
                    got.append(_cards(r + s.value, n, "Deal")[0])
        hands[int(seat_text)] = got
    if sorted(hands) != list(range(variant.players)):
        raise RecordError(n, "record_deal_seats", last=variant.players - 1)
    up = _tag(b, "TurnUp", "")
    turn_up = _cards(up, _line(b, "TurnUp"), "TurnUp")[0] if up else None
    stock = _cards(_tag(b, "Stock", ""), _line(b, "Stock"), "Stock")
    try:
        return deal_from_hands(variant, [hands[s] for s in range(variant.players)],
                               turn_up, stock, dealer)
    except TuteError as e:
        raise RecordError(n, "record_tag", e, tag="Deal") from None


def _same(a: Deal, b: Deal) -> bool:
    return ([set(h) for h in a.hands] == [set(h) for h in b.hands]
            and a.turn_up == b.turn_up and a.stock == b.stock)


def _hand(b: _Board, variant: Variant) -> HandRecord:
    dealer_text = _tag(b, "Dealer")
    if not is_seat_number(dealer_text) or int(dealer_text) >= variant.players:
        raise RecordError(_line(b, "Dealer"), "record_dealer")
    dealer = int(dealer_text)
    deal = _deal(b, variant, dealer)
    seed: int | str | None = None
    deck: tuple[Card, ...] | None = None
    tags = {k: v for k, (v, _) in b.tags.items()}
    try:
        if "Seed" in tags:
            seed = seed_of(tags["Seed"])
            dealt = deal_from_seed(variant, seed, dealer)
        else:
            deck = (_cards(tags["Deck"], _line(b, "Deck"), "Deck") if "Deck" in tags
                    else tuple(deck_order(variant, deal)))
            dealt = deal_from_deck(variant, deck, dealer)
    except TuteError as e:
        raise RecordError(_line(b, "Deck"), "record_tag", e, tag="Deck") from None
    if not _same(dealt, deal):
        what = "Seed" if seed is not None else "Deck"
        raise RecordError(_line(b, what), "record_deal_differs", tag=what)
    proof = proof_of_tags(tags, b.line)
    if proof is not None and deck is None:
        raise RecordError(b.line, "record_shuffle_deck")
    return HandRecord(dealer, seed, deck, (), (), proof)


def _actions(b: _Board, hand: HandRecord, variant: Variant
             ) -> tuple[tuple[tuple[int, Action], ...], tuple[str, ...], Game]:
    """The hand's actions in the order they were made, rebuilt by playing the board,
    their notes, and the game so played."""
    g = hand.new_game(variant)
    calls = [(n, w, note) for n, line in b.lines.get("Auction", [])
             for w, note in _merge_calls(_tokens(line, n))]
    decls: list[tuple[int, int, int, int, Action, str]] = []
    for n, line in b.lines.get("Declarations", []):
        items = list(_tokens(line, n))
        if len(items) < 3:
            raise RecordError(n, "record_declaration", text=line[:40])
        where, seat_text = items[0][0], items[1][0]
        text = " ".join(w for w, _ in items[2:])
        note = items[-1][1]
        m = _WHERE.fullmatch(where)
        if m is None or not is_seat_number(seat_text):
            raise RecordError(n, "record_declaration", text=line[:40])
        decls.append((n, int(m.group(1)), int(m.group(2) or 0), int(seat_text),
                      _action(text, n), note))
    columns = _columns(g)
    if "Play" in b.tags and _tag(b, "Play") != str(columns[0]):
        raise RecordError(_line(b, "Play"), "record_play_leader",
                          said=_tag(b, "Play")[:40], leader=columns[0])
    rows: list[tuple[int, list[tuple[str, str]]]] = []
    for n, line in b.lines.get("Play", []):
        cells = list(_tokens(line, n))
        if len(cells) != len(columns):
            raise RecordError(n, "record_trick_cards", count=len(columns))
        rows.append((n, cells))
    actions: list[tuple[int, Action]] = []
    notes: list[str] = []
    used: set[tuple[int, int]] = set()

    def apply(n: int, seat: int, action: Action, note: str) -> None:
        try:
            g.apply(seat, action)
        except TuteError as e:
            raise RecordError(n, "record_action", e, seat=seat, action=str(action)) from None
        actions.append((seat, action))
        notes.append(note)

    ci = di = 0
    while not g.is_over:
        if g.phase == "auction":
            if ci == len(calls):
                break
            n, word, note = calls[ci]
            ci += 1
            apply(n, g.acting, _action(word, n), note)
            continue
        trick, k = sum(g.tricks_won) + 1, len(g.trick)
        if di < len(decls) and (decls[di][1], decls[di][2]) == (trick, k):
            n, _, _, seat, action, note = decls[di]
            di += 1
            apply(n, seat, action, note)
            continue
        t = trick - 1
        if t >= len(rows):
            break
        n, cells = rows[t]
        col = columns.index(g.acting)
        word, note = cells[col]
        if word == "-":
            break
        used.add((t, col))
        apply(n, g.acting, _action(word, n), note)
    if ci < len(calls):
        raise RecordError(calls[ci][0], "record_call_late", text=calls[ci][1][:40])
    if di < len(decls):
        raise RecordError(decls[di][0], "record_declaration_late")
    for t, (n, cells) in enumerate(rows):
        for col, (word, _) in enumerate(cells):
            if word != "-" and (t, col) not in used:
                raise RecordError(n, "record_card_unplayed", text=word[:40],
                                  seat=columns[col])
    return tuple(actions), tuple(notes), g


def _merge_calls(items: Iterable[tuple[str, str]]) -> Iterator[tuple[str, str]]:
    """An auction line's calls: ``bid 70``, ``trump o`` are one call of two words."""
    pending = ""
    for word, note in items:
        if pending:
            yield pending + " " + word, note
            pending = ""
        elif word.lower() in ("bid", "trump", "puja", "triunfo") and not note:
            pending = word
        else:
            yield word, note
    if pending:
        yield pending, ""


def _action(text: str, n: int) -> Action:
    try:
        return parse_action(text)
    except TuteError as e:
        raise RecordError(n, None, e) from None


def parse_notation(text: str) -> list[GameRecord]:
    """Read every match of a TPN text, replayed and checked; RecordError at the first
    problem, with its line."""
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        raise RecordError(0, "record_too_big")
    games: dict[str, list[_Board]] = {}
    for b in _boards(text):
        games.setdefault(_tag(b, "Game", "1"), []).append(b)
    if not games:
        raise RecordError(0, "record_no_board")
    records: list[GameRecord] = []
    for boards in games.values():
        records.append(_record(boards))
    return records


def read_game(text: str, game: int = 1) -> tuple[GameRecord, int]:
    """Match ``game`` (1 the first) of a ``.tute`` or ``.tpn`` text, and how many the
    text holds -- only that match replayed (a file of a whole tournament is read once,
    played once)."""
    if not is_notation(text):
        if game != 1:
            raise RecordError(0, "record_no_such_match", count=1, game=game)
        return parse_record(text), 1
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        raise RecordError(0, "record_too_big")
    games: dict[str, list[_Board]] = {}
    for b in _boards(text):
        games.setdefault(_tag(b, "Game", "1"), []).append(b)
    if not 1 <= game <= len(games):
        raise RecordError(0, "record_no_such_match", count=len(games), game=game)
    return _record(list(games.values())[game - 1]), len(games)


def _record(boards: list[_Board]) -> GameRecord:
    first = boards[0]
    variant = _variant(first)
    names = tuple(_tag(first, f"Seat{s}", f"Seat {s}") for s in range(variant.players))
    date = _tag(first, "Date", "")
    m = _PBN_DATE.match(date)
    date = f"{m.group(1)}-{m.group(2)}-{m.group(3)}" if m else date.strip("?.")
    hands: list[HandRecord] = []
    match: Match | None = None
    for h, b in enumerate(boards):
        if _tag(b, "Board", str(h + 1)) != str(h + 1):
            raise RecordError(_line(b, "Board"), "record_board_expected", board=h + 1)
        if _variant(b) != variant:
            raise RecordError(_line(b, "Options"), "record_boards_variant")
        hand_variant = variant if match is None else match.hand_variant()
        blank = _hand(b, hand_variant)
        acts, notes, g = _actions(b, blank, hand_variant)
        hand = HandRecord(blank.dealer, blank.seed, blank.deck, acts,
                          notes if any(notes) else (), blank.proof)
        hands.append(hand)
        try:
            if match is None:
                match = Match(variant, first_game=g)
            else:
                match.deal_next(g)
        except TuteError as e:
            raise RecordError(b.line, "record_board", e, board=h + 1) from None
        seats = " ".join(str(s) for s in match.seat_map)
        if _tag(b, "Players", seats) != seats:
            raise RecordError(_line(b, "Players"), "record_tag_differs", tag="Players",
                              said=_tag(b, "Players")[:40], gives=seats)
        if g.is_over:
            match.record_hand()
        elif h != len(boards) - 1:
            raise RecordError(b.line, "record_board_unfinished", board=h + 1)
        _check(b, g, match)
    return GameRecord(variant, names, tuple(hands), date, _tag(first, "Event", "tute"),
                      tuple(first.notes))


def _check(b: _Board, g: Game, match: Match) -> None:
    """The derived tags, where given, must be what the replay gives."""
    r = g.result()
    want = {"Result": result_text(r), "Score": score_text(r) if r is not None else "",
            "Match": match_text(match)}
    for name, value in want.items():
        if name in b.tags and b.tags[name][0] != value:
            raise RecordError(b.tags[name][1], "record_tag_differs", tag=name,
                              said=b.tags[name][0][:40], gives=value)


# ------------------------------------------------------------------------- either format
def read_records(text: str) -> list[GameRecord]:
    """The records of a ``.tute`` or a ``.tpn`` text (the format told by its header)."""
    return parse_notation(text) if is_notation(text) else [parse_record(text)]


def read_one(text: str) -> GameRecord:
    """The one record of a ``.tute`` or ``.tpn`` text; RecordError if it holds several."""
    records = read_records(text)
    if len(records) != 1:
        raise RecordError(0, "record_one_match", count=len(records))
    return records[0]


def to_tute(text: str) -> str:
    """A one-match TPN text as the ``.tute`` record (or a ``.tute`` text, canonical)."""
    return format_record(read_one(text))
