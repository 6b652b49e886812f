"""The messages a client may send, typed and validated at the edge (msgspec).

Every request body and WebSocket message is decoded into one of these frozen structs or
refused with a :class:`ProtocolError` whose message says what is wrong; nothing reaches
a table that is not of the right shape (unknown fields, wrong types, numbers out of
range, over-long strings, broken UTF-8 and lone surrogates are all refused here).
"""

from __future__ import annotations

from typing import Annotated, Any, TypeVar

import msgspec

from tute.core.errors import TuteError

Text = Annotated[str, msgspec.Meta(max_length=200)]
Name = Annotated[str, msgspec.Meta(max_length=80)]     # names.validate_name says more
Seat = Annotated[int, msgspec.Meta(ge=0, le=15)]
Seconds = Annotated[float, msgspec.Meta(ge=0, le=600)]


class ProtocolError(TuteError):
    """A request or message that is not of the protocol's shape."""


class _Body(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    pass


class TableOptions(_Body, frozen=True, forbid_unknown_fields=True):
    """A table's options: a variant text, or seed 001's options over a preset (made a
    table's :class:`~tute.server.tables.options.Options` by
    :func:`tute.server.tables.decide.options_of`)."""

    variant: Text | None = None
    preset: Text | None = None
    players: Seat | None = None
    rounds: Annotated[int, msgspec.Meta(ge=-1000, le=1000)] | None = None
    allow_tute: bool | None = None
    trump_on_trump: bool | None = None
    robot_level: Annotated[str, msgspec.Meta(max_length=32)] | None = None
    move_seconds: Annotated[float, msgspec.Meta(ge=-1e6, le=1e6)] = 0.0
    competitive: bool = False
    bet: Annotated[int, msgspec.Meta(ge=-10**9, le=10**9)] = 0
    spectators: bool = True          # "Permitir público"
    chat_in_hand: bool = True        # off: the players' chat is closed during a hand
    private: bool = False            # "Mesa privada"
    bots: Annotated[str, msgspec.Meta(max_length=8)] | None = None   # no|yes|only (None:
    # a new table's "no", or the table's own when its options change)


class CreateTable(TableOptions, frozen=True, forbid_unknown_fields=True):
    """``POST /api/tables``: the creator sits at ``seat`` as the host (a robots-only
    table has no host: it plays itself)."""

    name: Name | None = None
    seat: Seat = 0
    robots_only: bool = False


class SitDown(_Body, frozen=True, forbid_unknown_fields=True):
    """``POST /api/tables/{id}/seats``: take a free seat of one's choice."""

    seat: Seat
    name: Name
    invite: Annotated[str, msgspec.Meta(max_length=128)] | None = None   # a link's token


class FriendName(_Body, frozen=True, forbid_unknown_fields=True):
    """``POST /api/friends``: ask an account, by its name, to be friends."""

    name: Name


class TourneyJoin(_Body, frozen=True, forbid_unknown_fields=True):
    """``POST /api/tourneys/{id}/join``: at parejas, the partner asked for (by name)."""

    partner: Name | None = None


class FriendAnswer(_Body, frozen=True, forbid_unknown_fields=True):
    """``POST /api/friends/answer`` (accept or refuse a request) and
    ``/api/friends/remove`` (``accept`` unused)."""

    id: Annotated[int, msgspec.Meta(ge=1, le=2**62)]
    accept: bool = True


class Invite(_Body, frozen=True, forbid_unknown_fields=True):
    """``POST /api/tables/{id}/invite``: the host invites a friend (an account id)."""

    friend: Annotated[int, msgspec.Meta(ge=1, le=2**62)]


class AnalysisAsk(_Body, frozen=True, forbid_unknown_fields=True):
    """``POST /api/games/{id}/analysis``: judge one seat's decisions in one hand."""

    hand: Annotated[int, msgspec.Meta(ge=1, le=10**5)]
    seat: Annotated[int, msgspec.Meta(ge=0, le=7)]


class RecordOpen(_Body, frozen=True, forbid_unknown_fields=True):
    """``POST /api/records/open``: a ``.tute`` or ``.tpn`` text a person opened, to
    replay one of its hands (``game``: of a file holding several matches)."""

    text: Annotated[str, msgspec.Meta(max_length=256 * 1024)]
    hand: Annotated[int, msgspec.Meta(ge=1, le=10**4)] = 1
    game: Annotated[int, msgspec.Meta(ge=1, le=10**4)] = 1


class RecordAnalysis(_Body, frozen=True, forbid_unknown_fields=True):
    """``POST /api/games/file-.../analysis``: judge one seat's decisions in one hand of
    a match opened from a file -- the file's text sent again (the server keeps none)."""

    text: Annotated[str, msgspec.Meta(max_length=256 * 1024)]
    hand: Annotated[int, msgspec.Meta(ge=1, le=10**5)]
    seat: Annotated[int, msgspec.Meta(ge=0, le=7)]
    game: Annotated[int, msgspec.Meta(ge=1, le=10**4)] = 1


class PlayAgain(_Body, frozen=True, forbid_unknown_fields=True):
    """``POST /api/games/{id}/again``: play a kept hand again from one of a seat's
    decisions (``index``: of the action in the hand), at a new private table."""

    hand: Annotated[int, msgspec.Meta(ge=1, le=10**5)]
    seat: Annotated[int, msgspec.Meta(ge=0, le=7)]
    index: Annotated[int, msgspec.Meta(ge=0, le=10**4)]
    name: Name | None = None
    robot_level: Annotated[str, msgspec.Meta(max_length=32)] | None = None


class Empty(_Body, frozen=True, forbid_unknown_fields=True):
    """A request with nothing to say (``/robots``, ``/start``)."""


class Credentials(_Body, frozen=True, forbid_unknown_fields=True):
    """``POST /api/register`` and ``/api/login``: a name and a password."""

    name: Name
    password: Annotated[str, msgspec.Meta(max_length=1024)]


class BlockBody(_Body, frozen=True, forbid_unknown_fields=True):
    """``POST /api/blocks``: block (or unblock) the account behind a chat author id."""

    author: Annotated[str, msgspec.Meta(max_length=24)]
    on: bool = True


class AvatarBody(_Body, frozen=True, forbid_unknown_fields=True):
    """``POST /api/me/avatar``: a face of the site's set, or null (drawn from the name)."""

    avatar: Annotated[str, msgspec.Meta(max_length=24)] | None = None


# -- WebSocket: client to server ------------------------------------------------------

class Act(msgspec.Struct, frozen=True, tag_field="type", tag="act",
          forbid_unknown_fields=True):
    """An action in its canonical text: ``Ao``, ``20c``, ``40``, ``tute``, ``swap``,
    ``bid 70``, ``pass``, ``trump o``, ``manilla o``."""

    action: Annotated[str, msgspec.Meta(max_length=32)]


class StartMatch(msgspec.Struct, frozen=True, tag_field="type", tag="start",
                 forbid_unknown_fields=True):
    """The host starts the next match."""


class Ping(msgspec.Struct, frozen=True, tag_field="type", tag="ping",
           forbid_unknown_fields=True):
    """Keeps the connection alive; answered ``{"type": "pong"}``."""


class Annul(msgspec.Struct, frozen=True, tag_field="type", tag="annul",
            forbid_unknown_fields=True):
    """Propose to annul the running match, or agree (``agree``: true), or refuse."""

    agree: bool = True


class RematchVote(msgspec.Struct, frozen=True, tag_field="type", tag="rematch",
                  forbid_unknown_fields=True):
    """Propose another match with the same people at the end of one, or agree
    (``agree``: true), or refuse."""

    agree: bool = True


class Automatic(msgspec.Struct, frozen=True, tag_field="type", tag="automatic",
                forbid_unknown_fields=True):
    """Automatic play of one's seat on (the table's robot plays), or off ("volver")."""

    on: bool


class Leave(msgspec.Struct, frozen=True, tag_field="type", tag="leave",
            forbid_unknown_fields=True):
    """The person leaves the table ("Salir"): at a running competitive match, an
    abandon."""


class Editing(msgspec.Struct, frozen=True, tag_field="type", tag="editing",
              forbid_unknown_fields=True):
    """The host opens (``on``) or closes the table's options."""

    on: bool


Author = Annotated[str, msgspec.Meta(max_length=24)]


class Chat(msgspec.Struct, frozen=True, tag_field="type", tag="chat",
           forbid_unknown_fields=True):
    """A chat message (plain text; :mod:`tute.server.social.chat` says what is kept)."""

    text: Annotated[str, msgspec.Meta(max_length=1000)]


class Phrase(msgspec.Struct, frozen=True, tag_field="type", tag="phrase",
             forbid_unknown_fields=True):
    """A quick phrase or emoticon of the table's chat, by its key
    (:mod:`tute.server.social.phrases`): each reader sees it in their language."""

    key: Annotated[str, msgspec.Meta(max_length=24)]


class Seed(msgspec.Struct, frozen=True, tag_field="type", tag="seed",
           forbid_unknown_fields=True):
    """The client's own seed for the next hand's shuffle (:mod:`tute.core.shuffle`),
    given once the table has published that hand's commitment."""

    seed: Annotated[str, msgspec.Meta(max_length=64)]


class Mute(msgspec.Struct, frozen=True, tag_field="type", tag="mute",
           forbid_unknown_fields=True):
    """Stop getting a person's messages at this table (``on`` false: get them again)."""

    author: Author
    on: bool = True


class Block(msgspec.Struct, frozen=True, tag_field="type", tag="block",
            forbid_unknown_fields=True):
    """Block an account: its messages hidden everywhere, for good (or unblock)."""

    author: Author
    on: bool = True


class Report(msgspec.Struct, frozen=True, tag_field="type", tag="report",
             forbid_unknown_fields=True):
    """Report the chat message numbered ``seq`` (at a table; in the lobby, its id)."""

    seq: Annotated[int, msgspec.Meta(ge=1, le=10**9)]


class Hint(msgspec.Struct, frozen=True, tag_field="type", tag="hint",
           forbid_unknown_fields=True):
    """A hint for one's seat at a practice table ("pista"): the best move and why."""


class HandLog(msgspec.Struct, frozen=True, tag_field="type", tag="log",
              forbid_unknown_fields=True):
    """The running hand's tricks and announcements so far, as everybody saw them."""


ClientMessage = (Act | StartMatch | Ping | Annul | Automatic | Leave | Editing | Chat | Phrase
                 | Mute | Block | Report | Hint | HandLog | RematchVote | Seed)

T = TypeVar("T")
_DECODERS: dict[type, msgspec.json.Decoder[Any]] = {}
_WS: msgspec.json.Decoder[ClientMessage] = msgspec.json.Decoder(ClientMessage)


def decode_body(kind: type[T], raw: bytes) -> T:
    """A request body as ``kind``; an empty body is ``{}``."""
    decoder = _DECODERS.get(kind)
    if decoder is None:
        decoder = _DECODERS[kind] = msgspec.json.Decoder(kind)
    try:
        value: T = decoder.decode(raw or b"{}")
        return value
    except (msgspec.ValidationError, msgspec.DecodeError) as e:
        raise ProtocolError("request_malformed", why=str(e)) from None
    except RecursionError:                 # nesting deeper than any message has
        raise ProtocolError("request_malformed", why="nested too deep") from None


def decode_message(raw: str | bytes) -> ClientMessage:
    try:
        return _WS.decode(raw)
    except (msgspec.ValidationError, msgspec.DecodeError) as e:
        raise ProtocolError("request_malformed", why=str(e)) from None
    except RecursionError:                 # nesting deeper than any message has
        raise ProtocolError("request_malformed", why="nested too deep") from None
