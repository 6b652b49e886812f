"""The solver's fast kernel (numba): bridge's double-dummy methods, for Tute.

It answers the pure solver's question for the positions :mod:`tute.search.fast` sends
it (two sides, three players each for himself, Subastado's contract; cantes as the trick
winner's side's choice, manillas, tutes still to come) with the methods of bridge's
DDS:

- **Values of the future only.**  The objective -- win the hand first, then the largest
  margin, ties to the side of the last trick -- is a strictly increasing function of
  ``V = 2·F + L``, where ``F`` is the margin of the points still to be won (cards,
  cantes, the last trick's bonus) and ``L`` is 1 when the side takes the last trick.
  Minimax commutes with an increasing function, so the search maximises ``V`` and never
  needs the points already won: a position's value no longer depends on how it was
  reached, and the transposition table shares it across every path (and every solve of
  the same rules: a bot solving many deals of one hand reuses it).
- **A transposition table at trick boundaries, keyed by relative ranks.**  The key is,
  suit by suit, the cards still in play in strength order as (owner, points): a 7 and
  a 5 are the same card once nothing between them is left (both are worth nothing);
  the cards worth points keep their identity through their points (each figure's are
  its own, so a king and a knight are still a marriage).  It stores bounds (lower,
  upper) and the best move by relative rank.
- **Zero-window searches, MTD(f).**  Each root move's exact value comes from a few
  searches with a null window around a guess, the bounds converging; the best-only
  search tests every other move against the best so far with one null window.
- **Quick bounds.**  The points still out (and the cantes still possible) bound what
  any side can win from here: a window beyond them is decided without a search.

Exactness is tested against the pure solver (itself checked against a plain minimax
over the engine) on random positions of every preset it covers.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from typing import Any

from tute.core.tables import POINTS as CARD_POINTS
from tute.core.tables import beats, trick_winner
from tute.search.solution import SolverLimit

try:  # pragma: no cover - depends on the installation
    import numpy as np
    from numba import njit

    from tute.search.kernel import (
        _legal,
        _sing,
        _window,
        beats_transcribed,
        cantes_open,
        declare_manilla,
        end_of_cabrero,
        end_of_three,
        holds_tute,
        manillas_held,
        manillas_open,
        nth_suit,
        recent,
        took,
        tute_in_window,
    )
    AVAILABLE = True
except ImportError:  # pragma: no cover
    AVAILABLE = False

WIN = 10_000
TUTE_VALUE = WIN + 5_000
TUTE_V = 1 << 20                # a tute on the search's scale: beyond any points
TT_BITS = 20
INF = 1 << 30

if AVAILABLE:  # pragma: no branch
    POINTS = np.array(CARD_POINTS, dtype=np.int64)
    # the points class of a strength: 0 for the blanks, then sota .. as (1..5)
    PCLASS = np.array([0, 0, 0, 0, 0, 1, 2, 3, 4, 5], dtype=np.int64)
    # the table: 4 suit words and a word of the rest of the state; bounds; move
    _TT: list[Any] = []                     # made on the first solve (64 MB)
    _RULES: list[Any] = [None, 0]           # the rules the table's entries hold for

    @njit(cache=True)
    def _key(hands: Any, st: Any, params: Any, out: Any) -> int:
        """The canonical key of a trick boundary into ``out`` (6 words); its slot."""
        n = hands.shape[0]
        allc = 0
        for s in range(n):
            allc |= hands[s]
        h = 0x1E3779B97F4A7C15
        for suit in range(4):
            word = 1
            for k in range(10):
                b = suit * 10 + k
                if (allc >> b) & 1:
                    owner = 0
                    for s in range(n):
                        if (hands[s] >> b) & 1:
                            owner = s
                    word = (word << 5) | (owner << 3) | PCLASS[k]
            out[suit] = word
            h = (h ^ word) * 0x100000001B3
            h ^= h >> 31
        rest = (st[0] | (st[11] << 3) | (st[12] << 8) | ((st[6] + 512) << 12)
                | (st[7] << 22) | (st[15] << 28) | (params[6] << 32))
        out[4] = rest
        h = (h ^ rest) * 0x100000001B3
        h ^= h >> 29
        more = 0
        if params[11] == 3:                 # Cabrero: the totals against the root's,
            me = params[4]                  # who took a trick, who sang
            j = 0
            for s in range(n):
                if s != me:
                    more |= (st[16 + s] - st[16 + me] + 512) << (10 * j)
                    j += 1
            more |= (st[22] << 50) | (st[23] << 56)
            h = (h ^ more) * 0x100000001B3
            h ^= h >> 31
        out[5] = more
        return int(h & ((1 << TT_BITS) - 1))

    @njit(cache=True)
    def _rel(hands: Any, b: int) -> int:
        """A card as its suit and its place among the suit's cards still in play."""
        n = hands.shape[0]
        allc = 0
        for s in range(n):
            allc |= hands[s]
        suit = b // 10
        below = allc & ((1 << b) - 1) & ~((1 << (suit * 10)) - 1)
        c = 0
        while below:
            below &= below - 1
            c += 1
        return suit * 16 + c

    @njit(cache=True)
    def _unrel(hand: int, allc: int, r: int) -> int:
        suit = r // 16
        want = r % 16
        c = 0
        for k in range(10):
            b = suit * 10 + k
            if (allc >> b) & 1:
                if c == want:
                    return b if (hand >> b) & 1 else -1
                c += 1
        return -1

    @njit(cache=True)
    def _cante_bound(hands: Any, st: Any, params: Any) -> int:
        """The most the cantes still possible could add (20 a suit, 40 in trumps), and
        the manillas (a seat holding a suit's A and 3 not yet declared)."""
        out = 0
        if params[7] == 1:
            allc = 0
            for s in range(hands.shape[0]):
                allc |= hands[s]
            for suit in range(4):
                if not (st[11] >> suit) & 1 and (
                        (allc >> (suit * 10 + 7)) & 1 and (allc >> (suit * 10 + 6)) & 1):
                    out += 40 if suit == params[0] else 20
        if params[19] > 0:
            held = 0
            for s in range(hands.shape[0]):
                held |= manillas_held(hands[s])
            out += params[19] * _count(held & ~st[15])
        return out

    @njit(cache=True)
    def _count(m: int) -> int:
        c = 0
        while m:
            m &= m - 1
            c += 1
        return c

    @njit(cache=True)
    def _bounds(hands: Any, coal: Any, st: Any, params: Any) -> tuple[int, int, int, int]:
        """The least and the most the value can still be, and the same without a tute:
        what is still out (cards, the last trick's bonus, cantes) all to one side or the
        other, and a tute either side could still declare beyond that."""
        r = int(st[14] + params[5]) + _cante_bound(hands, st, params)
        if params[11] == 0:
            plow, phigh = -2 * r, 2 * r + 1
        elif params[11] == 3:               # Cabrero: a poroto or not, the margin
            me = params[4]
            top = -INF
            for s in range(hands.shape[0]):
                if s != me and (params[20] >> s) & 1 and st[16 + s] > top:
                    top = st[16 + s]
            m = int(st[16 + me] - top)
            plow, phigh = -WIN + m - r, WIN + m + r
        elif params[11] == 2:               # the declarer's points, for him or against
            plow, phigh = (0, 2 * r) if params[12] > 0 else (-2 * r, 0)
        else:
            m = 2 * min(0, int(st[6]))
            plow, phigh = -2 * r + m, 2 * r + m + 1
        low, high = plow, phigh
        if params[14] != 0 or params[15] != 0:
            for s in range(hands.shape[0]):
                if holds_tute(hands, params, s):
                    if coal[s] == 1:
                        high = TUTE_V + 4 * r + 2
                    else:
                        low = -TUTE_V - 4 * r - 2
        return low, high, plow, phigh

    @njit(cache=True)
    def _search(hands: Any, side: Any, coal: Any, nxt: Any, unit: Any, st: Any, tb: Any,
                ts: Any, params: Any, keys: Any, vals: Any, scratch: Any, alpha: int, beta: int
                ) -> int:
        # st: 0 to_act, 1 tlen, 2 led, 3 win_bit, 4 win_seat, 5 scratch (a cante's
        #     points), 8 nodes, 9 last trick's side, 10 cards in hands, 11 suits sung,
        #     12 units that sang a 20, 13 set when a window had several cantes,
        #     14 card points in hands and on the table, 15 suits whose manilla is
        #     declared
        # params: 0 trump, 1 nplay, 2 undertrump, 3 partner_exc, 4 mine, 5 last_bonus,
        #     6 rules' generation, 7 cantes on, 8 partner may sing, 9 forty_first,
        #     10 suits lost per unit, 11 three players each for himself (then 12 and 13
        #     the first and the second other; st 6 the first's lead over the second,
        #     st 7 the sides by their last trick won), 2 a contract (then 12 whether the
        #     value is the declarer's, 13 the declarer); 14-17 tutes (the two sets,
        #     on any turn, the seats barred), 18 each partner sings his own, 19 the
        #     manilla's points (0: none), 20 the seats playing (Cabrero: mode 3, st
        #     16-21 the totals, 22 the seats that took a trick, 23 those that sang),
        #     21 the node limit (0: none; past it st 13 is 2)
        st[8] += 1
        if params[21] > 0 and st[8] > params[21]:
            st[13] = 2                      # past the node limit: unwind, store nothing
            return 0
        seat = st[0]
        tlen = st[1]
        mine = params[4]
        if st[10] == 0 and tlen == 0:
            if params[11] == 1:
                return end_of_three(st, params)
            if params[11] == 2:
                return 0
            if params[11] == 3:
                return end_of_cabrero(st, params, hands.shape[0])
            return 1 if st[9] == mine else 0
        if params[16] == 1 and holds_tute(hands, params, seat):
            return TUTE_V if coal[seat] == 1 else -TUTE_V     # tute on his turn
        trump = params[0]
        slot = -1
        first = -1
        depth = st[10]                      # cards in hands: one ply's own scratch rows
        key = scratch[depth, 33:39]
        if tlen == 0:
            # what is still to be won bounds the value
            low, high, _plow, _phigh = _bounds(hands, coal, st, params)
            if high <= alpha:
                return high
            if low >= beta:
                return low
            slot = _key(hands, st, params, key)
            if (keys[slot, 0] == key[0] and keys[slot, 1] == key[1]
                    and keys[slot, 2] == key[2] and keys[slot, 3] == key[3]
                    and keys[slot, 4] == key[4] and keys[slot, 5] == key[5]):
                lo = vals[slot, 0]
                hi = vals[slot, 1]
                if lo >= beta:
                    return int(lo)
                if hi <= alpha:
                    return int(hi)
                if lo == hi:
                    return int(lo)
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
                allc = 0
                for s in range(hands.shape[0]):
                    allc |= hands[s]
                first = _unrel(hands[seat], allc, vals[slot, 2])
        hand = hands[seat]
        partner_free = params[3] == 1 and tlen > 0 and side[st[4]] == side[seat]
        mask = _legal(hand, tlen, st[2], trump, st[3], partner_free, params[2] == 1)
        live = 0
        for s in range(hands.shape[0]):
            if s != seat:
                live |= hands[s]
        for i in range(tlen):
            live |= 1 << tb[i]
        moves = scratch[depth, 5:15]
        order = scratch[depth, 15:25]
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
        winning_side = side[st[4]] if tlen > 0 else -1
        for i in range(n):
            b = moves[i]
            if tlen > 0:
                if beats_transcribed(b, st[3], trump):
                    # the cheapest card that takes it, trumps last
                    order[i] = (b % 10) + (10 if b // 10 == trump else 0)
                elif winning_side == side[seat]:
                    order[i] = 50 - POINTS[b]     # the partner holds it: points on it
                else:
                    order[i] = 100 + POINTS[b]    # lost: the cheapest card
            else:
                order[i] = (20 if b // 10 == trump else 0) - (b % 10)
            if b == first:
                order[i] = -1000
        for i in range(1, n):
            kb = order[i]
            mb = moves[i]
            j = i - 1
            while j >= 0 and order[j] > kb:
                order[j + 1] = order[j]
                moves[j + 1] = moves[j]
                j -= 1
            order[j + 1] = kb
            moves[j + 1] = mb
        maximize = coal[seat] == 1
        a0 = alpha
        b0 = beta
        best = -INF if maximize else INF
        best_move = moves[0]
        led0, win0, wseat0 = st[2], st[3], st[4]
        for i in range(n):
            b = moves[i]
            hands[seat] ^= 1 << b
            st[10] -= 1
            if tlen == 0:
                st[2] = b // 10
                st[3] = b
                st[4] = seat
            elif beats_transcribed(b, st[3], trump):
                st[3] = b
                st[4] = seat
            tb[tlen] = b
            ts[tlen] = seat
            done_trick = tlen + 1 == params[1]
            saved_last = st[9]
            saved_sung = st[11]
            saved_twenty = st[12]
            saved_points = st[14]
            saved_manillas = st[15]
            saved_tricks = st[22]
            saved_sang = st[23]
            saved_lead = st[6]
            saved_order = st[7]
            if done_trick:
                w = st[4]
                pts = 0
                for k in range(tlen + 1):
                    pts += POINTS[tb[k]]
                st[14] -= pts
                if st[10] == 0:
                    pts += params[5]
                cabrero = params[11] == 3
                if cabrero:                 # the totals, kept to undo the trick
                    for k in range(6):
                        scratch[depth, 39 + k] = st[16 + k]
                cards = took(side, st, params, w, pts)
                if cabrero:                 # and as they are after it, each choice's start
                    for k in range(6):
                        scratch[depth, 45 + k] = st[16 + k]
                st[22] |= 1 << w
                if params[11] == 1:
                    st[7] = recent(st[7], side[w])
                lead = st[6]
                choices = 0                 # the winner's (his side's) cantes open
                theirs = 0                  # his partner's, where each sings his own
                mans = 0                    # the same for manillas
                mans_theirs = 0
                tute = tute_in_window(hands, params, w) if st[10] > 0 else -1
                if st[10] > 0 and tute < 0:
                    if params[7] == 1:
                        choices, theirs = cantes_open(hands, unit, st, params, w)
                    mans, mans_theirs = manillas_open(hands, st, params, w)
                ways = max(1, _count(choices))
                ways_theirs = max(1, _count(theirs))
                ways_m = max(1, _count(mans))
                ways_mt = max(1, _count(mans_theirs))
                all_ways = ways * ways_theirs * ways_m * ways_mt
                st[9] = side[w]
                st[1] = 0
                st[0] = w
                keep = scratch[depth, 25:33]
                for k in range(tlen + 1):
                    keep[k] = tb[k]
                    keep[4 + k] = ts[k]
                # the winner's side sings one of its open cantes and declares one of
                # its manillas (each partner one of his own, where the rule says so),
                # the best for it: a choice node
                sings_max = coal[w] == 1
                v = 0
                tried = False
                way = 0
                while tute < 0:
                    gain = cards
                    st[6] = lead
                    if cabrero:
                        for k in range(6):
                            st[16 + k] = scratch[depth, 45 + k]
                    x = way
                    if mans_theirs:
                        gain += declare_manilla(side, st, params, (w + 2) % 4,
                                                nth_suit(mans_theirs, x % ways_mt))
                        x //= ways_mt
                    if mans:
                        gain += declare_manilla(side, st, params, w, nth_suit(mans, x % ways_m))
                        x //= ways_m
                    if theirs:
                        gain += _sing(side, unit, st, params, (w + 2) % 4,
                                      nth_suit(theirs, x % ways_theirs))
                        x //= ways_theirs
                    if choices:
                        gain += _sing(side, unit, st, params, w, nth_suit(choices, x))
                    way += 1
                    c = 2 * gain + _search(hands, side, coal, nxt, unit, st, tb, ts, params,
                                           keys, vals, scratch, alpha - 2 * gain,
                                           beta - 2 * gain)
                    st[11] = saved_sung
                    st[12] = saved_twenty
                    st[15] = saved_manillas
                    st[23] = saved_sang
                    if not tried or (c > v if sings_max else c < v):
                        v = c
                    tried = True
                    if way >= all_ways or (v >= beta if sings_max else v <= alpha):
                        break
                    if st[13] == 2:
                        break
                if tute >= 0:                   # his side wins the hand at once
                    v = 2 * cards + (TUTE_V if coal[tute] == 1 else -TUTE_V)
            else:
                st[1] = tlen + 1
                st[0] = nxt[seat]
                v = _search(hands, side, coal, nxt, unit, st, tb, ts, params, keys, vals,
                            scratch, alpha, beta)
            if done_trick:
                keep = scratch[depth, 25:33]
                for k in range(tlen + 1):
                    tb[k] = keep[k]
                    ts[k] = keep[4 + k]
                if params[11] == 3:
                    for k in range(6):
                        st[16 + k] = scratch[depth, 39 + k]
            st[9] = saved_last
            st[11] = saved_sung
            st[12] = saved_twenty
            st[14] = saved_points
            st[15] = saved_manillas
            st[22] = saved_tricks
            st[23] = saved_sang
            st[6] = saved_lead
            st[7] = saved_order
            st[1] = tlen
            st[0] = seat
            st[2], st[3], st[4] = led0, win0, wseat0
            st[10] += 1
            hands[seat] ^= 1 << b
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
            if alpha >= beta or st[13] == 2:
                break
        if slot >= 0 and st[13] != 2:
            same = (keys[slot, 0] == key[0] and keys[slot, 1] == key[1]
                    and keys[slot, 2] == key[2] and keys[slot, 3] == key[3]
                    and keys[slot, 4] == key[4] and keys[slot, 5] == key[5])
            lo = vals[slot, 0] if same else -INF
            hi = vals[slot, 1] if same else INF
            if best <= a0:
                hi = min(hi, best)
            elif best >= b0:
                lo = max(lo, best)
            else:
                lo = best
                hi = best
            for j in range(6):
                keys[slot, j] = key[j]
            vals[slot, 0] = lo
            vals[slot, 1] = hi
            vals[slot, 2] = _rel(hands, best_move)
        return best

    @njit(cache=True)
    def _mtdf(hands: Any, side: Any, coal: Any, nxt: Any, unit: Any, st: Any, tb: Any,
              ts: Any, params: Any, keys: Any, vals: Any, scratch: Any, guess: int) -> int:
        """The exact value by null-window searches closing on it: the first at the guess
        (MTD(f)), then halving what is left between the bounds (each search's fail-soft
        answer tightens them further); the bounds start at the points still out.  Where
        a tute may still come, first whether it does (one null window each way: any
        value that far out is the same tute), then the points alone."""
        low, high, plow, phigh = _bounds(hands, coal, st, params)
        lo = low - 1
        hi = high + 1
        half = TUTE_V // 2
        if high > phigh:                    # our side may still declare a tute
            g = _search(hands, side, coal, nxt, unit, st, tb, ts, params, keys, vals,
                        scratch, half - 1, half)
            if g >= half:
                return g
            hi = min(g, phigh + 1)
        if low < plow:                      # theirs may
            g = _search(hands, side, coal, nxt, unit, st, tb, ts, params, keys, vals,
                        scratch, -half, -half + 1)
            if g <= -half:
                return g
            lo = max(g, plow - 1)
        beta = min(max(guess, lo + 1), hi)
        while lo < hi and st[13] != 2:
            g = _search(hands, side, coal, nxt, unit, st, tb, ts, params, keys, vals,
                        scratch, beta - 1, beta)
            if g < beta:
                hi = g
            else:
                lo = g
            beta = lo + (hi - lo + 1) // 2
        return lo


if AVAILABLE:  # pragma: no branch
    def _drop_stale_cache() -> None:
        """numba keys a cached function by its own bytecode only: a function compiled
        with the kernel's rules inlined (:mod:`tute.search.kernel`) would be loaded from
        the cache after those rules changed.  A digest of both modules' sources kept
        beside the cache drops every cached entry of both when it differs."""
        from tute.search import kernel as rules
        digest = hashlib.sha256(Path(rules.__file__).read_bytes()
                                + Path(__file__).read_bytes()).hexdigest()
        compiled = [f for m in (rules, sys.modules[__name__]) for f in vars(m).values()
                    if hasattr(f, "_cache") and hasattr(f, "py_func")]
        try:
            cache: Any = vars(_search)["_cache"]        # numba's FunctionCache
            stamp = Path(cache.cache_path) / "dds.sources-digest"
            if stamp.exists() and stamp.read_text() == digest:
                return
            for f in compiled:
                vars(f)["_cache"].flush()
            stamp.write_text(digest)
        except (OSError, AttributeError):   # pragma: no cover - a read-only cache:
            pass                            # numba itself then does not cache

    _drop_stale_cache()


def _first(b: int, trick: list[tuple[int, int]], trump: int, side: tuple[int, ...],
           seat: int) -> int:
    """The order the root's moves are tried in, as the search orders its own: the
    likely best first (so the others fail their null-window test at once)."""
    if not trick:
        return (20 if b // 10 == trump else 0) - b % 10
    win_seat, win_bit = trick_winner(trick, trump)
    if beats(b, win_bit, trump):
        return b % 10 + (10 if b // 10 == trump else 0)
    if side[win_seat] == side[seat]:
        return 50 - CARD_POINTS[b]
    return 100 + CARD_POINTS[b]


def _rules_generation(signature: tuple[object, ...]) -> int:
    """The table's entries hold for one set of rules and one perspective: a new one
    starts a new generation (the old entries can never match its keys)."""
    if _RULES[0] != signature:
        _RULES[0] = signature
        _RULES[1] = (_RULES[1] + 1) % (1 << 30)
    return int(_RULES[1])


def solve_arrays(hands: list[int], side: tuple[int, ...], coalition: tuple[bool, ...],
                 nxt: tuple[int, ...], to_act: int, trick: list[tuple[int, int]],
                 diff: int, trump: int, nplay: int, undertrump: bool, partner_exc: bool,
                 mine: int, last_bonus: int, last_side: int,
                 root_moves: list[int], unit: tuple[int, ...] = (0, 1, 2, 3),
                 cantes: bool = False, partner_sings: bool = False, forty_first: int = 0,
                 sung: int = 0, twenty_units: int = 0, lost: int = 0,
                 all_moves: bool = True, three: tuple[int, int] | None = None,
                 lead: int = 0, order: int = 0, contract: tuple[int, int] | None = None,
                 tutes: tuple[int, int] = (0, 0), tute_anytime: bool = False,
                 barred: int = 0, each_one: bool = False, manilla: int = 0,
                 manillas_done: int = 0,
                 cabrero: tuple[tuple[int, ...], int, int, int] | None = None,
                 max_nodes: int = 0) -> tuple[dict[int, int], int] | None:
    """Values of ``root_moves`` (bits) of the seat to act, for side ``mine``, on the
    pure solver's scale (``diff`` the margin so far); with ``all_moves`` false only a
    best move's is exact (the others are bounds no better than it).  None when a window
    offered several cantes or manillas (the pure solver then decides).

    ``three``: three players each for himself, the others' sides (first, second); then
    ``diff`` is ``mine``'s total less the first's, ``lead`` the first's less the
    second's, and ``order`` the sides by their last trick won (see ``recent``).  The
    value is still increasing in one number that adds up trick by trick: the margin
    against the best other is ``mine - first + min(0, first - second)``, and only the
    last part needs the past (``lead``, in the key).

    ``contract``: the declarer's seat and bid; ``mine`` is then the declarer's side and
    ``diff`` his total so far, and the values are for the declarer where ``coalition``
    holds him, else for the defenders: made or not, then the total less the bid -- an
    increasing function of his points alone.

    ``tutes``: the sets that make a tute (bit masks, 0 for none); ``tute_anytime`` a
    seat may declare it on any turn of his; ``barred`` the seats that may not (they
    have sung).  A tute is valued as the pure solver values it, ``TUTE_VALUE`` for the
    side that declares it.  The root must not be able to declare one itself (the pure
    solver answers that at once).  ``each_one``: each partner may sing one cante of his
    own in a window (``unit`` then one a seat).  ``manilla``: a manilla's points (0: the
    option is off), declared by the same seats in the same windows, once a suit
    (``manillas_done``: the suits declared).

    ``cabrero``: each seat's total so far, and as bit masks the seats playing, those
    that took a trick and those that sang; ``mine`` is the root's seat, and the values
    are the pure solver's for him (a poroto or not, then the margin over the best
    other): not a sum, so the totals are in the key.

    ``max_nodes`` (0: none): past that many nodes, :class:`SolverLimit` (nothing the
    search left half done stays in the table)."""
    n = len(hands)
    h = np.array(hands, dtype=np.int64)
    sd = np.array(side, dtype=np.int64)
    co = np.array([1 if c else 0 for c in coalition], dtype=np.int64)
    nx = np.array(nxt, dtype=np.int64)
    tb = np.zeros(4, dtype=np.int64)
    ts = np.zeros(4, dtype=np.int64)
    for i, (s, b) in enumerate(trick):
        tb[i], ts[i] = b, s
    led = trick[0][1] // 10 if trick else 0
    win_seat, win_bit = trick_winner(trick, trump) if trick else (0, 0)
    cards = sum(x.bit_count() for x in hands)
    points = sum(CARD_POINTS[b] for x in hands for b in range(40) if x >> b & 1) + sum(
        CARD_POINTS[b] for _s, b in trick)
    totals, playing, took_tricks, sang = cabrero if cabrero is not None else ((), 0, 0, 0)
    st = np.array([to_act, len(trick), led, win_bit, win_seat, 0, lead, order, 0, last_side,
                   cards, sung, twenty_units, 0, points, manillas_done,
                   *(list(totals) + [0] * (6 - len(totals))), took_tricks, sang],
                  dtype=np.int64)
    un = np.array(list(unit) + [0] * (4 - len(unit)), dtype=np.int64)
    generation = _rules_generation((n, tuple(side), tuple(coalition), tuple(nxt), trump,
                                    nplay, undertrump, partner_exc, mine, last_bonus,
                                    tuple(unit), cantes, partner_sings, forty_first, lost,
                                    three, contract, tutes, tute_anytime, barred,
                                    each_one, manilla, playing))
    first, second = three if three is not None else (0, 0)
    mode = 1 if three is not None else 0
    declarer_view = True
    if contract is not None:
        mode = 2
        declarer_view = coalition[contract[0]]
        first, second = (1 if declarer_view else -1), contract[0]
    if cabrero is not None:
        mode = 3
    params = np.array([trump, nplay, int(undertrump), int(partner_exc), mine, last_bonus,
                       generation, int(cantes), int(partner_sings), forty_first, lost,
                       mode, first, second, tutes[0], tutes[1], int(tute_anytime), barred,
                       int(each_one), manilla, playing, max_nodes], dtype=np.int64)
    if not _TT:
        _TT.extend([np.zeros((1 << TT_BITS, 6), dtype=np.int64),
                    np.zeros((1 << TT_BITS, 3), dtype=np.int64)])
    keys, vals = _TT
    scratch = np.zeros((48, 51), dtype=np.int64)    # a row per ply
    maximize = coalition[to_act]
    future: dict[int, int] = {}
    tlen = len(trick)
    best: int | None = None
    for b in sorted(root_moves, key=lambda b: _first(b, trick, trump, side, to_act)):
        hh = h.copy()
        s2 = st.copy()
        tb2 = tb.copy()
        ts2 = ts.copy()
        hh[to_act] ^= 1 << b
        s2[10] -= 1
        if tlen == 0:
            s2[2], s2[3], s2[4] = b // 10, b, to_act
        elif beats(b, int(s2[3]), trump):
            s2[3], s2[4] = b, to_act
        tb2[tlen], ts2[tlen] = b, to_act
        gain = 0
        tute = -1
        if tlen + 1 == nplay:
            w = int(s2[4])
            pts = sum(int(POINTS[tb2[k]]) for k in range(tlen + 1))
            s2[14] -= pts
            if s2[10] == 0:
                pts += last_bonus
            tute = tute_in_window(hh, params, w) if s2[10] > 0 else -1
            if (cantes or manilla) and s2[10] > 0 and tute < 0:
                _window(hh, sd, un, s2, params, w)
            gain = int(took(sd, s2, params, w, pts)) + int(s2[5])
            s2[22] |= 1 << w
            if three is not None:
                s2[7] = recent(int(s2[7]), side[w])
            s2[5] = 0
            s2[9] = side[w]
            s2[1] = 0
            s2[0] = w
        else:
            s2[1] = tlen + 1
            s2[0] = nxt[to_act]
        s2[8] = st[8]                           # the nodes so far: one limit for them all
        if tute >= 0:                           # the trick's winner declares tute
            v = TUTE_V if coalition[tute] else -TUTE_V
        elif all_moves or best is None:
            v = _mtdf(hh, sd, co, nx, un, s2, tb2, ts2, params, keys, vals, scratch,
                      0 if best is None else best - 2 * gain)
        else:                                   # only whether it beats the best so far
            edge = best - 2 * gain
            window = (edge, edge + 1) if maximize else (edge - 1, edge)
            v = _search(hh, sd, co, nx, un, s2, tb2, ts2, params, keys, vals, scratch,
                        *window)
            if (v > edge) if maximize else (v < edge):
                v = _mtdf(hh, sd, co, nx, un, s2, tb2, ts2, params, keys, vals, scratch, v)
        total = 2 * gain + int(v)
        future[b] = total
        if best is None or (total > best if maximize else total < best):
            best = total
        st[8] = s2[8]
        if s2[13] == 2:                          # (the table kept only what was done)
            raise SolverLimit("solver_node_limit", nodes=max_nodes)
        if s2[13]:
            return None
    values: dict[int, int] = {}
    for b, total in future.items():
        if abs(total) >= TUTE_V // 2:          # a tute: the hand at once
            values[b] = TUTE_VALUE if total > 0 else -TUTE_VALUE
            continue
        if cabrero is not None:                # the value itself, not a sum
            values[b] = total
            continue
        if contract is not None:               # the declarer's points, for or against
            made_by = diff + (total if declarer_view else -total) // 2 - contract[1]
            value = made_by + (WIN if made_by >= 0 else -WIN)
            values[b] = value if declarer_view else -value
            continue
        v = 2 * diff + total                   # twice the margin, and 1 for the tie
        values[b] = v // 2 + (WIN if v > 0 else -WIN)
    if not all_moves:                          # the others only bound: not values
        assert best is not None
        keep = next(b for b, t in future.items() if t == best)
        values = {keep: values[keep]}
    return values, int(st[8])


def warm() -> None:
    """Compile (or load from numba's cache) the kernel now, not at a robot's first turn:
    one solve of a one-card endgame."""
    if AVAILABLE:
        solve_arrays([1 << 9, 1 << 8], (0, 1), (True, False), (1, 0), 0, [], 0, 0, 2,
                     False, False, 0, 10, 0, [9])
