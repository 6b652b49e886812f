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
from tute.core.cards import SUITS, Card, Suit
from tute.core.deal import Deal, deal_from_deck, deal_from_hands, deal_from_seed
from tute.core.declarations import DeclarationRules
from tute.core.errors import InvalidVariantError
from tute.core.result import HandResult
from tute.core.scoring import HandFigures, score_hand
from tute.core.tables import (
    AUCTION,
    KINGS,
    OVER,
    POINTS,
    STOCK,
    STRENGTH_REY,
    STRENGTH_SEVEN,
    STRENGTH_TWO,
    STRICT,
    SUIT_MASK,
    SUIT_OF,
    Ranking,
    ranking,
    strict_play_mask,
)
from tute.core.variants import Variant, parse_variant
from tute.core.views import CanteShown, PlayerView, TableView

PHASE_NAMES = ("auction", "stock", "strict", "over")      # by AUCTION, STOCK, STRICT, OVER
_OBLIGATIONS = {"none": 0, "trump_on_trump": 1, "full": 2}
_SWAP_TIMING = {"own_lead": 0, "after_won_trick": 1, "anytime": 2}
_FORTY_FIRST = {"off": 0, "if_held": 1, "strict": 2}

VariantLike = Variant | str


def _variant(v: VariantLike) -> Variant:
    if isinstance(v, Variant):
        return v
    if isinstance(v, str):
        return parse_variant(v)
    raise InvalidVariantError("bad_variant_text", text=repr(v))


