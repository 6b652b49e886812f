"""A table's events, typed: one frozen struct per kind (msgspec, tagged by ``kind``).

The store keeps each as ``(seq, kind, data)`` -- :func:`stored` writes that form and
:func:`typed` reads it back, upcasting what older versions wrote (a seat's ``"kind":
"robot"`` before ``robot`` existed; a bot account's seat before ``bot`` existed, its
name said so; a seat without its person; a start without its escrow).  Fields at their defaults are not written, so today's events are stored as
they always were.  :func:`public` is what everybody may know of one: the shuffle seed,
a person's key and place stay on the server.
"""

from __future__ import annotations

from abc import ABC
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import msgspec

from tute.core.actions import ACTION_TYPES, Action, parse_action
from tute.core.errors import TuteError
from tute.core.result import HandResult
from tute.server.store import Event
from tute.server.tables.options import Fields
from tute.server.wire.hub import SPECTATOR
from tute.server.wire.moves import move


class EventError(TuteError):
    """A stored event that is not one of a table's kinds (the table cannot replay)."""


if TYPE_CHECKING:
    ActionField = Action
else:
    class ActionField(ABC):  # noqa: B024 -- a virtual base: the actions registered
        """An action in an event: msgspec holds no union of dataclasses, so it reads this
        field's text with :func:`_read` (each kind of action registered as one, for
        msgspec's check of what it read) and the event is written with the text
        (:func:`_plain`)."""

    for _kind in ACTION_TYPES:
        ActionField.register(_kind)


def _read(kind: object, value: object) -> object:
    if kind is ActionField:
        if not isinstance(value, str):
            raise ValueError("an action is its text")
        try:
            return parse_action(value)
        except TuteError as error:
            raise ValueError(str(error)) from None
    raise NotImplementedError(kind)


class TableEvent(msgspec.Struct, frozen=True, tag_field="kind", omit_defaults=True):
    """One thing that happened at a table."""

    def hidden_from(self, seat: int, hidden: AbstractSet[str]) -> bool:
        """Whether a viewer of ``seat`` (:data:`~tute.server.wire.hub.SPECTATOR` for a
        spectator) who hides the authors ``hidden`` may not see this event -- every
        viewer sees every event but some chat lines (:meth:`Said.hidden_from`); one it
        may not see reaches it as a placeholder with the same number."""
        return False


class OptionsSet(TableEvent, Fields[str], frozen=True, tag="options"):
    """The host set the table's options (the first event of every table): each option
    of :class:`~tute.server.tables.options.Fields`, the variant as its text."""


class Seated(TableEvent, frozen=True, tag="seat"):
    """A seat taken, by a person (``player``: its key, ``where``: its place; ``avatar``:
    the face its account chose then) or a robot."""

    seat: int
    name: str
    robot: bool
    player: str | None = None       # None: a robot, or a seat stored before it was said
    account: int | None = None
    where: str | None = None
    avatar: str | None = None
    bot: bool = False               # a bot account's seat (a program playing as itself)


class DealSeeds(msgspec.Struct, frozen=True):
    """What a hand was shuffled from (:mod:`tute.core.shuffle`): the commitment
    published at event ``committed``, its server seed (kept on the server until the
    hand ends), the seeds people's clients gave after it (seat, seed, event), the
    nonce (the hand's number in its match)."""

    commitment: str
    seed: str
    committed: int
    clients: tuple[tuple[int, str, int], ...] = ()
    nonce: int = 1


class Committed(TableEvent, frozen=True, tag="commit"):
    """The next hand's shuffle committed: the SHA-256 of a fresh server seed
    (published at once; the seed stays on the server until that hand ends).  A new
    table's; after that each deal (``start``, ``next_hand``) commits to the next."""

    commitment: str
    seed: str


class ClientSeed(TableEvent, frozen=True, tag="client_seed"):
    """A person's client added its seed to the next hand's shuffle."""

    seat: int
    client_seed: str


class Started(TableEvent, frozen=True, tag="start"):
    """A match started: its shuffle seed (kept on the server), whether it is practice,
    its escrow's attempt; ``deal``: its first hand dealt verifiably (None: from the
    seed, as tables did before)."""

    seed: int
    practice: bool = False
    escrow: str | None = None
    deal: DealSeeds | None = None
    commitment: str | None = None       # the next hand's (its seed: ``next_seed``)
    next_seed: str | None = None


