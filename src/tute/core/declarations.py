"""Who may declare what in a window (RULES.md §6): cantes, tute, manilla.

The one place these rules are written.  :class:`~tute.core.game.Game` and the solver's
search state both inherit :class:`DeclarationRules`, and so are both a
:class:`~tute.core.state.HandState`: the rules read its documented fields.
"""

from __future__ import annotations

from tute.core.state import HandState
from tute.core.tables import (
    STRENGTH_SEVEN,
    STRENGTH_TWO,
    STRICT,
    SUIT_MASK,
    suits_with_marriage,
)


class DeclarationRules(HandState):
    """The declaration rules, over the fields of :class:`~tute.core.state.HandState`."""

    __slots__ = ()

    def _may_declare_in_window(self, seat: int) -> bool:
        w = self.window
        if w < 0:
            return False
        if self.declarer_sings:
            return seat == w == self.declarer
        return seat == w or (self.partner_may_sing and seat == (w + 2) % 4)

    def _singable_suits(self, seat: int) -> int:
        """Suits (4-bit mask) whose marriage ``seat`` may sing now."""
        if not self._may_declare_in_window(seat):
            return 0
        if self.stock_only and self.phase_code == STRICT:
            return 0
        unit = self.unit[seat]
        if self.window_sang[unit]:
            return 0
        m = suits_with_marriage(self.hands[seat]) & ~self.sung_suits & ~self.lost[unit]
        if not m:
            return 0
        tb = 1 << self.trump_suit
        if m & tb and self.forty_first == 2 and self.sang_twenty[unit]:
            m &= ~tb
        if self.forty_first and m & ~tb and self._unit_may_sing_forty(unit):
            m &= tb
        return m

    def _unit_may_sing_forty(self, unit: int) -> bool:
        trump = self.trump_suit
        tb = 1 << trump
        if self.sung_suits & tb or self.lost[unit] & tb:
            return False
        if self.forty_first == 2 and self.sang_twenty[unit]:
            return False
        for s in range(self.n):
            if (self.unit[s] == unit and self._may_declare_in_window(s)
                    and suits_with_marriage(self.hands[s] & SUIT_MASK[trump])):
                return True
        return False

    def _may_tute(self, seat: int, on_turn: bool) -> bool:
        if not self.tute_sets:
            return False
        if self.variant.no_tute_after_sing and self.sang[seat]:
            return False
        hand = self.hands[seat]
        for needed in self.tute_sets:
            if hand & needed == needed:
                return self._may_declare_in_window(seat) or (on_turn and self.tute_anytime)
        return False

    def _may_manilla(self, seat: int) -> int:
        """Suits (4-bit mask) whose A + 3 ``seat`` may declare now (option manilla)."""
        if not self._may_declare_in_window(seat) or self.window_manilla[self.unit[seat]]:
            return 0
        hand = self.hands[seat]
        m = 0
        for s in range(4):
            top = 0b11 << (s * 10 + 8)
            if hand & top == top:
                m |= 1 << s
        return m & ~self.manilla_suits

    def _may_swap(self, seat: int) -> bool:
        if not (self.turn_up_live and self.swap_kind) or seat != self.acting:
            return False
        if self.stock_left < self.variant.swap_min_stock:
            return False
        timing = self.swap_timing
        if timing != 2:
            if self.trick_bits:
                return False
            if timing == 1 and not self.tricks[self.side[seat]]:
                return False
        return self._swap_card(seat) >= 0

    def _swap_card(self, seat: int) -> int:
        """The bit of the 7 (or 2) of trumps ``seat`` may exchange, or -1."""
        up = self.turn_up_bit % 10
        base = self.trump_suit * 10
        hand = self.hands[seat]
        if up > STRENGTH_SEVEN and hand >> (base + STRENGTH_SEVEN) & 1:
            return base + STRENGTH_SEVEN
        if (self.swap_kind == 2 and STRENGTH_TWO < up <= STRENGTH_SEVEN
                and hand >> (base + STRENGTH_TWO) & 1):
            return base + STRENGTH_TWO
        return -1

    def set_trump(self, suit: int) -> None:
        """Trumps are ``suit`` (0..3): and so which cards may be swapped for the turn-up."""
        self.trump_suit = suit
        # the 7 (and 2) of trumps: a seat holding neither cannot swap
        self.swap_bits = 0
        if self.swap_kind and self.turn_up_live:
            self.swap_bits = 1 << (suit * 10 + STRENGTH_SEVEN)
            if self.swap_kind == 2:
                self.swap_bits |= 1 << (suit * 10 + STRENGTH_TWO)

    def refresh_window_singable(self) -> None:
        """Note the suits each unit may sing now in the open window."""
        for s in range(self.n):
            if self._may_declare_in_window(s):
                self.window_singable[self.unit[s]] |= self._singable_suits(s)
