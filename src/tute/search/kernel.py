"""The rules as the compiled kernel (:mod:`tute.search.dds`, numba) plays them.

Numba cannot call the core, so the kernel's obligations are a transcription of
:func:`tute.core.tables.strict_play_mask`, its trick rule one of
:func:`tute.core.tables.beats`, and the cante window the trick winner's side's single
open cante.  The rules core stays the one authority: tests check the transcriptions
against it, and the kernel's values against the pure solver (itself checked against the
engine) on random positions.  Without numba installed (``pip install tute[fast]``) the
pure solver does all the work.
"""

from __future__ import annotations

from typing import Any

try:  # pragma: no cover - depends on the installation
    import numpy  # noqa: F401  (numba needs it)
    from numba import njit
    AVAILABLE = True
except ImportError:  # pragma: no cover
    AVAILABLE = False

if AVAILABLE:  # pragma: no branch
    @njit(cache=True)
    def beats_transcribed(b: int, win: int, trump: int) -> bool:
        """The kernel's transcription of :func:`tute.core.tables.beats` (numba cannot
        call it); tests/test_solver.py checks the two agree on every card and trump."""
        ws = win // 10
        s = b // 10
        return (s == ws and b > win) or (s == trump and ws != trump)

    @njit(cache=True)
    def _legal(hand: int, tlen: int, led: int, trump: int, win: int, partner_free: bool,
               undertrump: bool) -> int:
        if tlen == 0:
            return hand
        follow = hand & (0x3FF << (10 * led))
        if partner_free:
            return follow if follow else hand
        if follow:
            if led == trump or win // 10 != trump:
                above = follow & ~((2 << win) - 1)
                return above if above else follow
            return follow
        trumps = hand & (0x3FF << (10 * trump))
        if trumps == 0:
            return hand
        if win // 10 == trump:
            over = trumps & ~((2 << win) - 1)
            if over:
                return over
            return trumps if undertrump else hand
        return trumps

    @njit(cache=True)
    def _marriages(hand: int) -> int:
        out = 0
        for s in range(4):
            if (hand >> (s * 10 + 7)) & 1 and (hand >> (s * 10 + 6)) & 1:
                out |= 1 << s
        return out

    @njit(cache=True)
    def _cante_choices(hands: Any, unit: Any, st: Any, params: Any, w: int) -> int:
        """The suits whose cante the trick winner's side may sing now (bits): its
        marriages not sung nor lost, the forty first where the rule says so."""
        trump = params[0]
        tb_ = 1 << trump
        n = hands.shape[0]
        partner = (w + 2) % 4 if params[8] == 1 and n == 4 else -1
        u = unit[w]
        lost = (params[10] >> (4 * u)) & 0xF
        sung = st[11]
        twenty = (st[12] >> u) & 1
        forty_ok = False
        for a in (w, partner):
            if a < 0:
                continue
            if (_marriages(hands[a]) & tb_ and not sung & tb_ and not lost & tb_
                    and not (params[9] == 2 and twenty)):
                forty_ok = True
        out = 0
        for a in (w, partner):
            if a < 0:
                continue
            m = _marriages(hands[a]) & ~sung & ~lost
            if m & tb_ and params[9] == 2 and twenty:
                m &= ~tb_
            if params[9] > 0 and m & ~tb_ and forty_ok:
                m &= tb_
            out |= m
        return out

    @njit(cache=True)
    def _sing(side: Any, unit: Any, st: Any, params: Any, w: int, suit: int) -> int:
        """The winner's side sings ``suit``: its points for side ``params[4]``."""
        st[11] |= 1 << suit
        if suit != params[0]:
            st[12] |= 1 << unit[w]
        pts = 40 if suit == params[0] else 20
        return pts if side[w] == params[4] else -pts

    @njit(cache=True)
    def _window(hands: Any, side: Any, unit: Any, st: Any, params: Any, w: int) -> None:
        """The trick winner's side sings its cante: the only one open (several: flag,
        and the first is sung)."""
        m = _cante_choices(hands, unit, st, params, w)
        if m == 0:
            return
        if m & (m - 1):
            st[13] = 1
        suit = 0
        while not (m >> suit) & 1:
            suit += 1
        st[5] += _sing(side, unit, st, params, w, suit)
