"""Who may declare what in a window (RULES.md §6): cantes, tute, manilla.

The one place these rules are written.  :class:`~tute.core.game.Game` and the solver's
search state both inherit :class:`DeclarationRules`; each keeps the attributes below.
"""

from __future__ import annotations

from tute.core.tables import STRICT, SUIT_MASK, suits_with_marriage
from tute.core.variants import Variant


class DeclarationRules:
    variant: Variant
    _n: int
    _hands: list[int]
    _phase: int
    _trump: int
    _unit: tuple[int, ...]
    _window: int
    _declarer: int
    _declarer_sings: bool
    _partner_may_sing: bool
    _stock_only: bool
    _forty_first: int
    _sung_suits: int
    _lost: list[int]
    _sang: list[bool]
    _sang_twenty: list[bool]
    _window_sang: list[bool]
    _window_manilla: list[bool]
    _manilla_suits: int
    _tute_sets: tuple[int, ...]
    _tute_anytime: bool

    def _may_declare_in_window(self, seat: int) -> bool:
        w = self._window
        if w < 0:
            return False
        if self._declarer_sings:
            return seat == w == self._declarer
        return seat == w or (self._partner_may_sing and seat == (w + 2) % 4)

    def _singable_suits(self, seat: int) -> int:
        """Suits (4-bit mask) whose marriage ``seat`` may sing now."""
        if not self._may_declare_in_window(seat):
            return 0
        if self._stock_only and self._phase == STRICT:
            return 0
        unit = self._unit[seat]
        if self._window_sang[unit]:
            return 0
        m = suits_with_marriage(self._hands[seat]) & ~self._sung_suits & ~self._lost[unit]
        if not m:
            return 0
        tb = 1 << self._trump
        if m & tb and self._forty_first == 2 and self._sang_twenty[unit]:
            m &= ~tb
        if self._forty_first and m & ~tb and self._unit_may_sing_forty(unit):
            m &= tb
        return m

    def _unit_may_sing_forty(self, unit: int) -> bool:
        trump = self._trump
        tb = 1 << trump
        if self._sung_suits & tb or self._lost[unit] & tb:
            return False
        if self._forty_first == 2 and self._sang_twenty[unit]:
            return False
        for s in range(self._n):
            if (self._unit[s] == unit and self._may_declare_in_window(s)
                    and suits_with_marriage(self._hands[s] & SUIT_MASK[trump])):
                return True
        return False

    def _may_tute(self, seat: int, on_turn: bool) -> bool:
        if not self._tute_sets:
            return False
        if self.variant.no_tute_after_sing and self._sang[seat]:
            return False
        hand = self._hands[seat]
        for needed in self._tute_sets:
            if hand & needed == needed:
                return self._may_declare_in_window(seat) or (on_turn and self._tute_anytime)
        return False

    def _may_manilla(self, seat: int) -> int:
        """Suits (4-bit mask) whose A + 3 ``seat`` may declare now (option manilla)."""
        if not self._may_declare_in_window(seat) or self._window_manilla[self._unit[seat]]:
            return 0
        hand = self._hands[seat]
        m = 0
        for s in range(4):
            top = 0b11 << (s * 10 + 8)
            if hand & top == top:
                m |= 1 << s
        return m & ~self._manilla_suits