class Game(DeclarationRules):
    """One hand.  Build it with :meth:`new`, :meth:`from_deck` or :meth:`from_hands`."""

    # ---------------------------------------------------------------- construction
    def __init__(self, variant: VariantLike, deal: Deal) -> None:
        v = _variant(variant)
        self.variant = v
        self.dealer = deal.dealer
        self.deal = deal
        self.seed: int | str | bytes | None = None     # set when dealt from a seed
        n = v.players
        self._n = n
        rk = ranking(v.ranking)
        self._rk: Ranking = rk
        self._bit_of = rk.bit_of_index
        self._partners = v.partnerships
        self._side = tuple(v.side_of(s) for s in range(n))
        self._nsides = v.num_sides
        sing_who = v.sing_who
        self._unit = tuple(self._side[s] if sing_who == "winner_or_partner" else s
                           for s in range(n))
        self._partner_may_sing = self._partners and sing_who in (
            "winner_or_partner", "both_one_each")
        self._declarer_sings = sing_who == "declarer"
        self._manilla = v.manilla
        self._oblig = _OBLIGATIONS[v.stock_obligations]
        self._undertrump = v.must_undertrump
        self._partner_exc = v.partner_exception and self._partners
        self._swap_kind = {"none": 0, "seven": 1, "seven_and_two": 2}[v.swap]
        self._swap_timing = _SWAP_TIMING[v.swap_timing]
        self._forty_first = _FORTY_FIRST[v.forty_first]
        self._stock_only = v.sing_while_stock_only and v.has_stock
        self._use_or_lose = v.sing_use_or_lose
        self._tute_anytime = v.tute_timing == "anytime" and v.tute_set != "off"
        tk = KINGS
        self._tute_sets: tuple[int, ...] = {
            "kings_or_knights": (tk, rk.knights), "kings": (tk,),
            "kings_and_knights": (tk | rk.knights,), "off": (),
        }[v.tute_set]

        self._hands = [rk.mask_of(h) for h in deal.hands]
        self._stock = [rk.bit_of_index[c.index] for c in deal.stock]
        self._stock_pos = 0
        self._turn_up = -1 if deal.turn_up is None else rk.bit_of_index[deal.turn_up.index]
        self._turn_up_live = v.trump == "turn_up"
        # with dealer_last the turned card stays with whoever got the last card (the
        # dealer, or the player before a Cabrero dealer who sits out)
        self._turn_up_holder = -1
        if v.trump == "dealer_last" and deal.turn_up is not None:
            self._turn_up_holder = next(
                (s for s in range(n) if deal.turn_up in deal.hands[s]), -1)
        # seats dealt in, and the next of each (a Cabrero dealer may sit out)
        out = deal.dealer if v.dealer_sits_out else -1
        self._playing = tuple(s for s in range(n) if s != out)
        self._nplay = len(self._playing)
        self._next = tuple(next(t for t in ((s + i) % n for i in range(1, n + 1))
                                if t != out) for s in range(n))
        self._trump = -1
        self._swap_bits = 0
        if self._turn_up >= 0:
            self._set_trump(SUIT_OF[self._turn_up])
        self._known = [0] * n                  # cards of each seat shown to everybody
        if self._turn_up_holder >= 0:
            self._known[self._turn_up_holder] = 1 << self._turn_up
        self._phase = STOCK if (self._stock or self._turn_up_live) else STRICT
        self._to_act = self._next[deal.dealer]
        self._leader = self._to_act
        self._auction: Auction | None = None
        self._declarer = -1
        self._bid = 0
        if v.trump == "declarer":
            self._phase = AUCTION
            order = [self._to_act]
            while len(order) < self._nplay:
                order.append(self._next[order[-1]])
            self._auction = Auction(tuple(order), self._to_act, v.min_bid, v.bid_step)
        self._trick_seats: list[int] = []
        self._trick_bits: list[int] = []
        self._led = -1
        self._win_bit = -1
        self._win_seat = -1
        self._last_trick: list[tuple[int, int]] = []
        self._won = [0] * n                    # cards taken, per seat
        self._points = [0] * self._nsides      # card points taken (+ last trick)
        self._tricks = [0] * self._nsides
        self._trick_winners: list[int] = []
        self._cantes = [0] * self._nsides
        self._cantes_shown: list[CanteShown] = []
        self._sung_suits = 0
        self._manilla_suits = 0
        self._window_manilla = [False] * n     # per unit, in the open window
        self._sang = [False] * n               # per player: has sung (no_tute_after_sing)
        self._sang_twenty = [False] * n        # per unit: a 20 sung (forty_first strict)
        self._lost = [0] * n                   # per unit: suits lost (sing_use_or_lose)
        self._window = -1                      # seat whose declaration window is open
        self._window_sang = [False] * n        # per unit, in the open window
        self._window_singable = [0] * n        # per unit, at some moment of the window
        self._history: list[tuple[int, Action]] = []
        self._draws: list[tuple[int, int]] = []     # (seat, bit) in order
        self._tute_side = -1
        self._result: HandResult | None = None
        self._version = 0
        self._public_ver = -1                    # the views' shared part, by version
        self._public: TableView | None = None
        self._cache_ver = [-1] * n
        self._cache: list[tuple[Action, ...]] = [()] * n
        self._cache_mask = [0] * n

    def _set_trump(self, suit: int) -> None:
        self._trump = suit
        # the 7 (and 2) of trumps: a seat holding neither cannot swap
        self._swap_bits = 0
        if self._swap_kind and self._turn_up_live:
            self._swap_bits = 1 << (suit * 10 + STRENGTH_SEVEN)
            if self._swap_kind == 2:
                self._swap_bits |= 1 << (suit * 10 + STRENGTH_TWO)

    @classmethod
    def new(cls, variant: VariantLike, seed: int | str | bytes | None = None, dealer: int = 0,
            rng: random.Random | None = None) -> Game:
        """Shuffle (``random.Random(seed)``, or ``rng``) and deal."""
        v = _variant(variant)
        if rng is not None:
            from tute.core.deal import shuffled_deck
            return cls(v, deal_from_deck(v, shuffled_deck(v, rng), dealer))
        g = cls(v, deal_from_seed(v, seed, dealer))
        g.seed = seed
        return g

    @classmethod
    def from_deck(cls, variant: VariantLike, deck: Sequence[object], dealer: int = 0) -> Game:
        """Deal an explicit deck order (top card first)."""
        v = _variant(variant)
        return cls(v, deal_from_deck(v, deck, dealer))

    @classmethod
    def from_hands(cls, variant: VariantLike, hands: Sequence[Sequence[object]],
                   turn_up: object = None, stock: Sequence[object] = (),
                   dealer: int = 0) -> Game:
        """Start from given hands, turn-up and stock (first card drawn first)."""
        v = _variant(variant)
        return cls(v, deal_from_hands(v, hands, turn_up, stock, dealer))

    def copy(self) -> Game:
        """An independent copy of this game."""
        g = Game.__new__(Game)
        g.__dict__.update(self.__dict__)
        for name in ("_hands", "_stock", "_known", "_trick_seats", "_trick_bits",
                     "_last_trick", "_won", "_points", "_tricks", "_trick_winners",
                     "_cantes", "_cantes_shown", "_sang", "_sang_twenty", "_lost",
                     "_window_sang", "_window_singable", "_window_manilla", "_history",
                     "_draws", "_cache_ver", "_cache", "_cache_mask"):
            setattr(g, name, list(getattr(self, name)))
        if self._auction is not None:
            g._auction = self._auction.copy()
        return g

    # ---------------------------------------------------------------- public state
    @property
    def players(self) -> int:
        return self._n

    @property
    def to_act(self) -> int | None:
        """The seat whose turn it is (None once the hand is over)."""
        return None if self._phase == OVER else self._to_act

    @property
    def phase(self) -> str:
        return PHASE_NAMES[self._phase]

    @property
    def is_over(self) -> bool:
        return self._phase == OVER

    @property
    def trump(self) -> Suit | None:
        return None if self._trump < 0 else SUITS[self._trump]

    @property
    def turn_up(self) -> Card | None:
        return None if self._turn_up < 0 else self._rk.card_of_bit[self._turn_up]

    @property
    def stock_left(self) -> int:
        """Face-down stock cards (the turn-up not counted)."""
        return len(self._stock) - self._stock_pos

    @property
    def trick(self) -> tuple[Card, ...]:
        cob = self._rk.card_of_bit
        return tuple(cob[b] for b in self._trick_bits)

    @property
    def tricks_won(self) -> tuple[int, ...]:
        return tuple(self._tricks)

    @property
    def history(self) -> tuple[tuple[int, Action], ...]:
        return tuple(self._history)

    @property
    def trick_winners(self) -> tuple[int, ...]:
        """The seat that won each trick so far, in order."""
        return tuple(self._trick_winners)

    @property
    def draws(self) -> tuple[tuple[int, Card], ...]:
        """Every draw from the stock as (seat, card), in order (the full state: a player
        sees only his own, in :meth:`view`)."""
        cob = self._rk.card_of_bit
        return tuple((s, cob[b]) for s, b in self._draws)

    @property
    def turn_up_holder(self) -> int | None:
        """The seat known to hold the turn-up (last draw, or the dealer with
        ``dealer_last``), else None."""
        return None if self._turn_up_holder < 0 else self._turn_up_holder

    @property
    def window_open(self) -> bool:
        """Whether a declaration window (RULES.md §6, Protocol) is open."""
        return self._window >= 0

    def hand(self, seat: int) -> tuple[Card, ...]:
        """A seat's cards (the full state: not for players; use :meth:`view`)."""
        return tuple(self._rk.cards_of(self._hands[self._seat(seat)]))

    def side_of(self, seat: int) -> int:
        return self._side[self._seat(seat)]

    def result(self) -> HandResult | None:
        """The hand's result once it is over, else None."""
        return self._result

    # ---------------------------------------------------------------- legal actions
    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """Everything ``seat`` may do now; ``()`` if nothing."""
        if type(seat) is not int or not 0 <= seat < self._n:
            seat = self._seat(seat)
        if self._cache_ver[seat] == self._version:
            return self._cache[seat]
        if self._phase == OVER:
            acts: tuple[Action, ...] = ()
            mask = 0
        elif self._auction is not None:
            acts = self._auction.legal(seat)
            mask = 0
        elif seat == self._to_act:
            mask = self._play_mask(seat)
            acts = self._rk.plays_of(mask)
            if (self._window >= 0 or self._tute_anytime
                    or (self._turn_up_live and self._hands[seat] & self._swap_bits)):
                acts += self._declarations(seat, True)
        else:
            mask = 0
            acts = self._declarations(seat, False) if self._window >= 0 else ()
        self._cache_ver[seat] = self._version
        self._cache[seat] = acts
        self._cache_mask[seat] = mask
        return acts

    def seats_with_declarations(self) -> tuple[int, ...]:
        """Seats other than the one to act that may declare now (out of turn)."""
        if self._window < 0:
            return ()
        return tuple(s for s in range(self._n)
                     if s != self._to_act and self.legal_actions(s))

    def _play_mask(self, seat: int) -> int:
        hand = self._hands[seat]
        if not self._trick_bits:
            return hand
        led = self._led
        trump = self._trump
        if self._phase == STOCK and self._oblig != 2:
            if self._oblig == 1 and led == trump:
                return (hand & SUIT_MASK[trump]) or hand
            return hand
        return strict_play_mask(
            hand, led, trump, self._win_bit,
            self._partner_exc and self._side[self._win_seat] == self._side[seat],
            self._undertrump)

    def _may_swap(self, seat: int) -> bool:
        if not (self._turn_up_live and self._swap_kind) or seat != self._to_act:
            return False
        if self.stock_left < self.variant.swap_min_stock:
            return False
        timing = self._swap_timing
        if timing != 2:
            if self._trick_bits:
                return False
            if timing == 1 and not self._tricks[self._side[seat]]:
                return False
        return self._swap_card(seat) >= 0

    def _swap_card(self, seat: int) -> int:
        """The bit of the 7 (or 2) of trumps ``seat`` may exchange, or -1."""
        up = self._turn_up % 10
        base = self._trump * 10
        hand = self._hands[seat]
        if up > STRENGTH_SEVEN and hand >> (base + STRENGTH_SEVEN) & 1:
            return base + STRENGTH_SEVEN
        if (self._swap_kind == 2 and STRENGTH_TWO < up <= STRENGTH_SEVEN
                and hand >> (base + STRENGTH_TWO) & 1):
            return base + STRENGTH_TWO
        return -1

    def _declarations(self, seat: int, on_turn: bool) -> tuple[Action, ...]:
        out: list[Action] = []
        if self._window >= 0:
            m = self._singable_suits(seat)
            if m:
                trump = self._trump
                for s in range(4):
                    if m >> s & 1:
                        out.append(FORTY if s == trump else TWENTIES[s])
        if self._manilla is not None:
            out.extend(MANILLAS[s] for s in range(4) if self._may_manilla(seat) >> s & 1)
        if self._may_tute(seat, on_turn):
            out.append(TUTE)
        if on_turn and self._may_swap(seat):
            out.append(SWAP)
        return tuple(out)

    # ---------------------------------------------------------------- applying
    def apply(self, seat: int, action: Action) -> None:
        """Do ``action`` for ``seat``, or raise a TuteError and change nothing."""
        if type(seat) is not int or not 0 <= seat < self._n:
            seat = self._seat(seat)
        if self._cache_ver[seat] != self._version:
            self.legal_actions(seat)
        if type(action) is Play:
            bit = self._bit_of[action.card.index]
            if not (self._cache_mask[seat] >> bit) & 1:
                raise _explain.explain(self, seat, action)
            self._play(seat, bit)
        else:
            if action not in self._cache[seat]:
                raise _explain.explain(self, seat, action)
            if self._auction is not None:
                self._auction_step(seat, action)
            elif type(action) is SingTwenty:
                self._sing(seat, action.suit.index)
            elif type(action) is SingForty:
                self._sing(seat, self._trump)
            elif type(action) is Swap:
                self._swap(seat)
            elif type(action) is DeclareTute:
                self._declare_tute(seat)
            elif type(action) is Manilla:
                self._declare_manilla(seat, action.suit.index)
            else:  # pragma: no cover - every legal action kind is handled above
                raise _explain.explain(self, seat, action)
        self._history.append((seat, action))
        self._version += 1

    def _seat(self, seat: object) -> int:
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < self._n:
            return seat
        from tute.core.errors import OutOfTurnError
        raise OutOfTurnError("bad_seat", seat=seat, players=self._n)

    def _play(self, seat: int, bit: int) -> None:
        self._hands[seat] ^= 1 << bit
        self._known[seat] &= ~(1 << bit)
        tb = self._trick_bits
        if not tb:
            if self._window >= 0:
                self._close_window()
            self._led = SUIT_OF[bit]
            self._win_bit = bit
            self._win_seat = seat
        else:
            win = self._win_bit
            ws = SUIT_OF[win]
            s = SUIT_OF[bit]
            if (s == ws and bit > win) or (s == self._trump and ws != s):
                self._win_bit = bit
                self._win_seat = seat
        tb.append(bit)
        self._trick_seats.append(seat)
        if len(tb) == self._nplay:
            self._finish_trick()
        else:
            self._to_act = self._next[seat]

    def _finish_trick(self) -> None:
        w = self._win_seat
        side = self._side[w]
        tb = self._trick_bits
        pts = 0
        mask = 0
        for b in tb:
            pts += POINTS[b]
            mask |= 1 << b
        self._points[side] += pts
        self._tricks[side] += 1
        self._won[w] |= mask
        self._trick_winners.append(w)
        self._last_trick = list(zip(self._trick_seats, tb, strict=False))
        self._trick_bits = []
        self._trick_seats = []
        if self._phase == STOCK:
            self._draw(w)
        if not self._hands[w]:
            self._points[side] += self.variant.last_trick_bonus
            self._end_hand()
            return
        self._to_act = self._leader = w
        self._window = w
        if self._use_or_lose:
            self._refresh_window_singable()

    def _draw(self, winner: int) -> None:
        stock = self._stock
        s = winner
        for _ in range(self._nplay):
            if self._stock_pos < len(stock):
                b = stock[self._stock_pos]
                self._stock_pos += 1
            elif self._turn_up_live:
                b = self._turn_up
                self._turn_up_live = False
                self._turn_up_holder = s
                self._known[s] |= 1 << b
            else:
                break
            self._hands[s] |= 1 << b
            self._draws.append((s, b))
            s = self._next[s]
        if self._stock_pos >= len(stock) and not self._turn_up_live:
            self._phase = STRICT

    def _close_window(self) -> None:
        if self._use_or_lose:
            for u in range(self._n):
                if not self._window_sang[u]:
                    self._lost[u] |= self._window_singable[u]
            self._window_singable = [0] * self._n
        self._window = -1
        self._window_sang = [False] * self._n
        self._window_manilla = [False] * self._n

    def _refresh_window_singable(self) -> None:
        for s in range(self._n):
            if self._may_declare_in_window(s):
                self._window_singable[self._unit[s]] |= self._singable_suits(s)

    def _sing(self, seat: int, suit: int) -> None:
        unit = self._unit[seat]
        trump = suit == self._trump
        self._cantes[self._side[seat]] += 40 if trump else 20
        self._sung_suits |= 1 << suit
        self._window_sang[unit] = True
        self._sang[seat] = True
        if not trump:
            self._sang_twenty[unit] = True
        rey = suit * 10 + STRENGTH_REY
        pair = (1 << rey) | (1 << (rey - 1))
        self._known[seat] |= pair
        cob = self._rk.card_of_bit
        self._cantes_shown.append(CanteShown(
            seat, SUITS[suit], 40 if trump else 20, (cob[rey], cob[rey - 1])))

    def _swap(self, seat: int) -> None:
        give = self._swap_card(seat)
        take = self._turn_up
        self._hands[seat] = (self._hands[seat] ^ (1 << give)) | (1 << take)
        self._known[seat] |= 1 << take
        self._turn_up = give
        self._turn_up_holder = -1
        if self._use_or_lose and self._window >= 0:
            self._refresh_window_singable()     # the hand changed: a marriage may be new

    def _declare_manilla(self, seat: int, suit: int) -> None:
        assert self._manilla is not None
        self._cantes[self._side[seat]] += self._manilla
        self._manilla_suits |= 1 << suit
        self._window_manilla[self._unit[seat]] = True
        self._known[seat] |= 0b11 << (suit * 10 + 8)

    def _auction_step(self, seat: int, action: Action) -> None:
        auction = self._auction
        assert auction is not None
        if isinstance(action, NameTrump):
            self._declarer = auction.declarer
            self._bid = auction.high
            self._auction = None
            self._set_trump(action.suit.index)
            self._phase = STOCK if self._stock else STRICT
            self._to_act = self._leader = self._next[self.dealer]
            return
        auction.apply(seat, action)
        if auction.void:
            self._end_hand()
        else:
            self._to_act = auction.to_act

    def _declare_tute(self, seat: int) -> None:
        self._tute_side = self._side[seat]
        self._known[seat] |= self._hands[seat] & (KINGS | self._rk.knights)
        self._end_hand()

    def _end_hand(self) -> None:
        self._phase = OVER
        self._window = -1
        self._result = self._compute_result()

    def _compute_result(self) -> HandResult:
        side = self._side
        auction = self._auction
        return score_hand(self.variant, HandFigures(
            points=tuple(self._points), cantes=tuple(self._cantes),
            tricks=tuple(self._tricks),
            trick_winners=tuple(side[w] for w in self._trick_winners),
            tute=self._tute_side if self._tute_side >= 0 else None,
            sang=tuple(self._sang), playing=self._playing,
            declarer=self._declarer, bid=self._bid,
            void=auction is not None and auction.void))

    # ---------------------------------------------------------------- views
    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may know now -- and nothing else."""
        return _snapshot.view(self, self._seat(seat))

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
            "trump": None if self._trump < 0 else SUITS[self._trump].value,
            "to_act": self.to_act,
            "stock_left": self.stock_left,
            "phase": self.phase,
            "tricks_won": list(self._tricks),
            "trick": [c.code for c in self.trick],
        }

    def __repr__(self) -> str:
        return (f"<Game {self.variant} dealer={self.dealer} phase={self.phase} "
                f"to_act={self.to_act} tricks={self._tricks}>")
