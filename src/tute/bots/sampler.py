"""Deals consistent with what a view reveals.

The cards a seat cannot see are dealt at random to the other hands (their sizes known)
and to the face-down stock, respecting everything the view reveals: cards played, shown
(cantes, the turn-up, a swap, the last draw), and what the obligations of RULES.md §4
reveal where they were in force.  Those are derived from the rules themselves: for each
card a player played under obligations, every unseen card whose presence in his hand
would have made that card illegal (asked of the engine's own obligation function) is a
card he did not hold then -- nor now, unless he has drawn since.

Placement is exact: the constrained cards are placed one by one, each choice checked
against Hall's condition over the slots, so a sample is always found when the view is
consistent.
"""

from __future__ import annotations

import random

from tute.bots.knowledge import unseen
from tute.core.actions import Play
from tute.core.cards import Card
from tute.core.game import Game
from tute.core.position import from_view
from tute.core.tables import ranking, strict_play_mask, trick_winner
from tute.core.views import PlayerView


def exclusions(view: PlayerView) -> dict[int, set[Card]]:
    """Seat -> unseen cards it cannot hold now, from the obligations it obeyed."""
    v = view.variant
    rk = ranking(v.ranking)
    bit = rk.bit_of_index
    n = v.players
    me = view.seat
    pool = unseen(view)
    out: dict[int, set[Card]] = {s: set() for s in range(n) if s != me}
    trump = view.trump.index if view.trump is not None else -1
    nplay = v.players_dealt
    draw_pool = v.stock_size + (1 if v.trump == "turn_up" else 0)
    full = v.stock_obligations == "full"
    tot = v.stock_obligations == "trump_on_trump"
    plays = [(s, a.card) for s, a in view.history if isinstance(a, Play)]
    tricks_total = len(plays) // nplay
    # for each completed trick, did the seats draw after it?
    for i, (s, card) in enumerate(plays):
        pos = i % nplay
        if pos == 0 or s == me or trump < 0:
            continue
        t = i // nplay
        stock_then = draw_pool - nplay * t
        strict = stock_then <= 0 or full
        if not strict and not tot:
            continue
        trick = plays[t * nplay:i]
        led = bit[trick[0][1].index] // 10
        win_seat, win = trick_winner([(seat, bit[c.index]) for seat, c in trick], trump)
        partner_free = (v.partner_exception and v.partnerships
                        and win_seat % 2 == s % 2)
        drew_since = any(draw_pool - nplay * k > 0 for k in range(t, tricks_total))
        if drew_since:
            continue
        cb = bit[card.index]
        for x in pool:
            xb = bit[x.index]
            two = (1 << cb) | (1 << xb)
            if strict:
                legal = strict_play_mask(two, led, trump, win, partner_free,
                                         v.must_undertrump)
            else:                                   # trump_on_trump while the stock lasts
                legal = (two & (0x3FF << (trump * 10))) if led == trump else two
                legal = legal or two
            if not legal >> cb & 1:
                out[s].add(x)
    return out


def _feasible(cards: list[int], caps: list[int]) -> bool:
    """Hall's condition: cards (as masks of allowed slots) fit the slot capacities."""
    k = len(caps)
    for subset in range(1, 1 << k):
        room = sum(caps[i] for i in range(k) if subset >> i & 1)
        need = sum(1 for m in cards if m & ~subset == 0)
        if need > room:
            return False
    return True


def sample_hidden(view: PlayerView, rng: random.Random,
                  excluded: dict[int, set[Card]] | None = None
                  ) -> tuple[list[list[Card]], list[Card]]:
    """Every seat's hand (own hand as it is) and the face-down stock, drawn at random
    consistently with the view and ``excluded`` (seat -> the unseen cards it cannot
    hold; -1, where given: those the stock cannot hold)."""
    v = view.variant
    n = v.players
    me = view.seat
    excluded = exclusions(view) if excluded is None else excluded
    pool = sorted(unseen(view), key=lambda c: c.index)
    dead_or_live = view.turn_up if v.trump in ("turn_up", "dead_turn_up") else None
    if dead_or_live is not None and dead_or_live in pool:
        pool.remove(dead_or_live)
    others = [s for s in range(n) if s != me]
    slots = [*others, -1]                        # -1: the stock
    caps = [view.hand_counts[s] - len(view.known_cards[s]) for s in others]
    caps.append(view.stock_left)
    if sum(caps) != len(pool):
        raise AssertionError(f"sampler: {len(pool)} unseen cards for {sum(caps)} places")
    allowed: dict[Card, int] = {}
    for c in pool:
        m = 0
        for i, s in enumerate(slots):
            if c not in excluded.get(s, ()):         # -1: cards the stock cannot hold
                m |= 1 << i
        allowed[c] = m
    full = (1 << len(slots)) - 1
    constrained = [c for c in pool if allowed[c] != full]
    free = [c for c in pool if allowed[c] == full]
    rng.shuffle(constrained)
    constrained.sort(key=lambda c: bin(allowed[c]).count("1"))
    placed: dict[int, list[Card]] = {s: [] for s in slots}
    left = [allowed[c] for c in constrained]
    for j, c in enumerate(constrained):
        rest = left[j + 1:] + [full] * len(free)
        options = [i for i in range(len(slots)) if allowed[c] >> i & 1 and caps[i] > 0]
        rng.shuffle(options)
        options.sort(key=lambda i: -caps[i] * rng.random())
        for i in options:
            caps[i] -= 1
            if _feasible(rest, caps):
                placed[slots[i]].append(c)
                break
            caps[i] += 1
        else:
            raise AssertionError("sampler: no consistent deal (a bug: the view is real)")
    rng.shuffle(free)
    for i, s in enumerate(slots):
        while caps[i] > 0:
            placed[s].append(free.pop())
            caps[i] -= 1
    hands: list[list[Card]] = []
    for s in range(n):
        if s == me:
            hands.append(list(view.hand))
        else:
            hands.append(placed[s] + sorted(view.known_cards[s], key=lambda c: c.index))
    stock = placed[-1]
    rng.shuffle(stock)
    return hands, stock


def sample_game(view: PlayerView, rng: random.Random,
                excluded: dict[int, set[Card]] | None = None) -> Game:
    """A full game consistent with the view, to search in."""
    hands, stock = sample_hidden(view, rng, excluded)
    return from_view(view, hands, stock)

