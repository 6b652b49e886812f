"""What a request makes happen at a table: each function takes the table's state and a
command and returns the events it makes -- or raises a typed refusal (a
:class:`~tute.core.errors.TuteError` a player can read) -- and changes nothing.  The
table stores the events and applies them (:mod:`tute.server.tables.state`).

The core's rules are the one authority on actions: an action is checked by the game
itself (:meth:`~tute.core.game.Game.check`, the test its ``apply`` makes), so a refusal
says exactly why in the player's words; only a move that may end the hand is tried on a
copy of the game, to count the hand.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from tute.bots import BEST, check_level
from tute.core.actions import ACTION_TYPES, Action, parse_action
from tute.core.errors import OutOfTurnError, TuteError, WrongPhaseError
from tute.core.match import Match
from tute.core.shuffle import CLIENT_SEED
from tute.core.variants import Variant, make_variant, parse_variant
from tute.server.site.names import (
    BOT_SUFFIX,
    InvalidNameError,
    name_skeleton,
    seat_name,
)
from tute.server.social.chat import ChatError
from tute.server.tables.events import (
    Abandoned,
    Acted,
    AutomaticSet,
    ClientSeed,
    DealSeeds,
    Editing,
    Invited,
    Practice,
    Said,
    Seated,
    Staged,
    Started,
    TableEvent,
)
from tute.server.tables.options import Options
from tute.server.tables.state import (
    TableState,
    commit,
    deal_seeds,
    hand_end,
    staged_game,
)
from tute.server.wire.protocol import TableOptions

ROBOT_NAMES = ("Ada", "Bruno", "Carmen", "Diego", "Elena", "Fermín")
MAX_BET = 100_000
BOTS = ("no", "yes", "only")            # who of the bot accounts may sit (Options.bots)
TABLE_MESSAGES = 3000                   # messages one table keeps; then its chat is full


class TableError(TuteError):
    """A table request that cannot be done (seat taken, not the host...)."""


class TableBrokenError(TableError):
    """The table's events cannot be replayed: it is closed and reported."""


def check_options(options: Options) -> Options:
    """The options a host may set (a typed refusal if not)."""
    check_level(options.robot_level)
    if not 0 <= options.move_seconds <= 600:
        raise TableError("bad_move_time")
    bet, competitive = options.bet, options.competitive
    if not 0 <= bet <= MAX_BET or (bet and not competitive) or (competitive and bet < 1):
        raise TableError("bad_bet", max=MAX_BET)     # competitive: something at stake
    if options.bots not in BOTS:
        raise TableError("bad_bots_option")
    return options


def variant_of(body: TableOptions) -> Variant:
    """The variant of a table from seed 001's table options, or a variant text."""
    if body.preset is None:
        return parse_variant(body.variant or "habanero")
    options: dict[str, object] = {}
    if body.players is not None:
        options["players"] = body.players
    rounds = 1 if body.rounds is None else body.rounds
    if not 1 <= rounds <= 5:
        raise TableError("bad_rounds")
    options["match_target"] = rounds
    if body.allow_tute is False:
        options["tute_set"] = "off"
    if body.trump_on_trump:
        options["stock_obligations"] = "trump_on_trump"
    return make_variant(body.preset, options)


def options_of(body: TableOptions, current: Options | None = None) -> Options:
    """A table's options from a request's (``current``: the table's own, for what the
    request leaves unsaid)."""
    level = body.robot_level or (current.robot_level if current else BEST)
    bots = body.bots if body.bots is not None else current.bots if current else "no"
    return check_options(Options(
        variant_of(body), level, float(body.move_seconds), competitive=body.competitive,
        bet=body.bet, spectators=body.spectators, chat_in_hand=body.chat_in_hand,
        private=body.private, bots=bots))


def check_bot(options: Options, bot: bool) -> None:
    """A bot account sits where the host lets bots sit; a person not at a bots' table."""
    if bot and options.bots == "no":
        raise TableError("table_no_bots")
    if not bot and options.bots == "only":
        raise TableError("table_bots_only")


def seat_of(state: TableState, player: str | None) -> int | None:
    """The seat of a person at the table (by player key)."""
    if player is None:
        return None
    for s, r in state.seats.items():
        if r.player is not None and secrets.compare_digest(r.player, player):
            return s
    return None


def check_host(state: TableState, host: str | None, player: str | None) -> None:
    if player is None or host is None or seat_of(state, player) is None \
            or not secrets.compare_digest(player, host):
        raise TableError("only_host")


def check_open(state: TableState, broken: str | None) -> None:
    if broken is not None:
        raise TableBrokenError("table_broken")
    if state.match is not None:
        raise TableError("table_started")


def free_seat(state: TableState, seat: object) -> int:
    players = state.options.variant.players
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
        raise TableError("bad_seat", seat=seat, players=players)
    if seat in state.seats:
        raise TableError("seat_taken", seat=seat)
    return seat


