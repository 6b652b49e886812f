"""What goes over the wire: JSON of a seat's view and of the public events.

Only :class:`~tute.core.views.PlayerView` is ever serialised for a seat, so a message can
carry no card the seat may not see.
"""

from __future__ import annotations

from typing import Any

import msgspec

from tute.core.actions import Play, parse_action
from tute.core.cards import Card, Suit, parse_card
from tute.core.errors import TuteError
from tute.core.game import Game
from tute.core.match import Match
from tute.core.result import HandResult, result_from_json
from tute.core.tables import rank_order
from tute.core.variants import parse_variant
from tute.core.views import CanteShown, PlayerView, TableView
from tute.server.wire.moves import Move, move
from tute.server.wire.summary import ClockRunning, DealSummary, TableSummary


class CanteJson(msgspec.Struct):
    """A cante shown to all: who sang, the suit, its points, its two cards."""

    seat: int
    suit: str
    points: int
    cards: list[str]


class MatchJson(msgspec.Struct):
    """The match's score as every viewer sees it."""

    hand: int
    hands_won: list[int]
    points: list[int]
    winner: int | None
    over: bool
    annulled: bool
    format: str
    target: int
    porotos: list[int]


class TableJson(msgspec.Struct):
    """What every seat sees alike (``match``: where the hand is one of a match;
    ``tute_cards``: the four kings or knights of a tute that won the hand)."""

    variant: str
    players: int
    rank_order: str
    names: list[str]
    dealer: int
    phase: str
    to_act: int | None
    trump: str | None
    turn_up: str | None
    turn_up_in_stock: bool
    turn_up_holder: int | None
    hand_counts: list[int]
    stock_left: int
    leader: int
    trick: list[tuple[int, str]]
    last_trick: list[tuple[int, str]]
    last_trick_winner: int | None
    tricks_won: list[int]
    points_taken: list[int]
    cantes: list[int]
    cantes_shown: list[CanteJson]
    declarer: int | None
    bid: int | None
    sitting_out: int | None
    partnerships: bool
    last_trick_bonus: int
    result: HandResult | None
    match: MatchJson | msgspec.UnsetType = msgspec.UNSET
    tute_cards: list[str] | msgspec.UnsetType = msgspec.UNSET


class SeatPart(msgspec.Struct):
    """What only this seat sees: its hand, its draws, what others showed it, what it may
    do (``legal``; the cards of it, ``legal_cards``; the rest typed for a page's
    buttons, ``calls``: cantes, tute, swap, bids, pass, trump, manilla);
    ``history``: and the hand's public actions in order -- for a bot's seat, whose
    program rebuilds the view (:func:`view_from_json`), not for a page, which follows
    the events (a third more bytes a message)."""

    seat: int
    hand: list[str]
    known_cards: list[list[str]]
    own_draws: list[str]
    legal: list[str]
    legal_cards: list[str]
    calls: list[Move]
    history: list[tuple[int, str]] | msgspec.UnsetType = msgspec.UNSET


class SpectatorPart(msgspec.Struct):
    """What a spectator sees beside the public table: the cards every seat has shown to
    all -- no hand, no stock -- and, once the hand is over, every hand as it was dealt
    (``dealt``) and the cards drawn (``drawn``): a hand is public once played."""

    known_cards: list[list[str]]
    seat: None = None
    hand: list[str] = []
    legal: list[str] = []
    legal_cards: list[str] = []
    calls: list[Move] = []
    spectator: bool = True
    dealt: list[list[str]] | msgspec.UnsetType = msgspec.UNSET
    drawn: list[tuple[int, str]] | msgspec.UnsetType = msgspec.UNSET


class LogMessage(msgspec.Struct, kw_only=True):
    """The running hand's log as the socket sends it (everybody's: public only), at
    the table's event ``seq``."""

    type: str = "log"
    hand: int
    entries: list[Trick | Said]
    seq: int


class HintMessage(msgspec.Struct, kw_only=True):
    """A practice table's "pista" for one's seat: the best action, typed (``move``),
    and why, in words, at the table's event ``seq``."""

    type: str = "hint"
    action: str
    move: Move
    reason: str
    seq: int


class Trick(msgspec.Struct, tag="trick", tag_field="kind"):
    """A trick of the hand's log: its cards by seat, who took it once complete."""

    n: int
    cards: list[tuple[int, str]]
    winner: int | None = None


class Said(msgspec.Struct, tag="said", tag_field="kind"):
    """An announcement of the hand's log (cante, tute, swap, bid, trump named), its
    text and typed (``move``)."""

    seat: int
    action: str
    move: Move


Part = SeatPart | SpectatorPart
ENCODE = msgspec.json.Encoder().encode


