"""The state of one hand, as public, documented, slotted fields.

:class:`~tute.core.game.Game` *is* a :class:`HandState` (it inherits these fields and
keeps them current through :meth:`~tute.core.game.Game.apply`); the solver's search
state, the refusal explainer (:mod:`tute.core.explain`), the views
(:mod:`tute.core.snapshot`) and :func:`tute.core.position.from_view` read and write the
same fields by this contract -- nobody reads a ``Game._`` attribute from outside
``game.py``.  The declaration rules (:mod:`tute.core.declarations`) are written once
against these fields, for the game and the solver alike.

Cards are bits of an ``int`` in the ranking's layout (:mod:`tute.core.tables`): bit
``10 * suit + strength``.  "Unit" is who sings: the side when partners share cantes,
else the seat.  Lists are per seat (``n``), per side (``nsides``) or per unit as said.
Mutating a field is the engine's business: a caller changes a game only through
``apply``, or works on a ``copy()``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tute.core.cards import SUITS, Card, Suit
from tute.core.tables import OVER

PHASE_NAMES = ("auction", "stock", "strict", "over")      # by AUCTION, STOCK, STRICT, OVER

if TYPE_CHECKING:
    from tute.core.actions import Action
    from tute.core.auction import Auction
    from tute.core.result import HandResult
    from tute.core.tables import Ranking
    from tute.core.variants import Variant
    from tute.core.views import CanteShown


class HandState:
    __slots__ = (
        "acting",
        "actions",
        "auction",
        "bid",
        "bit_of",
        "cantes",
        "cantes_shown",
        "dealer",
        "declarer",
        "declarer_sings",
        "drawn",
        "forty_first",
        "hand_result",
        "hands",
        "known",
        "last_trick",
        "leader",
        "led",
        "lost",
        "manilla",
        "manilla_suits",
        "n",
        "next_seat",
        "nplay",
        "nsides",
        "oblig",
        "partner_exc",
        "partner_may_sing",
        "partners",
        "phase_code",
        "playing",
        "points",
        "rk",
        "sang",
        "sang_twenty",
        "side",
        "stock",
        "stock_only",
        "stock_pos",
        "sung_suits",
        "swap_bits",
        "swap_kind",
        "swap_timing",
        "trick_bits",
        "trick_seats",
        "trick_winner_seats",
        "tricks",
        "trump_suit",
        "turn_up_bit",
        "turn_up_live",
        "turn_up_owner",
        "tute_anytime",
        "tute_sets",
        "tute_side",
        "undertrump",
        "unit",
        "use_or_lose",
        "variant",
        "version",
        "win_bit",
        "win_seat",
        "window",
        "window_manilla",
        "window_sang",
        "window_singable",
        "won",
    )

    # -- the rules in force, fixed for the hand (from the variant) ---------------------
    variant: Variant
    dealer: int                         # who dealt (the seat after him is mano)
    n: int                              # seats at the table
    rk: Ranking                         # the ranking's bit layout
    bit_of: tuple[int, ...]             # Card.index -> bit
    partners: bool                      # two sides of partners
    side: tuple[int, ...]               # per seat: its side
    nsides: int
    unit: tuple[int, ...]               # per seat: who its cantes count for
    partner_may_sing: bool              # a partner of the trick's winner may sing
    declarer_sings: bool                # only the declarer sings (Subastado)
    manilla: int | None                 # points of a manilla (None: not played)
    oblig: int                          # with a stock: 0 none, 1 trump on trump, 2 full
    undertrump: bool                    # must trump under when unable to overtrump
    partner_exc: bool                   # need not beat a partner's winning card
    swap_kind: int                      # 0 none, 1 the seven, 2 seven and two
    swap_timing: int                    # 0 own lead, 1 after a won trick, 2 anytime
    forty_first: int                    # 0 off, 1 if held, 2 strict
    stock_only: bool                    # cantes only while the stock lasts
    use_or_lose: bool                   # a cante not sung at its window is lost
    tute_anytime: bool                  # tute may be declared at any window
    tute_sets: tuple[int, ...]          # masks that make a tute (four Reyes...)
    playing: tuple[int, ...]            # the seats dealt in (a Cabrero dealer sits out)
    nplay: int
    next_seat: tuple[int, ...]          # per seat: the next seat dealt in
    turn_up_live: bool                  # the turn-up is drawn as the stock's last card

    # -- the cards --------------------------------------------------------------------
    hands: list[int]                    # per seat: its cards
    stock: list[int]                    # the stock's cards, first drawn first
    stock_pos: int                      # cards of the stock drawn so far
    turn_up_bit: int                    # the turn-up card (-1: none)
    turn_up_owner: int                  # who holds the turned card (-1: nobody yet)
    trump_suit: int                     # 0..3 (-1: not named yet)
    swap_bits: int                      # the cards that may be swapped for the turn-up
    known: list[int]                    # per seat: its unplayed cards shown to everybody

    # -- whose turn, the auction ------------------------------------------------------
    phase_code: int                     # AUCTION, STOCK, STRICT, OVER (tables)
    acting: int                         # the seat to act (-1: nobody)
    leader: int                         # who leads the trick in progress
    auction: Auction | None
    declarer: int                       # Subastado's declarer (-1: none)
    bid: int                            # the declarer's bid

    # -- the trick in progress and the tricks taken -----------------------------------
    trick_seats: list[int]              # who played, in order
    trick_bits: list[int]               # what they played
    led: int                            # the suit led (-1: no card yet)
    win_bit: int                        # the winning card so far
    win_seat: int                       # who played it
    last_trick: list[tuple[int, int]]   # (seat, bit) of the last finished trick
    won: list[int]                      # per seat: the cards it took
    points: list[int]                   # per side: card points taken (+ the last trick)
    tricks: list[int]                   # per side: tricks taken
    trick_winner_seats: list[int]       # who won each finished trick

    # -- declarations -----------------------------------------------------------------
    cantes: list[int]                   # per side: points sung
    cantes_shown: list[CanteShown]      # every cante, with its cards
    sung_suits: int                     # 4-bit: suits whose cante has been sung
    manilla_suits: int                  # 4-bit: suits whose manilla has been declared
    window_manilla: list[bool]          # per unit: a manilla declared in the open window
    sang: list[bool]                    # per seat: has sung (no tute after singing)
    sang_twenty: list[bool]             # per unit: a 20 sung (forty_first strict)
    lost: list[int]                     # per unit: suits lost (use or lose)
    window: int                         # the seat whose declaration window is open (-1)
    window_sang: list[bool]             # per unit: sung in the open window
    window_singable: list[int]          # per unit: suits singable at some moment of it
    tute_side: int                      # who declared tute (-1: nobody)

    # -- history ----------------------------------------------------------------------
    actions: list[tuple[int, Action]]   # every action applied, with its seat
    drawn: list[tuple[int, int]]        # (seat, bit) of every card drawn, in order
    hand_result: HandResult | None      # once the hand is over
    version: int                        # counts changes (caches key on it)

    @property
    def to_act(self) -> int | None:
        """The seat whose turn it is (None once the hand is over)."""
        return None if self.phase_code == OVER else self.acting

    @property
    def phase(self) -> str:
        return PHASE_NAMES[self.phase_code]

    @property
    def is_over(self) -> bool:
        return self.phase_code == OVER

    @property
    def trump(self) -> Suit | None:
        return None if self.trump_suit < 0 else SUITS[self.trump_suit]

    @property
    def turn_up(self) -> Card | None:
        return None if self.turn_up_bit < 0 else self.rk.card_of_bit[self.turn_up_bit]

    @property
    def stock_left(self) -> int:
        """Face-down stock cards (the turn-up not counted)."""
        return len(self.stock) - self.stock_pos

    def copy_state_to(self, other: HandState) -> None:
        """Every field of this state into ``other`` (lists copied, values shared)."""
        for name in HandState.__slots__:
            try:
                value = getattr(self, name)
            except AttributeError:          # a field this state never set
                continue
            setattr(other, name, list(value) if type(value) is list else value)