def sit(state: TableState, player: str, seat: object, name: object, account: int | None,
        where: str | None, avatar: str | None = None, bot: bool = False) -> Seated:
    """A person (or a bot account) takes a free seat before the match starts."""
    if state.options.competitive and account is None:
        raise TableError("competitive_needs_account")
    check_bot(state.options, bot)
    already = seat_of(state, player)
    if already is not None:
        raise TableError("already_seated", seat=already)
    chosen = free_seat(state, seat)
    shown = seat_name(name, bot)
    for r in state.seats.values():
        if name_skeleton(r.name) == name_skeleton(shown):
            raise InvalidNameError("name_in_use", name=r.name)
    return Seated(chosen, shown, False, player, account, where, avatar, bot)


def robots(state: TableState, names: dict[int, str] | None = None) -> list[Seated]:
    """Robots in every empty seat; ``names``: what a seat's robot is called after
    (a kept hand played again: whoever sat there, marked a robot -- "Lucía (robot)",
    the badge at the table says so -- not a person renamed "Bruno")."""
    named = {s: robot_name(n) for s, n in (names or {}).items()}
    taken = {name_skeleton(r.name) for r in state.seats.values()}
    free = (n for n in ROBOT_NAMES if name_skeleton(f"{n} (robot)") not in
            taken | {name_skeleton(x) for x in named.values()})
    out = []
    for s in range(state.options.variant.players):
        if s in state.seats:
            continue
        name = named.get(s)
        if name is None or name_skeleton(name) in taken:
            name = f"{next(free)} (robot)"
        taken.add(name_skeleton(name))
        out.append(Seated(s, name, True))
    return out


def robot_name(name: str) -> str:
    """Whoever sat at a seat, as a robot playing for them: "Lucía" and "Eve (bot)" are
    "Lucía (robot)" and "Eve (robot)"; a robot keeps its name."""
    base = name.strip()
    for mark in (" (robot)", BOT_SUFFIX):
        base = base.removesuffix(mark)
    return f"{base} (robot)"


def set_options(state: TableState, options: Options) -> None:
    """Whether the host may change the options now (a refusal if not)."""
    if state.match is not None and not state.match.is_over:
        raise TableError("table_started")
    if state.options.series is not None or state.series_again is not None:
        raise TableError("series_table")           # its deal and robots are the series'
    if state.options.tourney is not None:          # (played again: nobody watches it)
        raise TableError("tourney_table")          # its game is the tournament's
    if options.variant.players != state.options.variant.players:
        raise TableError("players_fixed", players=state.options.variant.players)
    for r in state.seats.values():                  # who sits may stay seated
        if r.kind == "human":
            check_bot(options, r.bot)


def start(state: TableState, broken: str | None, seed: int, attempt: str,
          practice: str | None, staged: Staged | None = None,
          series: DealSeeds | None = None) -> list[TableEvent]:
    """A match starts (``practice``: why it counts for nothing, or None; ``staged``:
    its first hand a kept hand played again from a decision -- never where it counts;
    ``series``: its hand a duplicate series' deal, committed by the series)."""
    if broken is not None:
        raise TableBrokenError("table_broken")
    if state.match is not None and not state.match.is_over:
        raise TableError("table_started")
    if len(state.seats) < state.options.variant.players:
        raise TableError("seats_empty")
    if (series is None) != (state.options.series is None) or \
            (series is not None and state.matches):
        raise TableError("series_table")      # a series' table plays its deal, once
    if state.options.tourney is not None and state.matches:
        raise TableError("tourney_table")     # a tournament's board: one match
    if series is not None:               # the series' deal: the table's commitment waits
        events: list[TableEvent] = [Started(seed, practice is not None, attempt, series)]
    elif staged is None:                 # the next commitment's deal, and a new one
        c = commit()
        events = [Started(seed, practice is not None, attempt, deal_seeds(state, 1),
                          c.commitment, c.seed)]
    else:                                # a kept hand played again: nothing shuffled
        events = [Started(seed, practice is not None, attempt)]
    if practice is not None:                      # told to everyone: no XP, no chips
        events.append(Practice(practice))
    if staged is not None:
        if state.options.competitive:
            raise TableError("staged_competitive")
        staged_game(state.options.variant, staged)   # a TuteError if it cannot be dealt
        events.append(staged)
    return events


@dataclass(frozen=True, slots=True)
class Played:
    """An action's events, and the match after them (to keep it, when it ends)."""

    events: list[TableEvent]
    after: Match


def _typed(action: object) -> Action:
    """An action as given: typed (the socket, the robots, the clock), or its text."""
    if isinstance(action, str):
        return parse_action(action)
    if isinstance(action, ACTION_TYPES):
        return action
    raise TableError("bad_message")