def view_json(v: PlayerView, names: list[str], match: Match | None = None,
              history: bool = False) -> bytes:
    """A seat's view as JSON text (``history``: with every public action of the hand)."""
    return joined(ENCODE(table_json(v.table, names, match)), seat_part(v, history))


def seat_part(v: PlayerView, history: bool = False) -> SeatPart:
    """What only this seat sees (:class:`SeatPart`)."""
    out = SeatPart(
        seat=v.seat, hand=[c.code for c in v.hand],
        known_cards=[sorted(c.code for c in k) for k in v.known_cards],
        own_draws=[c.code for c in v.own_draws],
        legal=[str(a) for a in v.legal],
        legal_cards=[a.card.code for a in v.legal if isinstance(a, Play)],
        calls=[move(a) for a in v.legal if not isinstance(a, Play)])
    if history:
        out.history = [(s, str(a)) for s, a in v.table.history]
    return out


def spectator_part(game: Game) -> SpectatorPart:
    """What a spectator sees beside the public table (:class:`SpectatorPart`)."""
    n = game.players
    out = SpectatorPart(
        # what seat s showed to all, as any other seat sees it
        known_cards=[sorted(c.code for c in game.view((s + 1) % n).known_cards[s])
                     for s in range(n)])
    if game.is_over:
        out.dealt = [[c.code for c in h] for h in game.deal.hands]
        out.drawn = [(s, c.code) for s, c in game.draws]
    return out


def tute_cards(game: Game) -> list[str] | msgspec.UnsetType:
    """A finished hand won by a tute: the four kings or knights it was declared with,
    which the rules have the declarer show to all; UNSET otherwise."""
    r = game.result()
    if r is None or r.tute is None:
        return msgspec.UNSET
    for seat in range(game.players):
        if game.side[seat] != r.tute:
            continue
        held = [*game.deal.hands[seat], *(c for s, c in game.draws if s == seat)]
        for rank in ("R", "C"):
            four = [c.code for c in held if c.code[:-1] == rank]
            if len(four) == 4:
                return four
    return msgspec.UNSET


def joined(table: bytes, part: Part) -> bytes:
    """A view's JSON from the table's, encoded once for every seat (``table``: the
    encoded :class:`TableJson`), and the seat's own part: one object with the keys of
    both -- they never meet -- without encoding the shared part again for each seat."""
    return table[:-1] + b"," + ENCODE(part)[1:]


def table_json(t: TableView, names: list[str], match: Match | None = None,
               tute: list[str] | msgspec.UnsetType = msgspec.UNSET) -> TableJson:
    """What every seat sees alike (``tute``: :func:`tute_cards`)."""
    out = TableJson(
        variant=str(t.variant), players=t.variant.players,
        rank_order=rank_order(t.variant.ranking),           # the core's card order
        names=names, dealer=t.dealer, phase=t.phase, to_act=t.to_act,
        trump=t.trump.value if t.trump else None,
        turn_up=t.turn_up.code if t.turn_up else None,
        turn_up_in_stock=t.turn_up_in_stock, turn_up_holder=t.turn_up_holder,
        hand_counts=list(t.hand_counts),
        stock_left=t.stock_left, leader=t.leader,
        trick=[(s, c.code) for s, c in t.trick],
        last_trick=[(s, c.code) for s, c in t.last_trick],
        last_trick_winner=t.last_trick_winner,
        tricks_won=list(t.tricks_won), points_taken=list(t.points_taken),
        cantes=list(t.cantes),
        cantes_shown=[CanteJson(c.seat, c.suit.value, c.points, [x.code for x in c.cards])
                      for c in t.cantes_shown],
        declarer=t.declarer, bid=t.bid, sitting_out=t.sitting_out,
        partnerships=t.variant.partnerships,
        last_trick_bonus=t.variant.last_trick_bonus,
        result=t.result, tute_cards=tute)
    if match is not None:
        if match.annulled:                   # the hand stopped where it was: nobody's turn
            out.to_act = None
        score = match.score()
        out.match = MatchJson(hand=match.hand_number, hands_won=list(score.hands_won),
                              points=list(score.points), winner=score.winner,
                              over=match.is_over, annulled=match.annulled,
                              format=match.variant.match, target=match.variant.match_target,
                              porotos=list(score.porotos))
    return out


