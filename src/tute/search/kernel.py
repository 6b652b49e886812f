"""An optional compiled kernel (numba) for the solver's commonest positions.

It searches positions where nothing can be declared any more, scored ``highest`` with
two sides (every 2-player strict phase of the stock games, and partnership endgames
once no cante is left) -- the same alpha-beta as :mod:`tute.search.solver`, on arrays.  The
rules core stays the one authority: the kernel's obligations are a transcription of
:func:`tute.core.tables.strict_play_mask`, and tests check its values against the pure
solver (itself checked against the engine) on random positions.  Without numba
installed (``pip install tute[fast]``) the pure solver does all the work.
"""

from __future__ import annotations

from typing import Any

from tute.core.tables import POINTS as CARD_POINTS
from tute.core.tables import beats, trick_winner

try:  # pragma: no cover - depends on the installation
    import numpy as np
    from numba import njit
    AVAILABLE = True
except ImportError:  # pragma: no cover
    AVAILABLE = False

WIN = 10_000
TT_BITS = 18

if AVAILABLE:  # pragma: no branch
    # the transposition table, reused from solve to solve (entries carry a generation)
    _TABLE: list[Any] = [np.zeros(1 << TT_BITS, dtype=np.int64) for _ in range(5)] + [0]
    _rng = np.random.default_rng(20261129)
    Z1 = _rng.integers(1, 2**62, size=(4, 40), dtype=np.int64)
    Z2 = _rng.integers(1, 2**62, size=(4, 40), dtype=np.int64)
    ZT1 = _rng.integers(1, 2**62, size=(4, 40), dtype=np.int64)
    ZT2 = _rng.integers(1, 2**62, size=(4, 40), dtype=np.int64)
    POINTS = np.array(CARD_POINTS, dtype=np.int64)     # the core's, as an array

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

    @njit(cache=True)
    def _search(hands: Any, side: Any, coal: Any, nxt: Any, unit: Any, st: Any, tb: Any,
                ts: Any, params: Any, ttk1: Any, ttk2: Any, ttv: Any, ttf: Any, ttm: Any,
                alpha: int, beta: int) -> int:
        # st: 0 to_act, 1 tlen, 2 led, 3 win_bit, 4 win_seat, 5 diff, 6 h1, 7 h2,
        #     8 nodes, 9 last winner's side, 10 cards left in hands, 11 suits sung,
        #     12 units that sang a 20 (bits), 13 set when a window had several cantes
        # params: 0 trump, 1 nplay, 2 undertrump, 3 partner_exc, 4 mine, 5 last_bonus,
        #     6 table generation, 7 cantes on, 8 partner may sing, 9 forty_first
        #     (0 off, 1 if_held, 2 strict), 10 suits lost per unit (4 bits each)
        st[8] += 1
        seat = st[0]
        tlen = st[1]
        if st[10] == 0 and tlen == 0:
            diff = st[5]
            won = diff > 0 or (diff == 0 and st[9] == params[4])
            return int(diff + (WIN if won else -WIN))
        trump = params[0]
        mine = params[4]
        k1 = (st[6] ^ (st[5] * 0x1E3779B97F4A7C15) ^ (seat << 58)
              ^ (st[11] * 0x3C6EF372FE94F82B) ^ (st[12] * 0x2545F4914F6CDD1D))
        k2 = (st[7] ^ (st[5] * 0x232BE59BD9B4E019) ^ (seat << 53)
              ^ (st[11] * 0x1B873593CC9E2D51) ^ (st[12] * 0x27D4EB2F165667C5))
        slot = (k1 ^ (k1 >> 29)) & ((1 << 18) - 1)
        first = -1
        gen = params[6]
        if ttf[slot] >> 8 == gen and ttk1[slot] == k1 and ttk2[slot] == k2:
            v = ttv[slot]
            f = ttf[slot] & 0xFF
            if f == 0:
                return int(v)
            if f == 1 and v >= beta:
                return int(v)
            if f == 2 and v <= alpha:
                return int(v)
            first = ttm[slot]
        hand = hands[seat]
        partner_free = params[3] == 1 and tlen > 0 and side[st[4]] == side[seat]
        mask = _legal(hand, tlen, st[2], trump, st[3], partner_free, params[2] == 1)
        # moves, equivalent blank cards merged (no other live card between them)
        live = 0
        for s in range(hands.shape[0]):
            if s != seat:
                live |= hands[s]
        for i in range(tlen):
            live |= 1 << tb[i]
        moves = np.empty(10, dtype=np.int64)
        keys = np.empty(10, dtype=np.int64)
        n = 0
        prev = -1
        m = mask
        while m:
            low = m & -m
            b = 0
            x = low
            while x > 1:
                x >>= 1
                b += 1
            m ^= low
            if (prev >= 0 and prev // 10 == b // 10 and POINTS[b] == 0 and POINTS[prev] == 0
                    and (live & ((1 << b) - (2 << prev))) == 0):
                moves[n - 1] = b
            else:
                moves[n] = b
                n += 1
            prev = b
        for i in range(n):
            b = moves[i]
            if tlen > 0:
                if beats_transcribed(b, st[3], trump):
                    keys[i] = (b % 10) + (10 if b // 10 == trump else 0)
                else:
                    keys[i] = 100 + POINTS[b]
            else:
                keys[i] = (20 if b // 10 == trump else 0) - (b % 10)
            if b == first:
                keys[i] = -1000
        # insertion sort by key
        for i in range(1, n):
            kb = keys[i]
            mb = moves[i]
            j = i - 1
            while j >= 0 and keys[j] > kb:
                keys[j + 1] = keys[j]
                moves[j + 1] = moves[j]
                j -= 1
            keys[j + 1] = kb
            moves[j + 1] = mb
        maximize = coal[seat] == 1
        a0 = alpha
        b0 = beta
        best = -10**9 if maximize else 10**9
        best_move = moves[0]
        led0, win0, wseat0 = st[2], st[3], st[4]
        for i in range(n):
            b = moves[i]
            # play
            hands[seat] ^= 1 << b
            st[6] ^= Z1[seat, b] ^ ZT1[seat, b]
            st[7] ^= Z2[seat, b] ^ ZT2[seat, b]
            st[10] -= 1
            if tlen == 0:
                st[2] = b // 10
                st[3] = b
                st[4] = seat
            else:
                if beats_transcribed(b, st[3], trump):
                    st[3] = b
                    st[4] = seat
            tb[tlen] = b
            ts[tlen] = seat
            done_trick = tlen + 1 == params[1]
            saved_diff = st[5]
            saved_last = st[9]
            saved_sung = st[11]
            saved_twenty = st[12]
            if done_trick:
                w = st[4]
                pts = 0
                for k in range(tlen + 1):
                    pts += POINTS[tb[k]]
                    st[6] ^= ZT1[ts[k], tb[k]]
                    st[7] ^= ZT2[ts[k], tb[k]]
                if st[10] == 0:
                    pts += params[5]
                st[5] += pts if side[w] == mine else -pts
                st[9] = side[w]
                st[1] = 0
                st[0] = w
                if params[7] == 1 and st[10] > 0:
                    _window(hands, side, unit, st, params, w)
            else:
                st[1] = tlen + 1
                st[0] = nxt[seat]
            if done_trick:                     # the next trick reuses tb / ts: keep ours
                keep_b = tb[:tlen + 1].copy()
                keep_s = ts[:tlen + 1].copy()
            v = _search(hands, side, coal, nxt, unit, st, tb, ts, params, ttk1, ttk2, ttv,
                        ttf, ttm, alpha, beta)
            # unplay
            if done_trick:
                tb[:tlen + 1] = keep_b
                ts[:tlen + 1] = keep_s
                for k in range(tlen + 1):
                    st[6] ^= ZT1[ts[k], tb[k]]
                    st[7] ^= ZT2[ts[k], tb[k]]
            st[5] = saved_diff
            st[9] = saved_last
            st[11] = saved_sung
            st[12] = saved_twenty
            st[1] = tlen
            st[0] = seat
            st[2], st[3], st[4] = led0, win0, wseat0
            st[10] += 1
            hands[seat] ^= 1 << b
            st[6] ^= Z1[seat, b] ^ ZT1[seat, b]
            st[7] ^= Z2[seat, b] ^ ZT2[seat, b]
            if maximize:
                if v > best:
                    best = v
                    best_move = b
                    if v > alpha:
                        alpha = v
            else:
                if v < best:
                    best = v
                    best_move = b
                    if v < beta:
                        beta = v
            if alpha >= beta:
                break
        flag = 0
        if best <= a0:
            flag = 2
        elif best >= b0:
            flag = 1
        ttk1[slot] = k1
        ttk2[slot] = k2
        ttv[slot] = best
        ttf[slot] = (gen << 8) | flag
        ttm[slot] = best_move
        return best


def solve_arrays(hands: list[int], side: tuple[int, ...], coalition: tuple[bool, ...],
                 nxt: tuple[int, ...], to_act: int, trick: list[tuple[int, int]],
                 diff: int, trump: int, nplay: int, undertrump: bool, partner_exc: bool,
                 mine: int, last_bonus: int, last_side: int,
                 root_moves: list[int], unit: tuple[int, ...] = (0, 1, 2, 3),
                 cantes: bool = False, partner_sings: bool = False, forty_first: int = 0,
                 sung: int = 0, twenty_units: int = 0, lost: int = 0
                 ) -> tuple[dict[int, int], int] | None:
    """Values of ``root_moves`` (bits) of the seat to act, for side ``mine``; None when a
    window offered several cantes (the pure solver then decides)."""
    n = len(hands)
    h = np.array(hands, dtype=np.int64)
    sd = np.array(side, dtype=np.int64)
    co = np.array([1 if c else 0 for c in coalition], dtype=np.int64)
    nx = np.array(nxt, dtype=np.int64)
    tb = np.zeros(4, dtype=np.int64)
    ts = np.zeros(4, dtype=np.int64)
    h1 = 0
    h2 = 0
    for s in range(n):
        for b in range(40):
            if hands[s] >> b & 1:
                h1 ^= int(Z1[s, b])
                h2 ^= int(Z2[s, b])
    for i, (s, b) in enumerate(trick):
        tb[i], ts[i] = b, s
        h1 ^= int(ZT1[s, b])
        h2 ^= int(ZT2[s, b])
    led = trick[0][1] // 10 if trick else 0
    win_seat, win_bit = trick_winner(trick, trump) if trick else (0, 0)
    cards = sum(x.bit_count() for x in hands)
    st = np.array([to_act, len(trick), led, win_bit, win_seat, diff, h1, h2, 0, last_side,
                   cards, sung, twenty_units, 0], dtype=np.int64)
    un = np.array(list(unit) + [0] * (4 - len(unit)), dtype=np.int64)
    _TABLE[5] += 1                       # a new generation: older entries are stale
    params = np.array([trump, nplay, int(undertrump), int(partner_exc), mine, last_bonus,
                       _TABLE[5], int(cantes), int(partner_sings), forty_first, lost],
                      dtype=np.int64)
    ttk1, ttk2, ttv, ttf, ttm = _TABLE[0], _TABLE[1], _TABLE[2], _TABLE[3], _TABLE[4]
    values: dict[int, int] = {}
    # each root move: play it in the arrays, search, take it back
    tlen = len(trick)
    for b in root_moves:
        hh = h.copy()
        s2 = st.copy()
        tb2 = tb.copy()
        ts2 = ts.copy()
        hh[to_act] ^= 1 << b
        s2[6] ^= int(Z1[to_act, b]) ^ int(ZT1[to_act, b])
        s2[7] ^= int(Z2[to_act, b]) ^ int(ZT2[to_act, b])
        s2[10] -= 1
        if tlen == 0:
            s2[2], s2[3], s2[4] = b // 10, b, to_act
        else:
            if beats(b, int(s2[3]), trump):
                s2[3], s2[4] = b, to_act
        tb2[tlen], ts2[tlen] = b, to_act
        if tlen + 1 == nplay:
            w = int(s2[4])
            pts = sum(int(POINTS[tb2[k]]) for k in range(tlen + 1))
            for k in range(tlen + 1):
                s2[6] ^= int(ZT1[ts2[k], tb2[k]])
                s2[7] ^= int(ZT2[ts2[k], tb2[k]])
            if s2[10] == 0:
                pts += last_bonus
            s2[5] += pts if side[w] == mine else -pts
            s2[9] = side[w]
            s2[1] = 0
            s2[0] = w
            if cantes and s2[10] > 0:
                _window(hh, sd, un, s2, params, w)
        else:
            s2[1] = tlen + 1
            s2[0] = nxt[to_act]
        s2[8] = 0
        values[b] = int(_search(hh, sd, co, nx, un, s2, tb2, ts2, params, ttk1, ttk2, ttv,
                                ttf, ttm, -10**9, 10**9))
        st[8] += s2[8]
        if s2[13]:
            return None
    return values, int(st[8])