class Practice(TableEvent, frozen=True, tag="practice"):
    """The match just started counts for nothing, and why."""

    why: str


class Staged(TableEvent, frozen=True, tag="staged"):
    """The match's first hand dealt as a kept hand was and played as it was up to one of
    its decisions, for a person to play it again from there ("jugar de nuevo desde
    aquí"): the deal, the actions before the decision (seat, action), and where it came
    from (the kept match's id, the hand, the trick; ``series``: the duplicate series
    whose deal ``series_deal`` it is -- kept as hidden as the deal itself)."""

    hands: tuple[tuple[str, ...], ...]
    turn_up: str | None
    stock: tuple[str, ...]
    dealer: int
    before: tuple[tuple[int, str], ...]
    game: str
    hand: int
    trick: int
    series: str | None = None
    series_deal: int = 0


class Acted(TableEvent, frozen=True, tag="action"):
    """A seat's action (typed; stored in its canonical text); ``auto``: made for a
    person (the clock, automatic play); ``clock``: by the clock, the person's time having
    run out (the plays in a row it made put the seat in automatic play; False in an
    action stored before it was said)."""

    seat: int
    action: ActionField
    auto: bool = False
    clock: bool = False


class HandEnded(TableEvent, frozen=True, tag="next_hand"):
    """A hand's count (``revealed``: its server seed, where it was dealt verifiably),
    and the next hand dealt (``deal``: verifiably; None: from the match's seed)."""

    hand: int
    result: HandResult
    revealed: str | None = None
    deal: DealSeeds | None = None
    commitment: str | None = None       # the hand after's (its seed: ``next_seed``)
    next_seed: str | None = None


class MatchEnded(TableEvent, frozen=True, tag="match_over"):
    """The last hand's count: the match is over (``revealed``: the hand's server seed)."""

    winner: int | None
    result: HandResult
    revealed: str | None = None


class SeatGain(msgspec.Struct, frozen=True):
    """A person's chips (won less the bet) and XP from a settled match."""

    seat: int
    chips: int
    xp: int


class Settled(TableEvent, frozen=True, tag="settled"):
    """A competitive match's pot and XP paid out (after its ``match_over``): what each
    person took, as the ledger has it, and when (seconds since the epoch; 0: stored
    before it was said) -- the order of a person's matches for the achievements."""

    gains: list[SeatGain]
    at: int = 0


class Earned(TableEvent, frozen=True, tag="earned"):
    """A person earned achievements with the match just settled (their keys, in the
    catalogue's order): the table announces it ("¡Ana consigue *Tute de reyes*!")."""

    seat: int
    name: str
    keys: list[str]


class Invited(TableEvent, frozen=True, tag="invite"):
    account: int
    name: str


class AutomaticSet(TableEvent, frozen=True, tag="automatic"):
    seat: int
    on: bool


class Editing(TableEvent, frozen=True, tag="editing"):
    on: bool


class Abandoned(TableEvent, frozen=True, tag="abandon"):
    seat: int


class AnnulVoted(TableEvent, frozen=True, tag="annul_vote"):
    """A person proposed to annul the running match (the first of a vote) or agreed:
    who agreed so far, and when the vote lapses (``until``, seconds since the epoch --
    a stored fact a restart keeps; 0: stored before it was said, lapsed)."""

    seat: int
    agreed: list[int]
    until: float = 0.0


class AnnulRefused(TableEvent, frozen=True, tag="annul_refused"):
    seat: int


class AnnulExpired(TableEvent, frozen=True, tag="annul_expired"):
    pass


class Annulled(TableEvent, frozen=True, tag="annulled"):
    """The match ended by agreement (``revealed``: the unfinished hand's server seed)."""

    agreed: list[int]
    revealed: str | None = None


class RematchVoted(TableEvent, frozen=True, tag="rematch_vote"):
    """A person agreed to another match with the same people (the first proposes it):
    who agreed so far, and when the proposal lapses (``until``, seconds since the epoch;
    0: stored before it was said, lapsed)."""

    seat: int
    agreed: list[int]
    until: float = 0.0


