"""A table's state, made only by applying its events: :func:`apply` is the one way it
changes, live (after the events are stored) and on replay (a restart, an adoption by
another process) alike.

A hand's end (``next_hand``, ``match_over``) and an annulment replace the match with a
copy that moved on, so the match an earlier event was shown with stays as it was then
(a hand's last card is shown before its count).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from tute.core.actions import Action, parse_action
from tute.core.deal import Deal, deal_from_hands
from tute.core.game import Game
from tute.core.match import Match
from tute.core.shuffle import ShuffleProof, commitment, new_server_seed
from tute.core.variants import Variant, parse_variant
from tute.duplicate.series import dealer as series_dealer
from tute.server.site.economy import bettors, stakes_of
from tute.server.store import Event, SeatRow
from tute.server.tables.events import (
    Abandoned,
    Acted,
    AnnulExpired,
    Annulled,
    AnnulRefused,
    AnnulVoted,
    AutomaticSet,
    ClientSeed,
    Committed,
    DealSeeds,
    Editing,
    HandEnded,
    Invited,
    MatchEnded,
    OptionsSet,
    Practice,
    RematchRefused,
    RematchVoted,
    Said,
    Seated,
    SeatGain,
    Settled,
    Shown,
    Staged,
    Started,
    TableEvent,
    shown,
    stored,
    typed,
)
from tute.server.tables.options import Options, as_fields, of_event


@dataclass(slots=True)
class OpenVote:
    """A proposal open at the table -- to annul its running match, or a rematch after
    one: who proposed it, who agreed so far, and when it lapses (seconds since the
    epoch, as its events say; 0: stored before they said it, lapsed)."""

    proposer: int
    until: float
    agreed: set[int] = field(default_factory=set)

    def open(self, now: float) -> bool:
        return now < self.until


def _voted(vote: OpenVote | None, seat: int, agreed: list[int], until: float) -> OpenVote:
    """The vote after a ``seat``'s vote event: a new proposal (none open, or one with
    another deadline -- a lapsed one) or one more who agreed."""
    if vote is None or vote.until != until:
        return OpenVote(seat, until, set(agreed))
    vote.agreed = set(agreed)
    return vote


@dataclass(slots=True)
class TableState:
    """Everything a table's events say of it."""

    options: Options
    match: Match | None = None
    seq: int = 0                      # the last event
    turn: int = 0                     # the last event that is not chat
    matches: int = 0                  # matches started
    started_at: int = 0               # the last match's start event
    seats: dict[int, SeatRow] = field(default_factory=dict)
    places: dict[int, str] = field(default_factory=dict)     # where each person sat from
    avatars: dict[int, str] = field(default_factory=dict)    # the faces people chose
    invited: set[int] = field(default_factory=set)          # accounts the host invited
    automatic: set[int] = field(default_factory=set)        # people's seats a robot plays
    timeouts: dict[int, int] = field(default_factory=dict)  # plays in a row by the clock
    abandoned: set[int] = field(default_factory=set)        # who left the running match
    practice: bool = False            # the running match counts for nothing
    practice_why: str | None = None   # and why (``Practice``): said until the next start
    escrow: str = ""                  # the running match's escrow (ledger.escrow's match)
    editing: bool = False             # the host has the options open
    pot: int = 0                      # the running (or last) match's bets together
    gains: list[SeatGain] = field(default_factory=list)    # the last match's, once paid
    pending: tuple[str, str, int] | None = None   # the next shuffle's commitment, seed, event
    client_seeds: dict[int, tuple[str, int]] = field(default_factory=dict)  # for it: seed, event
    revealed: tuple[str, str] | None = None       # the last ended hand's commitment and seed
    history: list[Shown] = field(default_factory=list)   # as viewers may know it
    series_again: str | None = None   # a series' deal played again here: that series
    annul_vote: OpenVote | None = None    # a proposal to annul the running match
    rematch_vote: OpenVote | None = None  # a proposal of another match, the same people


def seat_row(e: Seated) -> SeatRow:
    """The store's row of the seat a ``seat`` event takes."""
    return SeatRow(e.seat, e.name, "robot" if e.robot else "human", e.player, e.account,
                   e.bot)


def escrow_name(number: int, attempt: str | None) -> str:
    """The escrow of a table's ``number``-th match (:func:`~tute.server.site.ledger.escrow`'s
    match): the number and the start's attempt, or the number alone for a start stored
    before attempts were."""
    return f"{number}.{attempt}" if attempt else str(number)


def escrow_number(escrow: str) -> int:
    """The match number an escrow name (:func:`escrow_name`) belongs to (0: none)."""
    head = escrow.split(".")[0]
    return int(head) if head.isdigit() else 0


def options_of(e: OptionsSet) -> Options:
    return of_event(e)


def options_event(o: Options) -> OptionsSet:
    return OptionsSet(**as_fields(o))


def commit() -> Committed:
    """A fresh commitment for the next hand's shuffle."""
    seed = new_server_seed()
    return Committed(commitment(seed), seed)


