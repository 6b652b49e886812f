"""Between the pure solver and its compiled kernel (:mod:`tute.search.dds`): which
positions the kernel covers, and their values from it on the pure solver's scale.

The kernel plays two sides, three players each for himself where the highest total
wins, a contract (Subastado: the declarer's points against his bid), and Cabrero's
porotos (up to four playing).  It knows cantes as the trick winner's side's choice (each
partner's own where each sings one), manillas, and tutes still to come (declared after a
trick won, or on a turn).  A cante the root may sing is valued here, by the kernel after
singing it; a tute the root may declare is the pure solver's (at once)."""

from __future__ import annotations

from typing import Any

from tute.core.actions import FORTY, MANILLAS, TWENTIES, Action
from tute.search import dds, kernel
from tute.search.solution import Solution

# the pure solver's search state (tute.search.solver._Search), which calls in here: not
# imported back, so the two modules make no circle
_Search = Any


def kernel_ok(self: _Search) -> bool:
    """Whether the kernel covers the position: two sides, three players each for
    himself or a contract; no tute the root may declare now; cantes and manillas
    declared by the trick's winner, his side, each partner or the declarer."""
    contract = self.scoring == "contract"
    if not (self.use_kernel and dds.AVAILABLE and (
            (self.n <= 4 and (self.two_sides or three(self) or contract))
            or cabrero(self))):
        return False
    if self.others_possible and self._tute_side() >= 0:   # the root's tute: at once
        return False
    if self.cantes_possible or self.manillas_possible:
        sings = ("declarer",) if contract else ("winner", "winner_or_partner",
                                                "both_one_each")
        if self.g.variant.sing_who not in sings:
            return False
        if self.window >= 0 and not self.trick_bits and self._bundles() != [[]] \
                and self.acting != self.window:
            return False                # another seat's window: the pure solver
    return True


def cabrero(self: _Search) -> bool:
    """Cabrero with at most four playing (tricks of four cards at most)."""
    return bool(self.scoring == "cabrero" and self.nplay <= 4 and self.n <= 6)


def three(self: _Search) -> bool:
    """Three players each for himself, all playing, the highest total winning."""
    return (self.n == 3 and self.nsides == 3 and self.scoring == "highest"
            and len(self.g.playing) == 3)


def with_kernel(self: _Search, all_moves: bool = True) -> Solution | None:
    """The compiled kernel's values of every legal card (see tute.search.dds); only
    a best card's without ``all_moves``.  A cante the root may sing first: each
    valued by the kernel after singing it, as the pure root does."""
    if not (self.window >= 0 and not self.trick_bits and self._bundles() != [[]]):
        return _kernel_cards(self, all_moves)
    seat = self.acting
    values: dict[Action, int] = {}
    nodes = 0
    lost_before = list(self.lost)
    pick = max if self.coalition[seat] else min
    for bundle in self._bundles():
        mine = [(s, suit, kind) for s, suit, kind in bundle if s == seat]
        if not mine:
            continue
        saved = self._apply_bundle(bundle)
        self.window_done = True
        sung = _kernel_cards(self, False)
        self.window_done = False
        self._undo_bundle(saved)
        if sung is None:
            return None
        nodes += sung.nodes
        _s, suit, kind = mine[0]
        act: Action = (MANILLAS[suit] if kind == "manilla" else
                       FORTY if suit == self.trump_suit else TWENTIES[suit])
        values[act] = pick(values.get(act, sung.value), sung.value)
    if self.g.use_or_lose:              # leading closes the window: what is not sung
        for s in range(self.n):         # now is lost
            if not self.window_sang[self.unit[s]]:
                self.lost[self.unit[s]] |= self._singable_suits(s)
    cards = _kernel_cards(self, all_moves)
    self.lost = lost_before
    if cards is None:
        return None
    values.update(cards.move_values)
    best_value = pick(values.values())
    best = tuple(a for a, x in values.items() if x == best_value)
    return Solution(best_value, best, values if all_moves else {best[0]: best_value},
                    nodes + cards.nodes)


def _kernel_cards(self: _Search, all_moves: bool) -> Solution | None:
    seat = self.acting
    mine = self.side[self.persp]
    totals = [p + c for p, c in zip(self.points, self.cantes, strict=True)]
    m = self._legal_mask(seat)
    bits = [b for b in range(40) if m >> b & 1]
    last_side = self.side[self.trick_winners[-1]] if self.trick_winners else 0
    others: tuple[int, int] | None = None
    contract: tuple[int, int] | None = None
    porotos: tuple[tuple[int, ...], int, int, int] | None = None
    lead = order = 0
    if self.scoring == "contract":
        d = self.declarer
        mine = self.side[d]
        diff = totals[mine]
        contract = (d, self.g.bid)
    elif self.scoring == "cabrero":
        diff = 0
        playing = sum(1 << s for s in self.g.playing)
        porotos = (tuple(totals), playing,
                   sum(1 << s for s in range(self.n) if self.tricks[self.side[s]]),
                   sum(1 << s for s in range(self.n) if self.sang[s]))
    elif three(self):
        first, second = (s for s in range(3) if s != mine)
        others = (first, second)
        diff = totals[mine] - totals[first]
        lead = totals[first] - totals[second]
        order = 0b111111                    # nobody has won a trick yet
        for w in self.trick_winners:
            order = int(kernel.recent(order, self.side[w]))
    else:
        diff = totals[mine] - totals[1 - mine]
    twenty_units = sum(1 << u for u in range(self.n) if self.sang_twenty[u])
    lost = sum((self.lost[u] & 0xF) << (4 * u) for u in range(self.n))
    sets = (*self.tute_sets, 0, 0)[:2]
    barred = 0
    if self.g.variant.no_tute_after_sing:
        barred = sum(1 << s for s in range(self.n) if self.sang[s])
    found = dds.solve_arrays(
        list(self.hands), self.side, self.coalition, self.next, seat,
        list(zip(self.trick_seats, self.trick_bits, strict=True)),
        diff, self.trump_suit, self.nplay, self.undertrump,
        self.partner_exc, mine, self.last_bonus, last_side, bits,
        unit=self.unit, cantes=self.cantes_possible,
        partner_sings=self.partner_may_sing, forty_first=self.forty_first,
        sung=self.sung_suits, twenty_units=twenty_units, lost=lost,
        all_moves=all_moves, three=others, lead=lead, order=order, contract=contract,
        tutes=(sets[0], sets[1]), tute_anytime=bool(self.tute_anytime), barred=barred,
        each_one=self.g.variant.sing_who == "both_one_each",
        manilla=self.manilla or 0, manillas_done=self.manilla_suits, cabrero=porotos,
        max_nodes=self.max_nodes if self.max_nodes < 1 << 62 else 0)
    if found is None:
        return None
    values, nodes = found
    rk = self.g.rk
    by_action: dict[Action, int] = {rk.play_of_bit[b]: v for b, v in values.items()}
    pick = max if self.coalition[seat] else min
    best_value = pick(by_action.values())
    best = tuple(a for a, x in by_action.items() if x == best_value)
    return Solution(best_value, best, by_action, nodes)