class RematchRefused(TableEvent, frozen=True, tag="rematch_refused"):
    seat: int


class Said(TableEvent, frozen=True, tag="chat"):
    """A chat message; ``phrase``: a quick phrase's or emoticon's key (its text then
    empty: each reader's page says it in their language)."""

    author: str
    name: str
    seat: int
    text: str
    quiet: bool = False
    phrase: str | None = None

    def hidden_from(self, seat: int, hidden: AbstractSet[str]) -> bool:
        """A line of someone the viewer muted or blocked; and -- against collusion --
        a spectator's line written while a hand was played (``quiet``), for the
        players (spectators see it)."""
        return self.author in hidden or (self.quiet and seat != SPECTATOR)


AnyEvent = (OptionsSet | Seated | Committed | ClientSeed | Started | Practice | Staged | Acted | HandEnded | MatchEnded
            | Settled | Earned | Invited | AutomaticSet | Editing | Abandoned | AnnulVoted | AnnulRefused
            | AnnulExpired | Annulled | RematchVoted | RematchRefused | Said)
_SECRET = {"start": ("seed", "escrow", "deal", "next_seed"), "next_hand": ("deal", "next_seed"),
           "commit": ("seed",),
           "seat": ("player", "account", "where"), "staged": ("hands", "turn_up", "stock", "before")}


def _plain(event: TableEvent) -> dict[str, Any]:
    """An event as JSON's own values (its tuples -- a hand's count -- as lists, as they
    read back from the store)."""
    if isinstance(event, Acted):                      # the action as its text
        event = msgspec.structs.replace(event, action=str(event.action))
    data: dict[str, Any] = _DECODE(_ENCODE(event))
    return data


_ENCODE, _DECODE = msgspec.json.Encoder().encode, msgspec.json.Decoder().decode


def stored(seq: int, event: TableEvent) -> Event:
    """The event as the store keeps it."""
    data = _plain(event)
    kind = str(data.pop("kind"))
    return Event(seq, kind, data)


def typed(e: Event) -> AnyEvent:
    """A stored event as its struct (today's or an older version's form)."""
    data = dict(e.data)
    if e.kind == "seat" and "kind" in data:           # stored before "robot" existed
        data["robot"] = data.pop("kind") == "robot"
    if e.kind == "seat" and "bot" not in data and str(data.get("name", "")).endswith(" (bot)"):
        data["bot"] = True                            # stored before the flag: its name said so
    try:
        event: AnyEvent = msgspec.convert({**data, "kind": e.kind}, AnyEvent, dec_hook=_read)
        return event
    except msgspec.ValidationError as error:
        raise EventError("bad_event", seq=e.seq, why=str(error)) from error


@dataclass(frozen=True, slots=True)
class Shown:
    """An event of a table's history, as every viewer may know it: its number, the
    event, and its public form (the event less its secrets, :func:`public`) encoded once
    for every viewer it is sent to."""

    seq: int
    event: TableEvent
    text: msgspec.Raw

    @property
    def kind(self) -> str:
        return str(self.event.__struct_config__.tag)

    @property
    def data(self) -> dict[str, Any]:
        """The public form as plain JSON values (what a page reads)."""
        out: dict[str, Any] = _DECODE(self.text)
        return out

    def seen_by(self, seat: int, hidden: AbstractSet[str]) -> bool:
        return not self.event.hidden_from(seat, hidden)


def shown(seq: int, event: TableEvent) -> Shown:
    """An event as the history keeps it (:class:`Shown`)."""
    return Shown(seq, event, msgspec.Raw(_ENCODE(public(seq, event))))


def public(seq: int, event: TableEvent) -> dict[str, Any]:
    """What everybody may know of an event (with its number and kind)."""
    data = _plain(event)
    for secret in _SECRET.get(str(data["kind"]), ()):
        data.pop(secret, None)
    if data["kind"] == "start":
        data.pop("practice", None)
    if isinstance(event, Acted):                      # typed for a page: wire/moves.py
        data["move"] = msgspec.to_builtins(move(event.action))
    data["seq"] = seq
    return data