def view_from_json(d: dict[str, Any]) -> PlayerView:
    """A seat's view again from its JSON (:func:`view_json` with its history, as a
    bot's seat gets it): what a program playing through the API gives its robot
    (``examples/bot_client.py``); a KeyError or a TuteError for JSON that is not one."""
    def cards(xs: list[str]) -> tuple[Card, ...]:
        return tuple(parse_card(x) for x in xs)

    def pairs(xs: list[list[Any]]) -> tuple[tuple[int, Card], ...]:
        return tuple((int(s), parse_card(c)) for s, c in xs)

    r = d["result"]
    table = TableView(
        variant=parse_variant(d["variant"]), dealer=int(d["dealer"]), phase=str(d["phase"]),
        to_act=d["to_act"], trump=None if d["trump"] is None else Suit.parse(d["trump"]),
        turn_up=None if d["turn_up"] is None else parse_card(d["turn_up"]),
        turn_up_in_stock=bool(d["turn_up_in_stock"]), turn_up_holder=d["turn_up_holder"],
        hand_counts=tuple(d["hand_counts"]), stock_left=int(d["stock_left"]),
        leader=int(d["leader"]), trick=pairs(d["trick"]), last_trick=pairs(d["last_trick"]),
        tricks_won=tuple(d["tricks_won"]), points_taken=tuple(d["points_taken"]),
        cantes=tuple(d["cantes"]),
        cantes_shown=tuple(CanteShown(int(c["seat"]), Suit.parse(c["suit"]), int(c["points"]),
                                      (parse_card(c["cards"][0]), parse_card(c["cards"][1])))
                           for c in d["cantes_shown"]),
        history=tuple((int(s), parse_action(a)) for s, a in d["history"]),
        result=None if r is None else result_from_json(r), declarer=d["declarer"],
        bid=d["bid"], sitting_out=d["sitting_out"], last_trick_winner=d["last_trick_winner"])
    return PlayerView(table=table, seat=int(d["seat"]), hand=cards(d["hand"]),
                      known_cards=tuple(frozenset(cards(k)) for k in d["known_cards"]),
                      own_draws=cards(d["own_draws"]),
                      legal=tuple(parse_action(a) for a in d["legal"]))


class EventMessage(msgspec.Struct, kw_only=True):
    """One event of a table as a viewer gets it (``event``: its public form, or a
    placeholder with its number), with the viewer's view after it (none for a chat
    line), the table's summary and its deal's where the event changed them
    (``table``, ``deal``), the move clock while it runs.  The parts every viewer
    shares are encoded once an event (``msgspec.Raw``)."""

    type: str = "event"
    event: msgspec.Raw
    view: msgspec.Raw | msgspec.UnsetType = msgspec.UNSET
    table: msgspec.Raw | msgspec.UnsetType = msgspec.UNSET
    deal: msgspec.Raw | msgspec.UnsetType = msgspec.UNSET
    clock: msgspec.Raw | msgspec.UnsetType = msgspec.UNSET


class Watching(msgspec.Struct, kw_only=True):
    """How many watch a table, and their names."""

    count: int
    spectators: list[str]


class StateMessage(msgspec.Struct, kw_only=True):
    """What a viewer is sent last when it comes (after the events it missed): its view
    now, the table's and the deal's summaries, its seat (``you``: None for a
    spectator), its author id (how the page knows its own chat lines), who watches,
    the move clock while it runs."""

    type: str = "event"
    event: dict[str, int | str]
    view: msgspec.Raw | None
    table: TableSummary
    deal: DealSummary
    you: int | None
    author: str
    audience: Watching
    clock: ClockRunning | msgspec.UnsetType = msgspec.UNSET


class AudienceMessage(msgspec.Struct, kw_only=True):
    """Who watches, told to the whole table when it changed."""

    type: str = "audience"
    count: int
    spectators: list[str]


class Refusal(msgspec.Struct, kw_only=True):
    """What a socket says of a request it refuses: why, in the reader's language, and
    the refusal's key."""

    type: str = "error"
    message: str
    key: str


def refusal(e: TuteError, lang: str) -> str:
    """A refusal's message text, in ``lang``."""
    return encode(Refusal(message=e.localized(lang), key=e.key))


def raw(value: object) -> msgspec.Raw:
    """A value encoded once, to go into many messages."""
    return msgspec.Raw(ENCODE(value))


def encode(message: object) -> str:
    """A message's JSON text (the server writes one per seat per event; a view already
    encoded goes in as a ``msgspec.Raw``, :func:`joined`)."""
    return ENCODE(message).decode()


def hand_log(game: Game) -> list[Trick | Said]:
    """The hand so far as every player saw it ("historial de la mano"): each trick
    (its cards by seat, and who took it once it is complete) and each announcement
    (cantes, tute, swap, bids, the trump named) where it came, seats as in the views."""
    per_trick = game.variant.players_dealt
    winners = game.trick_winners
    out: list[Trick | Said] = []
    current: Trick | None = None
    done = 0
    for seat, action in game.history:
        if isinstance(action, Play):
            if current is None:
                current = Trick(done + 1, [])
                out.append(current)
            current.cards.append((seat, action.card.code))
            if len(current.cards) == per_trick:
                current.winner = winners[done] if done < len(winners) else None
                done += 1
                current = None
        else:
            out.append(Said(seat, str(action), move(action)))
    return out
