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
    def _window(hands: Any, side: Any, unit: Any, st: Any, params: Any, w: int) -> None:
        """The trick winner's side sings its cante: the only one open (several: flag)."""
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
        count = 0
        pick_suit = -1
        for a in (w, partner):
            if a < 0:
                continue
            m = _marriages(hands[a]) & ~sung & ~lost
            if m & tb_ and params[9] == 2 and twenty:
                m &= ~tb_
            if params[9] > 0 and m & ~tb_ and forty_ok:
                m &= tb_
            for s in range(4):
                if (m >> s) & 1:
                    count += 1
                    if pick_suit < 0:
                        pick_suit = s
        if count == 0:
            return
        if count > 1:
            st[13] = 1
        pts = 40 if pick_suit == trump else 20
        st[5] += pts if side[w] == params[4] else -pts
        st[11] |= 1 << pick_suit
        if pick_suit != trump:
            st[12] |= 1 << u