def _committing(state: TableState, seq: int, digest: str | None, seed: str | None) -> None:
    if digest is None or seed is None:
        return
    if commitment(seed) != digest:
        raise ValueError(f"event {seq}: a commitment that is not its seed's")
    state.pending = (digest, seed, seq)
    state.client_seeds = {}


def deal_seeds(state: TableState, nonce: int) -> DealSeeds | None:
    """The next hand's shuffle from the pending commitment and the seeds given since
    (None: nothing committed -- a table from before verifiable deals)."""
    if state.pending is None:
        return None
    digest, seed, at = state.pending
    clients = tuple((s, c, e) for s, (c, e) in sorted(state.client_seeds.items()))
    return DealSeeds(digest, seed, at, clients, nonce)


def revealed(match: Match) -> str | None:
    """The server seed of ``match``'s current hand, where it was dealt verifiably."""
    proof = match.game.proof
    return proof.server_seed if proof is not None else None


def verifiable(variant: Variant, seeds: DealSeeds, seq: int, dealer: int, seats: int
               ) -> Game:
    """The hand ``seeds`` deal (at event ``seq``; ``seats``: the table's)."""
    proof = ShuffleProof(seeds.commitment, seeds.seed, seeds.clients, seeds.nonce,
                         seeds.committed, seq)
    return Game.verifiable(variant, proof, dealer, seats)


def hand_end(state: TableState, match: Match) -> tuple[TableEvent, Match]:
    """The event that ends the finished hand of ``match`` (not changed) -- its count,
    and ``next_hand`` (the next hand dealt from the pending commitment, and a new one)
    or ``match_over`` -- and the match after it (its next hand's proof without the
    event number it is dealt at: the state's has it)."""
    after = match.copy()
    result = after.record_hand()
    shown = revealed(match)
    if after.is_over:
        return MatchEnded(after.winner, result, shown), after
    seeds = deal_seeds(state, after.hand_number)
    c = commit()
    _deal_next(after, seeds, 0)
    return HandEnded(after.hand_number, result, shown, seeds, c.commitment, c.seed), after


def stage(variant: Variant, deal: Deal, before: Sequence[tuple[int, Action]], game: str,
          hand: int, trick: int, series: str | None = None, series_deal: int = 0
          ) -> Staged:
    """The ``staged`` event of a kept hand played again from one of its decisions
    (``series``: a duplicate series' deal ``series_deal``)."""
    return Staged(tuple(tuple(str(c) for c in h) for h in deal.hands),
                  None if deal.turn_up is None else str(deal.turn_up),
                  tuple(str(c) for c in deal.stock), deal.dealer,
                  tuple((s, str(a)) for s, a in before), game, hand, trick, series,
                  series_deal)


def staged_game(variant: Variant, e: Staged) -> Game:
    """The hand a ``staged`` event deals, played up to its decision."""
    g = Game(variant, deal_from_hands(variant, e.hands, e.turn_up, e.stock, e.dealer))
    for seat, action in e.before:
        g.apply(seat, parse_action(action))
    return g


def _moved_on(m: Match, seeds: DealSeeds | None = None, seq: int = 0) -> Match:
    """The match after its finished hand's count: a copy (the one before stays); its
    next hand dealt from ``seeds`` (None: from the match's seed)."""
    after = m.copy()
    after.record_hand()
    if not after.is_over:
        _deal_next(after, seeds, seq)
    return after


def _deal_next(after: Match, seeds: DealSeeds | None, seq: int) -> None:
    """Deal ``after``'s next hand (its last one scored) from ``seeds`` at event ``seq``
    (None: from the match's seed) -- the one way live and on replay."""
    if seeds is None:
        after.deal_next()
        return
    variant, dealer = after.upcoming()
    after.deal_next(verifiable(variant, seeds, seq, dealer, after.variant.players))


def _reveal(state: TableState, m: Match, seed: str | None) -> None:
    proof = m.game.proof
    if proof is not None:
        if seed != proof.server_seed:
            raise ValueError("a hand's revealed seed is not its own")
        state.revealed = (proof.commitment, seed)


