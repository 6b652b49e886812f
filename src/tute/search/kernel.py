"""The rules as the compiled kernel (:mod:`tute.search.dds`, numba) plays them.

Numba cannot call the core, so the kernel's obligations are a transcription of
:func:`tute.core.tables.strict_play_mask`, its trick rule one of
:func:`tute.core.tables.beats`, and the declaration window the trick winner's side's
choice of cante and manilla.  The rules core stays the one authority: tests check the
transcriptions against it, and the kernel's values against the pure solver (itself
checked against the engine) on random positions.  Without numba installed (``pip install tute[fast]``) the
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

WIN_K = 10_000          # the pure solver's WIN (tute.search.solver), here for numba
INF_K = 1 << 30

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
    def _pairs(hand: int, high: int) -> int:
        """The suits (bits) where ``hand`` holds the cards of strength ``high`` and
        ``high - 1``: the king and knight (7: a marriage), the A and 3 (9: a manilla)."""
        out = 0
        for s in range(4):
            if (hand >> (s * 10 + high)) & 1 and (hand >> (s * 10 + high - 1)) & 1:
                out |= 1 << s
        return out

    @njit(cache=True)
    def _marriages(hand: int) -> int:
        return _pairs(hand, 7)

    @njit(cache=True)
    def _cante_choices(hands: Any, unit: Any, st: Any, params: Any, w: int,
                       alone: bool = False) -> int:
        """The suits whose cante the trick winner's side may sing now (bits): its
        marriages not sung nor lost, the forty first where the rule says so.  In a
        contract (``params[11] == 2``) only the declarer (``params[13]``) sings;
        ``alone``: ``w``'s own (each partner one, ``params[18]``)."""
        if params[11] == 2 and w != params[13]:
            return 0
        trump = params[0]
        tb_ = 1 << trump
        n = hands.shape[0]
        partner = (w + 2) % 4 if params[8] == 1 and n == 4 and not alone else -1
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
        st[23] |= 1 << w
        if suit != params[0]:
            st[12] |= 1 << unit[w]
        pts = 40 if suit == params[0] else 20
        return took(side, st, params, w, pts)

    @njit(cache=True)
    def took(side: Any, st: Any, params: Any, w: int, pts: int) -> int:
        """Seat ``w``'s side takes ``pts`` (a trick's cards, a cante): what the value's
        additive part gains.  Two sides: the margin for side ``params[4]``.  Three players
        each for himself (``params[11]``): the root's points less those of the first
        other (``params[12]``), the first other's lead over the second (``st[6]``) kept
        for the end.  A contract (``params[11] == 2``): the declarer's (side
        ``params[4]``) points, counted for him (``params[12]`` 1) or against (-1).
        Cabrero (``params[11] == 3``): nothing adds up; each seat's total is kept
        (``st[16 + seat]``) for the end."""
        sw = side[w]
        if params[11] == 0:
            return pts if sw == params[4] else -pts
        if params[11] == 3:
            st[16 + sw] += pts
            return 0
        if params[11] == 2:
            return params[12] * pts if sw == params[4] else 0
        if sw == params[4]:
            return pts
        if sw == params[12]:
            st[6] += pts
            return -pts
        st[6] -= pts
        return 0

    @njit(cache=True)
    def holds_tute(hands: Any, params: Any, s: int) -> bool:
        """Seat ``s`` holds a tute (``params[14]``, ``params[15]``: the sets, 0 for
        none) and may declare one (``params[17]``: the seats barred, having sung)."""
        if (params[17] >> s) & 1:
            return False
        h = hands[s]
        a = params[14]
        b = params[15]
        return bool((a != 0 and h & a == a) or (b != 0 and h & b == b))

    @njit(cache=True)
    def tute_in_window(hands: Any, params: Any, w: int) -> int:
        """The seat that declares tute when ``w`` has just won a trick (he, on his turn
        or in his window; his partner where he may sing), or -1."""
        if params[14] == 0 and params[15] == 0:
            return -1
        in_window = params[11] != 2 or w == params[13]   # a contract: the declarer's
        if (in_window or params[16] == 1) and holds_tute(hands, params, w):
            return w
        n = hands.shape[0]
        if params[8] == 1 and n == 4 and holds_tute(hands, params, (w + 2) % 4):
            return (w + 2) % 4
        return -1

    @njit(cache=True)
    def recent(order: int, sw: int) -> int:
        """The sides in the order of their last trick won (2 bits each, the latest
        first, 3 for none) after ``sw`` takes one."""
        out = sw
        k = 1
        for i in range(3):
            x = (order >> (2 * i)) & 3
            if x != 3 and x != sw and k < 3:
                out |= x << (2 * k)
                k += 1
        while k < 3:
            out |= 3 << (2 * k)
            k += 1
        return out

    @njit(cache=True)
    def end_of_three(st: Any, params: Any) -> int:
        """The value's last part with three players each for himself: twice the first
        other's shortfall behind the second (``min(0, E)``: the best other is whoever
        leads), and 1 where the root wins a tie with the best others (the tied side that
        won a trick most recently; none did: the first seat)."""
        e = st[6]
        me, b, c = params[4], params[12], params[13]
        rm = rb = rc = 3
        for i in range(3):
            x = (st[7] >> (2 * i)) & 3
            if x == me:
                rm = i
            elif x == b:
                rb = i
            elif x == c:
                rc = i
        top = rb if e > 0 else (rc if e < 0 else min(rb, rc))
        if rm < top:
            tie = 1
        elif rm > top or top < 3:
            tie = 0
        else:                               # nobody tied won a trick: the lowest index
            tie = 1 if (e < 0 or me < b) and (e > 0 or me < c) else 0
        return int(2 * min(0, e) + tie)

    @njit(cache=True)
    def end_of_cabrero(st: Any, params: Any, n: int) -> int:
        """Cabrero's value at the end for seat ``params[4]``, as the pure solver's: no
        poroto (``WIN``) or one (``-WIN``), plus his margin over the best other.  A
        poroto: the capote's (the one seat that took tricks -- himself if he sang, else
        everyone else), else with two playing the lower total (a tie: the last trick's
        winner wins), else the middle rank and every seat without a trick.  ``st[16 +
        seat]`` the totals, ``st[22]`` the seats that took a trick, ``st[23]`` those that
        sang, ``params[20]`` the seats playing."""
        me = params[4]
        playing = params[20]
        flags = st[22]
        mine = st[16 + me]
        top = -INF_K
        k = 0
        above = 0
        for s in range(n):
            if (playing >> s) & 1:
                k += 1
                if s != me:
                    t = st[16 + s]
                    if t > top:
                        top = t
                    if t > mine:
                        above += 1
        if flags != 0 and flags & (flags - 1) == 0:       # capote
            capote_sang = (st[23] & flags) != 0
            lost = ((flags >> me) & 1 == 1) == capote_sang
        elif k == 2:
            lost = mine < top or (mine == top and st[9] != me)
        else:
            rank = 1 + above
            if k % 2 == 1:
                lost = rank == (k + 1) // 2
            else:
                lost = rank == k // 2 or rank == k // 2 + 1
            if not (flags >> me) & 1:
                lost = True
        return int((mine - top) + (-WIN_K if lost else WIN_K))

    @njit(cache=True)
    def cantes_open(hands: Any, unit: Any, st: Any, params: Any, w: int) -> tuple[int, int]:
        """What the winner ``w`` and his partner may sing after his trick: the side's
        one cante (first, the second 0), or each partner's own (``params[18]``)."""
        if params[18] == 1 and params[8] == 1 and hands.shape[0] == 4:
            p = (w + 2) % 4
            return (_cante_choices(hands, unit, st, params, w, True),
                    _cante_choices(hands, unit, st, params, p, True))
        return _cante_choices(hands, unit, st, params, w), 0

    @njit(cache=True)
    def nth_suit(m: int, i: int) -> int:
        """The ``i``-th suit of the 4-bit mask ``m`` (-1: the mask is empty)."""
        for suit in range(4):
            if (m >> suit) & 1:
                if i == 0:
                    return suit
                i -= 1
        return -1

    @njit(cache=True)
    def manillas_held(hand: int) -> int:
        return _pairs(hand, 9)

    @njit(cache=True)
    def manillas_open(hands: Any, st: Any, params: Any, w: int) -> tuple[int, int]:
        """The manillas (an A and a 3 of one suit; ``params[19]`` points, 0: off) the
        trick winner's side may declare after his trick, one a unit: the winner's (his
        partner's with them, where partners sing), and his partner's own where each
        sings his own (``params[18]``).  Not the suits declared (``st[15]``); in a
        contract only the declarer's.  Separate from the cantes: no lost suits, no
        forty first."""
        if params[19] == 0 or (params[11] == 2 and w != params[13]):
            return 0, 0
        done = st[15]
        mine = manillas_held(hands[w]) & ~done
        if params[11] != 2 and params[8] == 1 and hands.shape[0] == 4:
            theirs = manillas_held(hands[(w + 2) % 4]) & ~done
            if params[18] == 1:
                return mine, theirs
            return mine | theirs, 0
        return mine, 0

    @njit(cache=True)
    def declare_manilla(side: Any, st: Any, params: Any, w: int, suit: int) -> int:
        """Seat ``w`` (or his partner: the same side) declares the manilla of ``suit``:
        its points for side ``params[4]``, as :func:`took` counts them."""
        st[15] |= 1 << suit
        return took(side, st, params, w, params[19])

    @njit(cache=True)
    def _window(hands: Any, side: Any, unit: Any, st: Any, params: Any, w: int) -> None:
        """The trick winner's side sings its cante and declares its manilla: the only
        one open of each (several: flag, and the first is taken)."""
        m = mp = 0
        if params[7] == 1:
            m, mp = cantes_open(hands, unit, st, params, w)
        if m & (m - 1) or mp & (mp - 1) or (m and mp):
            st[13] = 1
        a, ap = manillas_open(hands, st, params, w)
        if a & (a - 1) or ap & (ap - 1):
            st[13] = 1
        if m:
            st[5] += _sing(side, unit, st, params, w, nth_suit(m, 0))
        elif mp:
            st[5] += _sing(side, unit, st, params, (w + 2) % 4, nth_suit(mp, 0))
        if a:
            st[5] += declare_manilla(side, st, params, w, nth_suit(a, 0))
        if ap:
            st[5] += declare_manilla(side, st, params, (w + 2) % 4, nth_suit(ap, 0))