def act(state: TableState, broken: str | None, seat: int | None, text: object,
        auto: bool, clock: bool = False) -> Played:
    """A seat's action (typed, or its text), checked by the core; with the hand's end
    when it ends one (``auto``: made for a person; ``clock``: by the clock, the person's
    time out)."""
    if seat is None:
        raise OutOfTurnError("not_seated")
    if broken is not None:
        raise TableBrokenError("table_broken")
    match = state.match
    if match is None or match.is_over:
        raise WrongPhaseError("no_game")
    action = _typed(text)
    if seat not in match.seat_map:
        raise OutOfTurnError("out_of_match")
    at = match.seat_map.index(seat)
    match.game.check(at, action)                      # the one authority; raises
    events: list[TableEvent] = [Acted(seat, action, auto, auto and clock)]
    if not match.game.may_end(at, action):            # most moves: nothing to copy
        return Played(events, match)
    game = match.game.copy()
    game.apply(at, action)
    if not game.is_over:
        return Played(events, match)
    ended = match.copy()
    ended.game = game
    end, after = hand_end(state, ended)
    return Played([*events, end], after)


def client_seed(state: TableState, seat: int | None, seed: object) -> list[TableEvent]:
    """A person's client adds its seed to the next hand's shuffle (once a commitment)."""
    if seat is None or state.seats.get(seat) is None or state.seats[seat].kind != "human":
        raise OutOfTurnError("not_seated")
    if not isinstance(seed, str) or not CLIENT_SEED.fullmatch(seed):
        raise TableError("bad_client_seed")
    if state.pending is None:
        raise TableError("no_commitment")
    if seat in state.client_seeds:
        raise TableError("seed_given")
    return [ClientSeed(seat, seed)]


def automatic(state: TableState, seat: int, on: bool, asked: bool = False
              ) -> list[TableEvent]:
    """Automatic play switched for a person's seat (nothing when it already is so, or
    when there is no match to play).  ``asked``: the person asked it (or came back):
    the clock's count of their seat starts again, so where it is not 0 the switch is
    said even though it already is so."""
    m = state.match
    already = (seat in state.automatic) == on
    if already and asked and state.timeouts.get(seat, 0):
        return [AutomaticSet(seat, on)]
    if already or (on and (m is None or m.is_over)):
        return []
    return [AutomaticSet(seat, on)]


def timed_out(state: TableState, seat: int, after: int) -> list[TableEvent]:
    """After ``after`` plays in a row made by the clock (``TableState.timeouts``) a
    person's seat goes to automatic play (nothing when it is not time, or already)."""
    if state.timeouts.get(seat, 0) < after:
        return []
    return automatic(state, seat, True)


def editing(state: TableState, on: bool) -> list[TableEvent]:
    return [] if state.editing == on else [Editing(on)]


def invite(state: TableState, broken: str | None, account: int, name: str
           ) -> list[TableEvent]:
    if broken is not None:
        raise TableBrokenError("table_broken")
    return [] if account in state.invited else [Invited(account, name)]


@dataclass(frozen=True, slots=True)
class Abandoning:
    """An abandon's events (none: nothing to abandon), and whether it counts -- a
    competitive match played for chips: the abandon is counted on the profile."""

    events: list[TableEvent]
    counts: bool = False


def abandon(state: TableState, seat: int | None, any_match: bool = False) -> Abandoning:
    """``seat`` abandons the running match: a person who said so (``any_match``: any
    running match), or one away too long from a match that counts (a competitive one
    not played as practice).  Nothing when there is no such match, or the seat is a
    robot's or left already; a refusal when nobody sits there."""
    if seat is None:
        raise TableError("not_seated")
    m, row = state.match, state.seats.get(seat)
    counts = state.options.competitive and not state.practice
    if not (counts or any_match) or m is None or m.is_over \
            or seat in state.abandoned or row is None or row.kind != "human":
        return Abandoning([])
    return Abandoning([Abandoned(seat)], counts)              # the robot plays the seat on


def say(state: TableState, author: str, name: str, seat: int, text: str,
        phrase: str | None = None, spectator: bool = False) -> Said:
    """A chat message by ``author`` (``name`` at ``seat``; ``spectator``: a logged-in
    spectator's), or a ChatError: no word while a hand is played at a table that
    closed its chat then, none once the table's chat is full.  A spectator's message
    written during a hand is never shown to the players (``quiet``)."""
    in_hand = state.match is not None and not state.match.is_over
    if in_hand and not state.options.chat_in_hand:   # players' and spectators': no
        raise ChatError("chat_closed_in_hand")       # word, and no sign, in a hand
    if sum(1 for e in state.history if isinstance(e.event, Said)) >= TABLE_MESSAGES:
        raise ChatError("chat_full")
    return Said(author, name, seat, text, spectator and in_hand, phrase)
