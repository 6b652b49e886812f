"""An exact solver for positions with every card known and no stock left to draw.

Such positions are the whole of the 2-player strict phase, the last tricks of 4-player
hands, and any hand of a game without a stock once its cards are known.  The solver runs
alpha-beta with a transposition table over card plays, with the obligations of
RULES.md §4 computed by the same function the engine uses
(:func:`tute.core.tables.strict_play_mask`), equivalent blank cards merged, and the best
moves tried first.

**Objective**, for the side of the seat to move (its *coalition*): win the hand first,
then the largest margin of totals.  A tute is a won hand with the largest margin.  With
3+ individual players the others are taken as one side (the margin is against the best
of them); in Subastado the defenders are one side; in Cabrero the aim is to avoid a
poroto.  Values: ``WIN + margin`` for a won hand, ``-WIN + margin`` for a lost one.

Declarations are part of the search: a side that may sing in a window chooses which
cante (and which manilla) to sing — singing is never worse than not singing once no card
can be drawn, so "not singing" is not searched — and a seat that may declare tute does.
"""

from __future__ import annotations

from tute.core.actions import FORTY, MANILLAS, TUTE, TWENTIES, Action
from tute.core.declarations import DeclarationRules
from tute.core.game import Game
from tute.core.scoring import HandFigures, score_hand
from tute.core.tables import (
    OVER,
    POINTS,
    STRICT,
    SUIT_OF,
    beats,
    strict_play_mask,
    suits_with_marriage,
)
from tute.core.value import hand_value
from tute.search.solution import Solution, SolverError, SolverLimit

WIN = 10_000
TUTE_VALUE = WIN + 5_000
_EXACT, _LOWER, _UPPER = 0, 1, 2


class _TrickUndo:
    """What a finished trick changed, to take it back."""

    __slots__ = ("bits", "led", "points", "seats", "to_act", "win_bit", "win_seat", "window",
                 "window_done", "window_manilla", "window_sang")

    def __init__(self, s: _Search, points: int) -> None:
        self.bits, self.seats, self.led = s.trick_bits, s.trick_seats, s.led
        self.win_bit, self.win_seat, self.to_act = s.win_bit, s.win_seat, s.acting
        self.window, self.window_done = s.window, s.window_done
        self.window_sang, self.window_manilla = s.window_sang, s.window_manilla
        self.points = points


class _DeclUndo:
    """What a set of declarations changed, to take it back."""

    __slots__ = ("cantes", "manilla_suits", "sang", "sang_twenty", "sung", "window_manilla",
                 "window_sang")

    def __init__(self, s: _Search) -> None:
        self.sung, self.manilla_suits = s.sung_suits, s.manilla_suits
        self.cantes, self.sang = list(s.cantes), list(s.sang)
        self.sang_twenty = list(s.sang_twenty)
        self.window_sang, self.window_manilla = list(s.window_sang), list(s.window_manilla)


def nothing_to_draw(g: Game) -> bool:
    """The solver's domain: the strict phase with no card left to draw (the stock and a
    live turn-up gone), so every card is in a hand or played."""
    return g.phase_code == STRICT and g.stock_pos >= len(g.stock) and not g.turn_up_live