def apply(state: TableState, seq: int, event: TableEvent) -> None:
    """``event`` (numbered ``seq``) happened: the state after it.  Raises (a TuteError,
    or another exception) when it cannot have happened -- a replay then fails."""
    m = state.match
    if isinstance(event, OptionsSet):
        state.options = options_of(event)
        state.editing = False
        state.rematch_vote = None        # agreed to the options that were
    elif isinstance(event, Seated):
        state.seats[event.seat] = seat_row(event)
        state.client_seeds.pop(event.seat, None)     # the seat's last person's seed
        state.places.pop(event.seat, None)
        state.avatars.pop(event.seat, None)
        if event.avatar is not None:
            state.avatars[event.seat] = event.avatar
        if event.where is not None:
            state.places[event.seat] = event.where
    elif isinstance(event, Committed):
        _committing(state, seq, event.commitment, event.seed)
    elif isinstance(event, ClientSeed):
        state.client_seeds[event.seat] = (event.client_seed, seq)
    elif isinstance(event, Started):
        state.matches += 1
        state.started_at = seq
        v = state.options.variant
        dealer = series_dealer(v.players, state.options.series_deal) \
            if state.options.series else 0
        first = None if event.deal is None else verifiable(v, event.deal, seq, dealer,
                                                             v.players)
        state.match = Match(v, seed=event.seed, first_game=first)
        if event.deal is not None:
            state.pending = None
        _committing(state, seq, event.commitment, event.next_seed)
        state.practice = event.practice
        state.practice_why = None
        state.annul_vote = state.rematch_vote = None
        state.abandoned = set()
        state.escrow = escrow_name(state.matches, event.escrow)
        state.gains = []
        counts = state.options.competitive and not event.practice
        state.pot = state.options.bet * len(bettors(v, stakes_of(state.seats.values()))) \
            if counts else 0
    elif isinstance(event, Staged):
        if m is None or m.hand_number != 1 or m.game.history:
            raise ValueError(f"event {seq}: a staged hand not first in its match")
        state.match = Match(state.options.variant, seed=m.seed, first_game=staged_game(state.options.variant, event))
        if event.series is not None:
            state.series_again = event.series        # hidden from then on
    elif isinstance(event, Acted):
        if m is None:
            raise ValueError(f"event {seq}: an action before the match started")
        m.game.apply(m.seat_map.index(event.seat), event.action)
        if event.clock:                  # the person's time ran out once more
            state.timeouts[event.seat] = state.timeouts.get(event.seat, 0) + 1
        elif not event.auto and event.seat in state.timeouts:    # the person played
            state.timeouts[event.seat] = 0
    elif isinstance(event, HandEnded | MatchEnded):
        if m is None:
            raise ValueError(f"event {seq}: a hand's end before the match started")
        _reveal(state, m, event.revealed)
        seeds = event.deal if isinstance(event, HandEnded) else None
        state.match = _moved_on(m, seeds, seq)
        if seeds is not None:
            state.pending = None
        if isinstance(event, HandEnded):
            _committing(state, seq, event.commitment, event.next_seed)
        else:
            state.annul_vote = None      # nothing left to annul
    elif isinstance(event, Annulled):
        if m is None:
            raise ValueError(f"event {seq}: an annulment before the match started")
        _reveal(state, m, event.revealed)
        after = m.copy()
        after.annul()
        state.match = after
        state.annul_vote = None
    elif isinstance(event, AnnulVoted):
        state.annul_vote = _voted(state.annul_vote, event.seat, event.agreed, event.until)
    elif isinstance(event, AnnulRefused | AnnulExpired):
        state.annul_vote = None
    elif isinstance(event, RematchVoted):
        vote = _voted(state.rematch_vote, event.seat, event.agreed, event.until)
        people = {s for s, r in state.seats.items() if r.kind == "human"}
        state.rematch_vote = None if people <= vote.agreed else vote   # agreed: it starts
    elif isinstance(event, RematchRefused):
        state.rematch_vote = None
    elif isinstance(event, Practice):
        state.practice_why = event.why
    elif isinstance(event, Settled):
        state.gains = list(event.gains)
    elif isinstance(event, Invited):
        state.invited.add(event.account)
    elif isinstance(event, AutomaticSet):
        state.timeouts[event.seat] = 0
        if event.on:
            state.automatic.add(event.seat)
        else:
            state.automatic.discard(event.seat)
    elif isinstance(event, Editing):
        state.editing = event.on
    elif isinstance(event, Abandoned):
        state.abandoned.add(event.seat)
        state.automatic.add(event.seat)
    state.seq = seq
    if not isinstance(event, Said | ClientSeed):     # neither moves the game on
        state.turn = seq
    state.history.append(shown(seq, event))


@dataclass(slots=True)
class Replayed(TableState):
    """A table rebuilt from its stored events, with the events its replay derived that
    were never stored (to be written before it plays on)."""

    missing: list[Event] = field(default_factory=list)


def replay(variant: str, robot_level: str, events: list[Event],
           seats: list[SeatRow] | None = None) -> Replayed:
    """Rebuild a table from its stored events (``seats``: the store's rows, the truth
    of who sits where -- seats taken before a seat's event said its person).  Raises
    when they cannot be replayed: the caller marks the table broken.

    Every prefix of a table's events is a live table: a hand whose last action was
    stored without its ``next_hand`` (a crash between them, from an older version) gets
    it derived again, in ``missing``, for the caller to store."""
    state = Replayed(Options(parse_variant(variant), robot_level, 0.0))
    for e in events:
        if e.seq != state.seq + 1:
            raise ValueError(f"event {state.seq + 1} is missing (found {e.seq})")
        apply(state, e.seq, typed(e))
    m = state.match
    if m is not None and not m.is_over and m.game.is_over:
        event, _ = hand_end(state, m)
        state.missing.append(stored(state.seq + 1, event))
        apply(state, state.seq + 1, event)
    if seats is not None:
        state.seats = {r.seat: r for r in seats}
        state.places = {s: p for s, p in state.places.items()
                        if s in state.seats and state.seats[s].kind == "human"}
        state.avatars = {s: a for s, a in state.avatars.items()
                         if s in state.seats and state.seats[s].kind == "human"}
    state.editing = False             # a restart closes the host's options: no page has them
    return state
