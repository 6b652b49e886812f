"""The rules engine: one hand of Tute as a state machine (RULES.md §2-§7).

>>> g = Game.new("habanero", seed=7)
>>> seat = g.to_act
>>> g.apply(seat, g.legal_actions(seat)[0])

``legal_actions(seat)`` is what that seat may do now (its turn actions when it is to act,
plus any declaration open to it out of turn); ``apply(seat, action)`` does it or raises a
:class:`~tute.core.errors.TuteError` naming the rule, leaving the game unchanged.

Inside, cards are bits of an ``int`` (see :mod:`tute.core.tables`) and the state is mutable
for speed; a caller only sees it change through :meth:`Game.apply` (``copy()`` clones).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from tute.core import explain as _explain
from tute.core import snapshot as _snapshot
from tute.core.actions import (
    FORTY,
    MANILLAS,
    SWAP,
    TUTE,
    TWENTIES,
    Action,
    DeclareTute,
    Manilla,
    NameTrump,
    Play,
    SingForty,
    SingTwenty,
    Swap,
)
from tute.core.auction import Auction
from tute.core.cards import SUITS, Card
from tute.core.deal import Deal, deal_from_deck, deal_from_hands, deal_from_seed
from tute.core.declarations import DeclarationRules
from tute.core.result import HandResult
from tute.core.scoring import HandFigures, score_hand
from tute.core.shuffle import ShuffleProof
from tute.core.tables import (
    AUCTION,
    KINGS,
    OVER,
    POINTS,
    STOCK,
    STRENGTH_REY,
    STRICT,
    SUIT_MASK,
    SUIT_OF,
    Ranking,
    beats,
    ranking,
    strict_play_mask,
)
from tute.core.variants import VariantLike, as_variant
from tute.core.views import CanteShown, PlayerView, TableView

_OBLIGATIONS = {"none": 0, "trump_on_trump": 1, "full": 2}
_SWAP_TIMING = {"own_lead": 0, "after_won_trick": 1, "anytime": 2}
_FORTY_FIRST = {"off": 0, "if_held": 1, "strict": 2}

class Game(DeclarationRules):
    """One hand.  Build it with :meth:`new`, :meth:`from_deck` or :meth:`from_hands`."""

    # ---------------------------------------------------------------- construction
    def __init__(self, variant: VariantLike, deal: Deal) -> None:
        v = as_variant(variant)
        self.variant = v
        self.dealer = deal.dealer
        self.deal = deal
        self.seed: int | str | bytes | None = None     # set when dealt from a seed
        self.proof: ShuffleProof | None = None         # set when dealt verifiably
        n = v.players
        self.n = n
        rk = ranking(v.ranking)
        self.rk: Ranking = rk
        self.bit_of = rk.bit_of_index
        self.partners = v.partnerships
        self.side = tuple(v.side_of(s) for s in range(n))
        self.nsides = v.num_sides
        sing_who = v.sing_who
        self.unit = tuple(self.side[s] if sing_who == "winner_or_partner" else s
                           for s in range(n))
        self.partner_may_sing = self.partners and sing_who in (
            "winner_or_partner", "both_one_each")
        self.declarer_sings = sing_who == "declarer"
        self.manilla = v.manilla
        self.oblig = _OBLIGATIONS[v.stock_obligations]
        self.undertrump = v.must_undertrump
        self.partner_exc = v.partner_exception and self.partners
        self.swap_kind = {"none": 0, "seven": 1, "seven_and_two": 2}[v.swap]
        self.swap_timing = _SWAP_TIMING[v.swap_timing]
        self.forty_first = _FORTY_FIRST[v.forty_first]
        self.stock_only = v.sing_while_stock_only and v.has_stock
        self.use_or_lose = v.sing_use_or_lose
        self.tute_anytime = v.tute_timing == "anytime" and v.tute_set != "off"
        tk = KINGS
        self.tute_sets: tuple[int, ...] = {
            "kings_or_knights": (tk, rk.knights), "kings": (tk,),
            "kings_and_knights": (tk | rk.knights,), "off": (),
        }[v.tute_set]

        self.hands = [rk.mask_of(h) for h in deal.hands]
        self.stock = [rk.bit_of_index[c.index] for c in deal.stock]
        self.stock_pos = 0
        self.turn_up_bit = -1 if deal.turn_up is None else rk.bit_of_index[deal.turn_up.index]
        self.turn_up_live = v.trump == "turn_up"
        # with dealer_last the turned card stays with whoever got the last card (the
        # dealer, or the player before a Cabrero dealer who sits out)
        self.turn_up_owner = -1
        if v.trump == "dealer_last" and deal.turn_up is not None:
            self.turn_up_owner = next(
                (s for s in range(n) if deal.turn_up in deal.hands[s]), -1)
        # seats dealt in, and the next of each (a Cabrero dealer may sit out)
        out = deal.dealer if v.dealer_sits_out else -1
        self.playing = tuple(s for s in range(n) if s != out)
        self.nplay = len(self.playing)
        self.next_seat = tuple(next(t for t in ((s + i) % n for i in range(1, n + 1))
                                if t != out) for s in range(n))
        self.trump_suit = -1
        self.swap_bits = 0
        if self.turn_up_bit >= 0:
            self.set_trump(SUIT_OF[self.turn_up_bit])
        self.known = [0] * n                  # cards of each seat shown to everybody
        if self.turn_up_owner >= 0:
            self.known[self.turn_up_owner] = 1 << self.turn_up_bit
        self.phase_code = STOCK if (self.stock or self.turn_up_live) else STRICT
        self.acting = self.next_seat[deal.dealer]
        self.leader = self.acting
        self.auction: Auction | None = None
        self.declarer = -1
        self.bid = 0
        if v.trump == "declarer":
            self.phase_code = AUCTION
            order = [self.acting]
            while len(order) < self.nplay:
                order.append(self.next_seat[order[-1]])
            self.auction = Auction(tuple(order), self.acting, v.min_bid, v.bid_step)
        self.trick_seats: list[int] = []
        self.trick_bits: list[int] = []
        self.led = -1
        self.win_bit = -1
        self.win_seat = -1
        self.last_trick: list[tuple[int, int]] = []
        self.won = [0] * n                    # cards taken, per seat
        self.points = [0] * self.nsides      # card points taken (+ last trick)
        self.tricks = [0] * self.nsides
        self.trick_winner_seats: list[int] = []
        self.cantes = [0] * self.nsides
        self.cantes_shown: list[CanteShown] = []
        self.sung_suits = 0
        self.manilla_suits = 0
        self.window_manilla = [False] * n     # per unit, in the open window
        self.sang = [False] * n               # per player: has sung (no_tute_after_sing)
        self.sang_twenty = [False] * n        # per unit: a 20 sung (forty_first strict)
        self.lost = [0] * n                   # per unit: suits lost (sing_use_or_lose)
        self.window = -1                      # seat whose declaration window is open
        self.window_sang = [False] * n        # per unit, in the open window
        self.window_singable = [0] * n        # per unit, at some moment of the window
        self.actions: list[tuple[int, Action]] = []
        self.drawn: list[tuple[int, int]] = []     # (seat, bit) in order
        self.tute_side = -1
        self.hand_result: HandResult | None = None
        self.version = 0
        self._public_ver = -1                    # the views' shared part, by version
        self._public: TableView | None = None
        self._cache_ver = [-1] * n
        self._cache: list[tuple[Action, ...]] = [()] * n
        self._cache_mask = [0] * n

    @classmethod
    def new(cls, variant: VariantLike, seed: int | str | bytes | None = None, dealer: int = 0,
            rng: random.Random | None = None) -> Game:
        """Shuffle (``random.Random(seed)``, or ``rng``) and deal."""
        v = as_variant(variant)
        if rng is not None:
            from tute.core.deal import shuffled_deck
            return cls(v, deal_from_deck(v, shuffled_deck(v, rng), dealer))
        g = cls(v, deal_from_seed(v, seed, dealer))
        g.seed = seed
        return g

    @classmethod
    def verifiable(cls, variant: VariantLike, proof: ShuffleProof, dealer: int = 0,
                   seats: int | None = None) -> Game:
        """Deal the deck :mod:`tute.core.shuffle` gives from ``proof``'s seeds (its server
        seed known; ``seats``: the match's, one client seed each -- the variant's
        players unless some are out); the game keeps the proof, for its record."""
        from tute.core.shuffle import shuffled_deck

        v = as_variant(variant)
        clients = proof.seeds_by_seat(v.players if seats is None else seats)
        deck = shuffled_deck(v, proof.server_seed, clients, proof.nonce)
        g = cls(v, deal_from_deck(v, deck, dealer))
        g.proof = proof
        return g

    @classmethod
    def from_deck(cls, variant: VariantLike, deck: Sequence[object], dealer: int = 0) -> Game:
        """Deal an explicit deck order (top card first)."""
        v = as_variant(variant)
        return cls(v, deal_from_deck(v, deck, dealer))

    @classmethod
    def from_hands(cls, variant: VariantLike, hands: Sequence[Sequence[object]],
                   turn_up: object = None, stock: Sequence[object] = (),
                   dealer: int = 0) -> Game:
        """Start from given hands, turn-up and stock (first card drawn first)."""
        v = as_variant(variant)
        return cls(v, deal_from_hands(v, hands, turn_up, stock, dealer))

    def copy(self) -> Game:
        """An independent copy of this game."""
        g = Game.__new__(Game)
        g.__dict__.update(self.__dict__)             # the deal, the seed, the caches
        self.copy_state_to(g)                        # every field of the hand's state
        for name in ("_cache_ver", "_cache", "_cache_mask"):
            setattr(g, name, list(getattr(self, name)))
        if self.auction is not None:
            g.auction = self.auction.copy()
        return g

    # ---------------------------------------------------------------- public state
    @property
    def players(self) -> int:
        return self.n

    @property
    def trick(self) -> tuple[Card, ...]:
        cob = self.rk.card_of_bit
        return tuple(cob[b] for b in self.trick_bits)

    @property
    def tricks_won(self) -> tuple[int, ...]:
        return tuple(self.tricks)

    @property
    def history(self) -> tuple[tuple[int, Action], ...]:
        return tuple(self.actions)

    @property
    def trick_winners(self) -> tuple[int, ...]:
        """The seat that won each trick so far, in order."""
        return tuple(self.trick_winner_seats)

    @property
    def draws(self) -> tuple[tuple[int, Card], ...]:
        """Every draw from the stock as (seat, card), in order (the full state: a player
        sees only his own, in :meth:`view`)."""
        cob = self.rk.card_of_bit
        return tuple((s, cob[b]) for s, b in self.drawn)

    @property
    def turn_up_holder(self) -> int | None:
        """The seat known to hold the turn-up (last draw, or the dealer with
        ``dealer_last``), else None."""
        return None if self.turn_up_owner < 0 else self.turn_up_owner

    @property
    def window_open(self) -> bool:
        """Whether a declaration window (RULES.md §6, Protocol) is open."""
        return self.window >= 0

    def hand(self, seat: int) -> tuple[Card, ...]:
        """A seat's cards (the full state: not for players; use :meth:`view`)."""
        return tuple(self.rk.cards_of(self.hands[self._seat(seat)]))

    def side_of(self, seat: int) -> int:
        return self.side[self._seat(seat)]

    def result(self) -> HandResult | None:
        """The hand's result once it is over, else None."""
        return self.hand_result

    # ---------------------------------------------------------------- legal actions
    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """Everything ``seat`` may do now; ``()`` if nothing."""
        if type(seat) is not int or not 0 <= seat < self.n:
            seat = self._seat(seat)
        if self._cache_ver[seat] == self.version:
            return self._cache[seat]
        if self.phase_code == OVER:
            acts: tuple[Action, ...] = ()
            mask = 0
        elif self.auction is not None:
            acts = self.auction.legal(seat)
            mask = 0
        elif seat == self.acting:
            mask = self._play_mask(seat)
            acts = self.rk.plays_of(mask)
            if (self.window >= 0 or self.tute_anytime
                    or (self.turn_up_live and self.hands[seat] & self.swap_bits)):
                acts += self._declarations(seat, True)
        else:
            mask = 0
            acts = self._declarations(seat, False) if self.window >= 0 else ()
        self._cache_ver[seat] = self.version
        self._cache[seat] = acts
        self._cache_mask[seat] = mask
        return acts

    def seats_with_declarations(self) -> tuple[int, ...]:
        """Seats other than the one to act that may declare now (out of turn)."""
        if self.window < 0:
            return ()
        return tuple(s for s in range(self.n)
                     if s != self.acting and self.legal_actions(s))

    def _play_mask(self, seat: int) -> int:
        hand = self.hands[seat]
        if not self.trick_bits:
            return hand
        led = self.led
        trump = self.trump_suit
        if self.phase_code == STOCK and self.oblig != 2:
            if self.oblig == 1 and led == trump:
                return (hand & SUIT_MASK[trump]) or hand
            return hand
        return strict_play_mask(
            hand, led, trump, self.win_bit,
            self.partner_exc and self.side[self.win_seat] == self.side[seat],
            self.undertrump)

    def _declarations(self, seat: int, on_turn: bool) -> tuple[Action, ...]:
        out: list[Action] = []
        if self.window >= 0:
            m = self._singable_suits(seat)
            if m:
                trump = self.trump_suit
                for s in range(4):
                    if m >> s & 1:
                        out.append(FORTY if s == trump else TWENTIES[s])
        if self.manilla is not None:
            out.extend(MANILLAS[s] for s in range(4) if self._may_manilla(seat) >> s & 1)
        if self._may_tute(seat, on_turn):
            out.append(TUTE)
        if on_turn and self._may_swap(seat):
            out.append(SWAP)
        return tuple(out)

    # ---------------------------------------------------------------- applying
    def apply(self, seat: int, action: Action) -> None:
        """Do ``action`` for ``seat``, or raise a TuteError and change nothing."""
        if type(seat) is not int or not 0 <= seat < self.n:
            seat = self._seat(seat)
        if self._cache_ver[seat] != self.version:
            self.legal_actions(seat)
        if type(action) is Play:
            bit = self.bit_of[action.card.index]
            if not (self._cache_mask[seat] >> bit) & 1:
                raise _explain.explain(self, seat, action)
            self._play(seat, bit)
        else:
            if action not in self._cache[seat]:
                raise _explain.explain(self, seat, action)
            if self.auction is not None:
                self._auction_step(seat, action)
            elif type(action) is SingTwenty:
                self._sing(seat, action.suit.index)
            elif type(action) is SingForty:
                self._sing(seat, self.trump_suit)
            elif type(action) is Swap:
                self._swap(seat)
            elif type(action) is DeclareTute:
                self._declare_tute(seat)
            elif type(action) is Manilla:
                self._declare_manilla(seat, action.suit.index)
            else:  # pragma: no cover - every legal action kind is handled above
                raise _explain.explain(self, seat, action)
        self.actions.append((seat, action))
        self.version += 1

    def check(self, seat: int, action: Action) -> None:
        """Raise the TuteError :meth:`apply` would raise for ``action``; change nothing.
        (The same test as :meth:`apply`'s, which keeps its own copy inline: solvers call
        it millions of times.)"""
        seat = self._seat(seat)
        if type(action) is Play:
            if not (self._legal_mask(seat) >> self.bit_of[action.card.index]) & 1:
                raise _explain.explain(self, seat, action)
        elif action not in self.legal_actions(seat):
            raise _explain.explain(self, seat, action)

    def may_end(self, seat: int, action: Action) -> bool:
        """Whether doing ``action`` (legal) could end the hand; False only where it
        certainly does not.  A hand ends in three ways alone: a trick after which its
        winner holds no card, an auction where everyone passed, a tute declared.  A play
        can end it only when it completes a trick and some hand is then empty (draws
        from the stock only add cards)."""
        if type(action) is not Play or self.auction is not None:
            return True
        if len(self.trick_bits) + 1 < self.nplay:
            return False
        bit = 1 << self.bit_of[action.card.index]
        hands = self.hands
        return any((hands[s] & ~bit if s == seat else hands[s]) == 0 for s in self.playing)

    def _legal_mask(self, seat: int) -> int:
        if self._cache_ver[seat] != self.version:
            self.legal_actions(seat)
        return self._cache_mask[seat]

    def _seat(self, seat: object) -> int:
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < self.n:
            return seat
        from tute.core.errors import OutOfTurnError
        raise OutOfTurnError("bad_seat", seat=seat, players=self.n)

    def _play(self, seat: int, bit: int) -> None:
        self.hands[seat] ^= 1 << bit
        self.known[seat] &= ~(1 << bit)
        tb = self.trick_bits
        if not tb:
            if self.window >= 0:
                self._close_window()
            self.led = SUIT_OF[bit]
            self.win_bit = bit
            self.win_seat = seat
        else:
            if beats(bit, self.win_bit, self.trump_suit):
                self.win_bit = bit
                self.win_seat = seat
        tb.append(bit)
        self.trick_seats.append(seat)
        if len(tb) == self.nplay:
            self._finish_trick()
        else:
            self.acting = self.next_seat[seat]

    def _finish_trick(self) -> None:
        w = self.win_seat
        side = self.side[w]
        tb = self.trick_bits
        pts = 0
        mask = 0
        for b in tb:
            pts += POINTS[b]
            mask |= 1 << b
        self.points[side] += pts
        self.tricks[side] += 1
        self.won[w] |= mask
        self.trick_winner_seats.append(w)
        self.last_trick = list(zip(self.trick_seats, tb, strict=False))
        self.trick_bits = []
        self.trick_seats = []
        if self.phase_code == STOCK:
            self._draw(w)
        if not self.hands[w]:
            self.points[side] += self.variant.last_trick_bonus
            self._end_hand()
            return
        self.acting = self.leader = w
        self.window = w
        if self.use_or_lose:
            self.refresh_window_singable()

    def _draw(self, winner: int) -> None:
        stock = self.stock
        s = winner
        for _ in range(self.nplay):
            if self.stock_pos < len(stock):
                b = stock[self.stock_pos]
                self.stock_pos += 1
            elif self.turn_up_live:
                b = self.turn_up_bit
                self.turn_up_live = False
                self.turn_up_owner = s
                self.known[s] |= 1 << b
            else:
                break
            self.hands[s] |= 1 << b
            self.drawn.append((s, b))
            s = self.next_seat[s]
        if self.stock_pos >= len(stock) and not self.turn_up_live:
            self.phase_code = STRICT

    def _close_window(self) -> None:
        if self.use_or_lose:
            for u in range(self.n):
                if not self.window_sang[u]:
                    self.lost[u] |= self.window_singable[u]
            self.window_singable = [0] * self.n
        self.window = -1
        self.window_sang = [False] * self.n
        self.window_manilla = [False] * self.n

    def _sing(self, seat: int, suit: int) -> None:
        unit = self.unit[seat]
        trump = suit == self.trump_suit
        self.cantes[self.side[seat]] += 40 if trump else 20
        self.sung_suits |= 1 << suit
        self.window_sang[unit] = True
        self.sang[seat] = True
        if not trump:
            self.sang_twenty[unit] = True
        rey = suit * 10 + STRENGTH_REY
        pair = (1 << rey) | (1 << (rey - 1))
        self.known[seat] |= pair
        cob = self.rk.card_of_bit
        self.cantes_shown.append(CanteShown(
            seat, SUITS[suit], 40 if trump else 20, (cob[rey], cob[rey - 1])))

    def _swap(self, seat: int) -> None:
        give = self._swap_card(seat)
        take = self.turn_up_bit
        self.hands[seat] = (self.hands[seat] ^ (1 << give)) | (1 << take)
        self.known[seat] |= 1 << take
        self.turn_up_bit = give
        self.turn_up_owner = -1
        if self.use_or_lose and self.window >= 0:
            self.refresh_window_singable()     # the hand changed: a marriage may be new

    def _declare_manilla(self, seat: int, suit: int) -> None:
        assert self.manilla is not None
        self.cantes[self.side[seat]] += self.manilla
        self.manilla_suits |= 1 << suit
        self.window_manilla[self.unit[seat]] = True
        self.known[seat] |= 0b11 << (suit * 10 + 8)

    def _auction_step(self, seat: int, action: Action) -> None:
        auction = self.auction
        assert auction is not None
        if isinstance(action, NameTrump):
            self.declarer = auction.declarer
            self.bid = auction.high
            self.auction = None
            self.set_trump(action.suit.index)
            self.phase_code = STOCK if self.stock else STRICT
            self.acting = self.leader = self.next_seat[self.dealer]
            return
        auction.apply(seat, action)
        if auction.void:
            self._end_hand()
        else:
            self.acting = auction.to_act

    def _declare_tute(self, seat: int) -> None:
        self.tute_side = self.side[seat]
        self.known[seat] |= self.hands[seat] & (KINGS | self.rk.knights)
        self._end_hand()

    def _end_hand(self) -> None:
        self.phase_code = OVER
        self.window = -1
        self.hand_result = self._compute_result()

    def _compute_result(self) -> HandResult:
        side = self.side
        auction = self.auction
        return score_hand(self.variant, HandFigures(
            points=tuple(self.points), cantes=tuple(self.cantes),
            tricks=tuple(self.tricks),
            trick_winners=tuple(side[w] for w in self.trick_winner_seats),
            tute=self.tute_side if self.tute_side >= 0 else None,
            sang=tuple(self.sang), playing=self.playing,
            declarer=self.declarer, bid=self.bid,
            void=auction is not None and auction.void))

    # ---------------------------------------------------------------- views
    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may know now -- and nothing else."""
        seat = self._seat(seat)
        return _snapshot.view(self, seat, self.legal_actions(seat), self.table_view())

    def table_view(self) -> TableView:
        """What every seat sees alike now (no card of any hand): the ``table`` of every
        seat's :meth:`view`, made once per state."""
        table = self._public
        if table is None or self._public_ver != self.version:
            table = self._public = _snapshot.table_view(self)
            self._public_ver = self.version
        return table

    def _side_won(self, side: int) -> int:
        return _snapshot.side_won(self, side)

    def locations(self) -> dict[str, frozenset[Card]]:
        """Where every card is (the full state: for tests, analysis and records).

        Keys: ``hand0`` .. ``handN``, ``won0`` .. ``wonN`` (tricks taken per seat),
        ``trick``, ``stock`` (face-down), ``turn_up`` (still to be drawn) and ``dead``
        (a dead turn-up, never drawn).
        """
        return _snapshot.locations(self)

    def state_fields(self) -> dict[str, object]:
        """The fields of a scenario's ``state`` step, in scenario notation."""
        return {
            "trump": None if self.trump_suit < 0 else SUITS[self.trump_suit].value,
            "to_act": self.to_act,
            "stock_left": self.stock_left,
            "phase": self.phase,
            "tricks_won": list(self.tricks),
            "trick": [c.code for c in self.trick],
        }

    def __repr__(self) -> str:
        return (f"<Game {self.variant} dealer={self.dealer} phase={self.phase} "
                f"to_act={self.to_act} tricks={self.tricks}>")