class _Search(DeclarationRules):
    def __init__(self, g: Game, perspective: int) -> None:
        if not nothing_to_draw(g):
            raise SolverError("solver_needs_no_stock")
        v = g.variant
        self.g = g
        self.n = g.n
        self.next = g.next_seat
        self.side = g.side
        self.nsides = g.nsides
        self.unit = g.unit
        self.trump_suit = g.trump_suit
        self.hands = list(g.hands)
        self.acting = g.acting
        self.trick_bits = list(g.trick_bits)
        self.trick_seats = list(g.trick_seats)
        self.led, self.win_bit, self.win_seat = g.led, g.win_bit, g.win_seat
        self.nplay = g.nplay
        self.points = list(g.points)
        self.cantes = list(g.cantes)
        self.tricks = list(g.tricks)
        self.trick_winners = list(g.trick_winner_seats)
        self.undertrump = g.undertrump
        self.partner_exc = g.partner_exc
        self.last_bonus = v.last_trick_bonus
        # declarations
        self.stock_only = g.stock_only
        self.phase_code = STRICT
        self.window = g.window
        self.window_done = False
        self.sung_suits = g.sung_suits
        self.sang = list(g.sang)
        self.sang_twenty = list(g.sang_twenty)
        self.lost = list(g.lost)
        self.window_sang = list(g.window_sang)
        self.window_manilla = list(g.window_manilla)
        self.manilla_suits = g.manilla_suits
        self.manilla = v.manilla
        self.forty_first = g.forty_first
        self.tute_sets = g.tute_sets
        self.tute_anytime = g.tute_anytime
        self.declarer_sings = g.declarer_sings
        self.declarer = g.declarer
        self.partner_may_sing = g.partner_may_sing
        # objective
        self.variant = v
        self.scoring = v.scoring
        self.persp = perspective
        if v.scoring == "contract":
            d = g.declarer
            self.coalition = tuple(s == d for s in range(self.n)) if perspective == d \
                else tuple(s != d for s in range(self.n))
        elif v.partnerships:
            ps = self.side[perspective]
            self.coalition = tuple(self.side[s] == ps for s in range(self.n))
        else:
            self.coalition = tuple(s == perspective for s in range(self.n))
        self.tt: dict[tuple[object, ...], tuple[int, int, int]] = {}
        self.max_nodes = 1 << 62
        self.use_kernel = True
        self.hkey = 0                       # every hand in one int, updated as cards go
        for s in range(self.n):
            self.hkey |= self.hands[s] << (s * 40)
        self.live = 0                       # cards in hands or on the table
        for s in range(self.n):
            self.live |= self.hands[s]
        for b in self.trick_bits:
            self.live |= 1 << b
        self.two_sides = self.nsides == 2 and self.scoring == "highest"
        # can anything still be declared?  (once nothing is drawn, holdings only shrink)
        held = list(self.hands)
        cantes = not self.stock_only and any(
            suits_with_marriage(h) & ~self.sung_suits for h in held)
        manillas = self.manilla is not None and any(
            h & (0b11 << (s * 10 + 8)) == 0b11 << (s * 10 + 8)
            for h in held for s in range(4) if not self.manilla_suits >> s & 1)
        tutes = any(h & t == t for h in held for t in self.tute_sets)
        self.declarations = cantes or manillas or tutes
        self.cantes_possible, self.others_possible = cantes, manillas or tutes
        self.manillas_possible = manillas
        if not self.declarations:
            self.window = -1
        self.nodes = 0

    # ---------------------------------------------------------------- declarations
    def _tute_side(self) -> int:
        """A seat that may declare tute now (it will): that seat, else -1."""
        if not self.tute_sets:
            return -1
        for seat in range(self.n):
            if self._may_tute(seat, seat == self.acting):
                return seat
        return -1

    def _bundles(self) -> list[list[tuple[int, int, str]]]:
        """Declaration choices of the window side: (seat, suit, kind) lists."""
        per_unit: dict[int, list[tuple[int, int, str]]] = {}
        for s in range(self.n):
            m = self._singable_suits(s)
            for suit in range(4):
                if m >> suit & 1:
                    per_unit.setdefault(self.unit[s], []).append((s, suit, "cante"))
        man_unit: dict[int, list[tuple[int, int, str]]] = {}
        for s in range(self.n):
            m = self._may_manilla(s) if self.manilla is not None else 0
            for suit in range(4):
                if m >> suit & 1:
                    man_unit.setdefault(self.unit[s], []).append((s, suit, "manilla"))
        bundles: list[list[tuple[int, int, str]]] = [[]]
        for options in [*per_unit.values(), *man_unit.values()]:
            bundles = [[*b, o] for b in bundles for o in options]
        return bundles

    def _apply_bundle(self, bundle: list[tuple[int, int, str]]) -> _DeclUndo:
        saved = _DeclUndo(self)
        for seat, suit, kind in bundle:
            unit = self.unit[seat]
            if kind == "cante":
                forty = suit == self.trump_suit
                self.cantes[self.side[seat]] += 40 if forty else 20
                self.sung_suits |= 1 << suit
                self.window_sang[unit] = True
                self.sang[seat] = True
                if not forty:
                    self.sang_twenty[unit] = True
            else:
                assert self.manilla is not None
                self.cantes[self.side[seat]] += self.manilla
                self.manilla_suits |= 1 << suit
                self.window_manilla[unit] = True
        return saved

    def _undo_bundle(self, u: _DeclUndo) -> None:
        self.sung_suits, self.manilla_suits = u.sung, u.manilla_suits
        self.cantes, self.sang, self.sang_twenty = u.cantes, u.sang, u.sang_twenty
        self.window_sang, self.window_manilla = u.window_sang, u.window_manilla

    # ---------------------------------------------------------------- values
    def _terminal(self) -> int:
        if self.two_sides:
            totals = [p + c for p, c in zip(self.points, self.cantes, strict=True)]
            mine = self.side[self.persp]
            diff = totals[mine] - totals[1 - mine]
            if diff == 0:
                won = self.side[self.trick_winners[-1]] == mine
            else:
                won = diff > 0
            return (WIN if won else -WIN) + diff
        f = HandFigures(points=tuple(self.points), cantes=tuple(self.cantes),
                        tricks=tuple(self.tricks),
                        trick_winners=tuple(self.side[w] for w in self.trick_winners),
                        tute=None, sang=tuple(self.sang), playing=self.g.playing,
                        declarer=self.declarer, bid=self.g.bid)
        value = hand_value(self.variant, score_hand(self.variant, f))
        return (WIN if value.won[self.persp] else -WIN) + value.margins[self.persp]

    # ---------------------------------------------------------------- moves
    def _legal_mask(self, seat: int) -> int:
        hand = self.hands[seat]
        if not self.trick_bits:
            return hand
        partner_free = self.partner_exc and self.side[self.win_seat] == self.side[seat]
        return strict_play_mask(hand, self.led, self.trump_suit, self.win_bit, partner_free,
                                self.undertrump)

    def _card_moves(self, seat: int) -> list[int]:
        hand = self.hands[seat]
        tb = self.trick_bits
        mask = self._legal_mask(seat)
        # merge equivalent blank cards: same suit, no card of another seat or on the
        # table between them
        live = self.live & ~hand
        moves: list[int] = []
        prev = -1
        m = mask
        while m:
            low = m & -m
            b = low.bit_length() - 1
            m ^= low
            if (prev >= 0 and SUIT_OF[prev] == SUIT_OF[b] and POINTS[b] == 0
                    and POINTS[prev] == 0 and not (live & ((1 << b) - (2 << prev)))):
                moves[-1] = b                  # keep the higher of equivalent blanks
            else:
                moves.append(b)
            prev = b
        # order: winners cheapest first when following; high cards first when leading
        if len(moves) < 2:
            return moves
        trump = self.trump_suit
        if tb:
            win = self.win_bit
            ws = SUIT_OF[win]
            winners = []
            others = []
            for b in moves:
                if beats(b, win, trump):
                    winners.append(b)
                else:
                    others.append(b)
            if ws != trump:
                winners.sort(key=lambda b: b + 100 if SUIT_OF[b] == trump else b)
            others.sort(key=POINTS.__getitem__)
            return winners + others
        moves.sort(key=lambda b: (SUIT_OF[b] == trump, -(b % 10)))
        return moves

    def _play(self, seat: int, bit: int) -> _TrickUndo | None:
        """Play a card; returns what is needed to undo a finished trick (else None)."""
        self.hands[seat] ^= 1 << bit
        self.hkey ^= 1 << (seat * 40 + bit)
        tb = self.trick_bits
        if not tb:
            self.led = SUIT_OF[bit]
            self.win_bit = bit
            self.win_seat = seat
        else:
            if beats(bit, self.win_bit, self.trump_suit):
                self.win_bit = bit
                self.win_seat = seat
        tb.append(bit)
        self.trick_seats.append(seat)
        if len(tb) < self.nplay:
            self.acting = self.next[seat]
            return None
        # the trick is complete
        w = self.win_seat
        side = self.side[w]
        pts = sum(POINTS[b] for b in tb)
        saved = _TrickUndo(self, pts)
        self.points[side] += pts
        self.tricks[side] += 1
        self.trick_winners.append(w)
        for b in tb:
            self.live ^= 1 << b
        self.trick_bits = []
        self.trick_seats = []
        self.acting = w
        if self.declarations:
            self.window = w
            self.window_done = False
            self.window_sang = [False] * self.n
            self.window_manilla = [False] * self.n
        if not self.hands[w]:
            self.points[side] += self.last_bonus
        return saved

    def _unplay(self, seat: int, bit: int, saved: _TrickUndo | None,
                prev: tuple[int, int, int, int]) -> None:
        if saved is not None:
            self.trick_bits, self.trick_seats = saved.bits, saved.seats
            self.window, self.window_done = saved.window, saved.window_done
            self.window_sang, self.window_manilla = saved.window_sang, saved.window_manilla
            w = self.trick_winners.pop()
            side = self.side[w]
            for b in saved.bits:
                self.live ^= 1 << b
            if not self.hands[w]:
                self.points[side] -= self.last_bonus
            self.points[side] -= saved.points
            self.tricks[side] -= 1
        self.trick_bits.pop()
        self.trick_seats.pop()
        self.hands[seat] ^= 1 << bit
        self.hkey ^= 1 << (seat * 40 + bit)
        self.led, self.win_bit, self.win_seat, self.acting = prev

    # ---------------------------------------------------------------- search
    def _key(self) -> tuple[object, ...]:
        tb = self.trick_bits
        trick = tuple(tb) if tb else None
        pts, cts = self.points, self.cantes
        if self.two_sides:
            # only the difference matters, and a tie is settled by the (future) last trick
            score: object = pts[0] + cts[0] - pts[1] - cts[1]
            if not self.declarations:
                return (self.hkey, self.acting, trick, score)
            return (self.hkey, self.acting, trick, score, self.sung_suits, self.manilla_suits,
                    tuple(self.sang_twenty), tuple(self.sang), tuple(self.lost))
        score = tuple(p + c for p, c in zip(pts, cts, strict=True))
        order: list[int] = []     # ties among 3+ go to the most recent winner among them
        for w in reversed(self.trick_winners):
            if self.side[w] not in order:
                order.append(self.side[w])
        return (self.hkey, self.acting, trick, score, tuple(order), tuple(self.tricks),
                self.sung_suits, self.manilla_suits, tuple(self.sang_twenty), tuple(self.sang))

    def search(self, alpha: int, beta: int) -> int:
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise SolverLimit("solver_node_limit", nodes=self.max_nodes)
        seat = self.acting
        if not self.hands[seat] and not self.trick_bits:
            return self._terminal()
        # a tute ends the hand (declaring it is never worse for its side)
        if self.declarations and ((self.window >= 0 and not self.window_done)
                                  or self.tute_anytime):
            t = self._tute_side()
            if t >= 0:
                return TUTE_VALUE if self.coalition[t] else -TUTE_VALUE
        if self.window >= 0 and not self.window_done and not self.trick_bits:
            return self._declare_then_lead(alpha, beta)
        key = self._key()
        entry = self.tt.get(key)
        first: int | None = None
        if entry is not None:
            value, flag, first = entry
            if flag == _EXACT:
                return value
            if flag == _LOWER and value >= beta:
                return value
            if flag == _UPPER and value <= alpha:
                return value
        maximize = self.coalition[seat]
        moves = self._card_moves(seat)
        if first is not None and first in moves:
            moves.remove(first)
            moves.insert(0, first)
        a0, b0 = alpha, beta
        best = -TUTE_VALUE - 1 if maximize else TUTE_VALUE + 1
        best_move = moves[0]
        prev = (self.led, self.win_bit, self.win_seat, self.acting)
        for bit in moves:
            saved = self._play(seat, bit)
            value = self.search(alpha, beta)
            self._unplay(seat, bit, saved, prev)
            if maximize:
                if value > best:
                    best, best_move = value, bit
                    if value > alpha:
                        alpha = value
            else:
                if value < best:
                    best, best_move = value, bit
                    if value < beta:
                        beta = value
            if alpha >= beta:
                break
        flag = _EXACT
        if best <= a0:
            flag = _UPPER
        elif best >= b0:
            flag = _LOWER
        self.tt[key] = (best, flag, best_move)
        return best

    def _declare_then_lead(self, alpha: int, beta: int) -> int:
        bundles = self._bundles()
        maximize = self.coalition[self.window]
        best = -TUTE_VALUE - 1 if maximize else TUTE_VALUE + 1
        for bundle in bundles:
            saved = self._apply_bundle(bundle)
            self.window_done = True
            value = self.search(alpha, beta)
            self.window_done = False
            self._undo_bundle(saved)
            if maximize:
                best = max(best, value)
                alpha = max(alpha, value)
            else:
                best = min(best, value)
                beta = min(beta, value)
            if alpha >= beta:
                break
        return best

    # ---------------------------------------------------------------- the root
    def kernel_ok(self) -> bool:
        """Whether the compiled kernel covers this position (:mod:`tute.search.fast`)."""
        from tute.search import fast
        return fast.kernel_ok(self)

    def with_kernel(self, all_moves: bool = True) -> Solution | None:
        """The compiled kernel's values (:mod:`tute.search.fast`); None: the pure
        solver's turn."""
        from tute.search import fast
        return fast.with_kernel(self, all_moves)

    def best_only(self) -> Solution:
        """One alpha-beta search from the root: the value and a best first action."""
        if self.kernel_ok():
            fast = self.with_kernel(all_moves=False)
            if fast is not None:
                return fast
        seat = self.acting
        t = self._tute_side()
        if t >= 0 and t == seat and (self.window >= 0 or self.tute_anytime):
            value = TUTE_VALUE if self.coalition[seat] else -TUTE_VALUE
            return Solution(value, (TUTE,), {TUTE: value}, 1)
        if self.window >= 0 and not self.trick_bits and self._bundles() != [[]]:
            return self.root()              # declarations first: the full root evaluation
        self.window_done = True
        value = self.search(-TUTE_VALUE - 1, TUTE_VALUE + 1)
        entry = self.tt.get(self._key())
        assert entry is not None
        best = self.g.rk.play_of_bit[entry[2]]
        return Solution(value, (best,), {best: value}, self.nodes)

    def root(self) -> Solution:
        if self.kernel_ok():
            fast = self.with_kernel()
            if fast is not None:
                return fast
        seat = self.acting
        values: dict[Action, int] = {}
        rk = self.g.rk
        t = self._tute_side()
        if t >= 0 and t == seat and (self.window >= 0 or self.tute_anytime):
            # the best action; the others are valued too: every legal action has a value
            values[TUTE] = TUTE_VALUE if self.coalition[seat] else -TUTE_VALUE
        lost_before = list(self.lost)
        if self.window >= 0 and not self.trick_bits and seat == self.window:
            pick_best = max if self.coalition[seat] else min
            for bundle in self._bundles():
                mine = [(s, suit, kind) for s, suit, kind in bundle if s == seat]
                if not mine:
                    continue
                saved = self._apply_bundle(bundle)
                self.window_done = True
                value = self.search(-TUTE_VALUE - 1, TUTE_VALUE + 1)
                self.window_done = False
                self._undo_bundle(saved)
                _s, suit, kind = mine[0]
                act: Action = (MANILLAS[suit] if kind == "manilla" else
                               FORTY if suit == self.trump_suit else TWENTIES[suit])
                values[act] = pick_best(values.get(act, value), value)
            # leading closes the window: with sing_use_or_lose what could be sung is lost
            if self.g.use_or_lose:
                for s in range(self.n):
                    u = self.unit[s]
                    if not self.window_sang[u]:
                        self.lost[u] |= self._singable_suits(s)
            self.window_done = True
        prev = (self.led, self.win_bit, self.win_seat, self.acting)
        m = self._legal_mask(seat)
        while m:
            low = m & -m
            bit = low.bit_length() - 1
            m ^= low
            undo = self._play(seat, bit)
            values[rk.play_of_bit[bit]] = self.search(-TUTE_VALUE - 1, TUTE_VALUE + 1)
            self._unplay(seat, bit, undo, prev)
        self.lost = lost_before
        pick = max if self.coalition[seat] else min
        best_value = pick(values.values())
        best = tuple(a for a, x in values.items() if x == best_value)
        return Solution(best_value, best, values, self.nodes)


def solve(game: Game, perspective: int | None = None, all_moves: bool = True,
          max_nodes: int | None = None, kernel: bool = True) -> Solution:
    """Solve a position with every card known and no stock left.

    ``perspective``: the seat whose side's value is returned (default: the seat to
    move).  With ``all_moves``, ``move_values`` holds the exact value of every legal first
    action of the seat to move (cards, and the declarations open to it); without, one
    search finds the value and a best action (faster)."""
    if game.phase_code == OVER:
        raise SolverError("solver_hand_over")
    seat = game.acting
    s = _Search(game, seat if perspective is None else perspective)
    if max_nodes is not None:
        s.max_nodes = max_nodes
    s.use_kernel = kernel
    return s.root() if all_moves else s.best_only()


def kernel_covers(game: Game) -> bool:
    """Whether :func:`solve` runs this position in the compiled kernel (fast) rather
    than in pure Python: a search bot may solve deeper where it does."""
    return _Search(game, game.acting).kernel_ok()


__all__ = ["TUTE_VALUE", "WIN", "Solution", "SolverError", "SolverLimit", "kernel_covers",
           "nothing_to_draw", "solve"]
