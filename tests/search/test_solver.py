"""The exact solver against a plain minimax over the engine, on random small positions."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from solver_reference import minimax, root_values
from tute import Game
from tute.core.actions import MANILLAS, TUTE, Play
from tute.core.cards import Card
from tute.core.errors import TuteError
from tute.core.variants import Variant
from tute.search.solution import Solution
from tute.search.solver import TUTE_VALUE, WIN, SolverError, _Search, solve

CASES = [("habanero", 4), ("parejas", 2), ("online", 2), ("tres", 2),
         ("individual(players=3)", 3), ("parejas(sing_who=both_one_each,manilla=10)", 2),
         ("cabrero(players=3)", 3), ("subastado(players=4)", 2), ("subastado", 2),
         ("online(players=2,sing_while_stock_only=false)", 4), ("guinote(players=4)", 2),
         ("arrastre", 3), ("parejas(tute_timing=anytime,must_undertrump=true)", 2),
         ("cabrero(players=5)", 2), ("online(players=3)", 2)]


def _position(text: str | Variant, seed: int, cards: int, mid_trick: bool) -> Game | None:
    rng = random.Random(seed * 7 + mid_trick)
    g = Game.new(text, seed=seed)
    while not g.is_over:
        seat = g.to_act
        assert seat is not None
        if (g.phase == "strict" and len(g.hand(seat)) <= cards
                and bool(g.trick) == mid_trick):
            return g
        for s in g.seats_with_declarations():
            if rng.random() < 0.5:
                g.apply(s, rng.choice(g.legal_actions(s)))
        if g.is_over:
            break
        seat = g.to_act
        assert seat is not None
        g.apply(seat, rng.choice(g.legal_actions(seat)))
    return None


@pytest.mark.parametrize(("text", "cards"), CASES)
def test_solver_matches_plain_minimax(text: str, cards: int) -> None:
    checked = 0
    for seed in range(60):
        for mid in (False, True):
            g = _position(text, seed, cards, mid)
            if g is None:
                continue
            seat = g.to_act
            assert seat is not None
            sol = solve(g)
            assert {str(a): v for a, v in sol.move_values.items()} == root_values(g, seat)
            assert sol.value == minimax(g, seat)
            fast = solve(g, all_moves=False)
            assert fast.value == sol.value and fast.best[0] in sol.best
            checked += 1
    assert checked >= 70, checked            # 15 cases: more than 1,000 positions in all


def test_other_perspectives() -> None:
    for seed in range(20):
        g = _position("parejas", seed, 3, True)
        assert g is not None
        for persp in range(4):
            assert solve(g, perspective=persp).value == minimax(g, persp)


def test_positions_with_cards_to_draw_are_refused() -> None:
    g = Game.new("habanero", seed=1)
    with pytest.raises(SolverError):
        solve(g)
    g = Game.new("parejas", seed=1)
    solve_ok = _position("parejas", 1, 1, False)
    assert solve_ok is not None and solve(solve_ok).move_values


def test_compiled_kernel_matches_the_pure_solver() -> None:
    from tute.search import kernel as _kernel
    if not _kernel.AVAILABLE:
        pytest.skip("numba is not installed: the pure solver is the only one")
    checked = 0
    for text, cards in [("habanero", 8), ("habanero", 4), ("arrastre", 6),
                        ("online(players=2)", 7), ("parejas", 3), ("parejas", 4),
                        ("guinote(players=4)", 3), ("parejas(must_undertrump=true)", 3),
                        ("guinote(players=4,partner_exception=true)", 2), ("parejas", 5),
                        ("online", 4), ("online(players=2,sing_while_stock_only=false)", 6),
                        ("parejas(forty_first=off,tute_set=off)", 4),
                        ("parejas(forty_first=if_held,sing_who=winner_or_partner)", 4),
                        ("parejas(sing_use_or_lose=true)", 4), ("guinote", 6),
                        ("habanero(sing_who=both_one_each)", 6)]:
        for seed in range(40):
            for mid in (False, True):
                g = _position(text, seed, cards, mid)
                if g is None:
                    continue
                fast = solve(g)
                pure = solve(g, kernel=False)
                assert fast.move_values == pure.move_values, (text, seed)
                checked += 1
    assert checked > 600


def _against_pure(g: Game, persp: int, *where: object) -> Solution | None:
    """The kernel's values of every legal action from ``persp`` against the pure
    solver's (``where``: what a failure prints); None where the kernel does not cover
    the position, else the pure solver's solution."""
    if not _Search(g, persp).kernel_ok():
        return None
    pure = solve(g, perspective=persp, kernel=False)
    assert solve(g, perspective=persp).move_values == pure.move_values, where
    return pure


def test_the_kernel_plays_three_players_each_for_himself_as_the_pure_solver() -> None:
    """Three players each for himself, from every seat's perspective: the margin against
    the best of the others is not a sum of two sides' points, yet the kernel's values are
    the pure solver's -- ties with the best other included (the tied player who won a
    trick last wins the hand)."""
    from tute.search import dds
    if not dds.AVAILABLE:
        pytest.skip("numba is not installed: the pure solver is the only one")
    checked = ties = 0
    for text, cards in [("tres", 2), ("tres", 3), ("tres", 4), ("individual(players=3)", 3),
                        ("online(players=3)", 3), ("online(players=3)", 4)]:
        for seed in range(40):
            for mid in (False, True):
                g = _position(text, seed, cards, mid)
                if g is None:
                    continue
                for persp in range(3):
                    pure = _against_pure(g, persp, text, seed, mid, persp)
                    if pure is None:
                        continue
                    assert _Search(g, persp).with_kernel() is not None   # the kernel's own
                    checked += 1
                    ties += any(abs(v) == WIN for v in pure.move_values.values())
    assert checked > 900 and ties >= 5, (checked, ties)


def test_the_kernel_plays_a_contract_as_the_pure_solver() -> None:
    """Subastado, three and four players, from the declarer's and each defender's
    perspective: made or not, then the declarer's total against his bid -- and only the
    declarer sings."""
    from tute.search import dds
    if not dds.AVAILABLE:
        pytest.skip("numba is not installed: the pure solver is the only one")
    checked = defenders_marriages = 0
    for text, cards in [("subastado", 2), ("subastado", 3), ("subastado", 4),
                        ("subastado(players=4)", 2), ("subastado(players=4)", 3),
                        ("subastado(players=4)", 4)]:
        for seed in range(40 if cards < 4 else 100):
            for mid in (False, True):
                g = _position(text, seed, cards, mid)
                if g is None:
                    continue
                d = g.declarer
                with_marriage = any(_open_marriages_of(g, s) for s in range(g.players)
                                    if s != d)
                if cards == 4 and not with_marriage:
                    continue                # there: a defender who may not sing
                defenders_marriages += with_marriage
                for persp in range(g.players):
                    s = _Search(g, persp)
                    assert s.kernel_ok() and s.with_kernel() is not None
                    pure = solve(g, perspective=persp, kernel=False)
                    assert solve(g, perspective=persp).move_values == pure.move_values, (
                        text, seed, mid, persp)
                    checked += 1
    assert checked > 1000 and defenders_marriages >= 40, (checked, defenders_marriages)


def _tute_position(text: str, seed: int, cards: int, mid: bool) -> Game | None:
    """A deal where one seat holds the four kings (or knights), played at random --
    never a declaration, the holder keeping his set -- down to ``cards`` cards a hand;
    None where the obligations made him break it."""
    def kings_or_knights(rng: random.Random) -> Callable[[Card], bool]:
        rank = rng.choice("RC")
        return lambda c: c.code[0] == rank

    return _kept_position(text, seed, cards, mid, kings_or_knights)


def _kept_position(text: str, seed: int, cards: int, mid: bool,
                   pick: Callable[[random.Random], Callable[[Card], bool]]) -> Game | None:
    """A deal where one seat holds the cards ``pick`` chooses and keeps them while the
    hand is played at random (cantes and manillas now and then, never the tute) down to
    ``cards`` cards a hand; None where the obligations made him break them."""
    rng = random.Random(seed)
    dealt = Game.new(text, seed=seed)
    n, size = dealt.players, len(dealt.hand(0))
    deck = [c for s in range(n) for c in dealt.hand(s)]
    holder = rng.randrange(n)
    keep = pick(rng)
    kept = [c for c in deck if keep(c)]
    rest = [c for c in deck if c not in kept]
    rng.shuffle(rest)
    hands = []
    for s in range(n):
        take = size - (len(kept) if s == holder else 0)
        hands.append((kept if s == holder else []) + rest[:take])
        rest = rest[take:]
    declarer_trumps = dealt.variant.trump == "declarer"
    g = Game.from_hands(text, hands, None if declarer_trumps else hands[0][-1], (), 0)
    while not g.is_over:
        if g.phase == "auction":                     # Subastado: bids at random
            seat = g.acting
            g.apply(seat, rng.choice(g.legal_actions(seat)))
            continue
        for s in g.seats_with_declarations():       # cantes now and then, never the tute
            cantes = [a for a in g.legal_actions(s) if a != TUTE and not isinstance(a, Play)]
            if cantes and rng.random() < 0.5:
                g.apply(s, rng.choice(cantes))
        seat = g.acting
        if len(g.hand(seat)) <= cards and bool(g.trick) == mid:
            return g
        plays = [a for a in g.legal_actions(seat) if isinstance(a, Play)]
        free = [a for a in plays if not (seat == holder and a.card in kept)]
        if not free:
            return None
        g.apply(seat, rng.choice(free))
    return None


def test_the_kernel_values_a_tute_to_come_as_the_pure_solver() -> None:
    """A seat holds the four kings (or knights) and has not declared them yet: the tute
    comes when his side wins a trick (or on his turn, tute_timing anytime) and ends the
    hand -- the kernel searches it as the pure solver does (with no_tute_after_sing a
    seat that has sung is barred)."""
    from tute.search import dds
    if not dds.AVAILABLE:
        pytest.skip("numba is not installed: the pure solver is the only one")
    checked = tutes = 0
    for text in ("parejas", "online", "parejas(tute_timing=anytime)", "tres",
                 "parejas(sing_who=winner_or_partner)", "online(tute_timing=anytime)"):
        found = 0
        for seed in range(700):
            g = _tute_position(text, seed, 5 + seed % 3 // 2, seed % 2 == 1)
            if g is None:
                continue
            for persp in range(g.players):
                pure = _against_pure(g, persp, text, seed, persp)
                if pure is None:
                    break                     # the root's own tute: the pure solver
                assert _Search(g, persp).with_kernel() is not None
                checked += 1
                tutes += any(abs(v) == TUTE_VALUE for v in pure.move_values.values())
            else:
                found += 1
            if found == 20:
                break
        assert found == 20, (text, found)
    assert tutes >= 40, (checked, tutes)


def test_one_rule_for_who_wins_a_trick() -> None:
    """The core's ``beats`` against its meaning, card by card, and the compiled kernel's
    transcription against the core on every card, winner and trump."""
    import pytest

    from tute.bots.knowledge import beats as card_beats
    from tute.core.cards import ALL_CARDS, SUITS
    from tute.core.tables import beats, ranking, strength
    from tute.search import kernel

    for name in ("tute", "guinote"):
        bit_of = ranking(name).bit_of_index
        for card in ALL_CARDS:
            for win in ALL_CARDS:
                for trump in (None, *SUITS):
                    expected = (card.suit == win.suit and strength(card.rank, name)
                                > strength(win.rank, name)) or (
                        card.suit == trump and win.suit != trump)
                    t = -1 if trump is None else trump.index
                    assert beats(bit_of[card.index], bit_of[win.index], t) == expected
                    assert card_beats(card, win, trump, name) == expected
    if not kernel.AVAILABLE:
        pytest.skip("numba is not installed: the kernel is not used here")
    for b in range(40):
        for w in range(40):
            for t in range(-1, 4):
                assert bool(kernel.beats_transcribed(b, w, t)) == beats(b, w, t)


def _open_marriages_of(g: Game, seat: int) -> int:
    """How many unsung marriages ``seat`` holds."""
    sung = {c.suit for c in g.view(0).table.cantes_shown}
    codes = {c.code for c in g.hand(seat)}
    return sum(1 for x in "oceb" if {f"R{x}", f"C{x}"} <= codes and
               not any(suit.value == x for suit in sung))


def _open_marriages(g: Game) -> int:
    """How many unsung marriages the hands hold (a side with two chooses which to sing)."""
    sung = {c.suit for c in g.view(0).table.cantes_shown}
    count = 0
    for s in range(g.players):
        codes = {c.code for c in g.hand(s)}
        count += sum(1 for x in "oceb" if {f"R{x}", f"C{x}"} <= codes and
                     not any(suit.value == x for suit in sung))
    return count


def test_the_kernel_chooses_among_cantes_as_the_pure_solver() -> None:
    """A trick won by a side with two cantes open: the kernel searches which to sing
    (each a choice of the winner's side; where each partner sings his own, each pair of
    choices) and finds the pure solver's values."""
    from tute.search import dds
    if not dds.AVAILABLE:
        pytest.skip("numba is not installed: the pure solver is the only one")
    checked = by_kernel = 0
    for text in ("parejas", "online(players=2,sing_while_stock_only=false)",
                 "parejas(forty_first=off,tute_set=off)",
                 "parejas(forty_first=if_held,sing_who=winner_or_partner)",
                 "parejas(sing_who=both_one_each)",
                 "parejas(sing_who=both_one_each,forty_first=strict,sing_use_or_lose=true)"):
        for seed in range(900):
            g = _position(text, seed, 5, seed % 2 == 1)
            if g is None or _open_marriages(g) < 2:
                continue
            assert solve(g).move_values == solve(g, kernel=False).move_values, (text, seed)
            checked += 1
            s = _Search(g, g.acting)
            if s.kernel_ok() and s.with_kernel() is not None:
                by_kernel += 1                    # the kernel itself answered
    assert checked >= 20 and by_kernel >= 10, (checked, by_kernel)


def test_the_kernel_sings_the_forty_when_it_may_choose() -> None:
    """Hand-built: seat 0 takes the first trick with the as de oros and may sing the
    forty (bastos, trumps) or the twenty (copas), with forty_first off; it wins no
    other trick.  The choice is the winner's: 11 + 40 against 66 (the rest and the
    last trick's ten) -- lost by 15, where the twenty would lose by 35."""
    from tute.search import dds
    if not dds.AVAILABLE:
        pytest.skip("numba is not installed: the pure solver is the only one")
    o, c, b = 0, 10, 30                       # the suits' first bits; strength 9 the as
    hands = [1 << (o + 9) | 1 << (b + 7) | 1 << (b + 6) | 1 << (c + 7) | 1 << (c + 6),
             1 << (o + 0) | 1 << (b + 9) | 1 << (b + 8) | 1 << (c + 9) | 1 << (c + 8)]
    moves = [o + 9, b + 7, b + 6, c + 7, c + 6]
    found = dds.solve_arrays(hands, (0, 1), (True, False), (1, 0), 0, [], 0, 3, 2,
                             False, False, 0, 10, 0, moves, cantes=True, forty_first=0)
    assert found is not None
    values, _nodes = found
    assert values[o + 9] == -15 - dds.WIN
    assert max(values.values()) == values[o + 9]


def test_the_kernel_values_a_cante_at_the_root_as_the_pure_solver() -> None:
    """The seat to lead may sing first (its side took the last trick): the kernel
    values each cante after singing it, and each card with the window closed (with
    sing_use_or_lose, what was not sung is lost) -- the pure solver's values."""
    from tute.search import dds
    if not dds.AVAILABLE:
        pytest.skip("numba is not installed: the pure solver is the only one")
    checked = sung = 0
    for text in ("parejas(sing_use_or_lose=true)", "online", "parejas"):
        for seed in range(700):
            g = _position(text, seed, 5, False)
            if g is None:
                continue
            s = _Search(g, g.acting)
            if not (s.window >= 0 and s._bundles() != [[]] and s.acting == s.window):
                continue
            fast = solve(g)
            assert s.kernel_ok() and s.with_kernel() is not None
            assert fast.move_values == solve(g, kernel=False).move_values, (text, seed)
            checked += 1
            sung += any(not isinstance(a, Play) for a in fast.move_values)   # its own
            if checked >= 45 and sung >= 15:
                return
    raise AssertionError(f"only {checked} positions with a cante at the root ({sung})")


def test_every_legal_action_is_valued_where_a_tute_may_be_declared() -> None:
    """A seat that may declare tute at the root: tute is a best action, and every
    other legal action has its exact value too (the analysis reads them all; they used
    to be missing) -- each card's value is the solve of the position after it."""
    from tute.bots.search import solvable

    checked = 0
    for seed in range(60):
        g = Game.new("habanero(tute_timing=anytime)", seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            seat = g.to_act
            assert seat is not None
            legal = g.legal_actions(seat)
            if solvable(g) and TUTE in legal:
                sol = solve(g, perspective=seat)
                assert set(sol.move_values) == set(legal)
                assert TUTE in sol.best and sol.value == sol.move_values[TUTE]
                for a in legal:
                    if a != TUTE:
                        child = g.copy()
                        child.apply(seat, a)
                        want = (solve(child, perspective=seat).value if not child.is_over
                                else None)
                        if want is not None:
                            assert sol.move_values[a] == want, (seed, str(a))
                checked += 1
                break
            plays = [a for a in legal if isinstance(a, Play)]       # keep the kings
            g.apply(seat, rng.choice([a for a in plays if a.card.rank.value != "R"]
                                     or plays))
    assert checked >= 2


def test_a_change_to_the_kernels_rules_drops_the_compiled_cache(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """numba keys a cached function by its own bytecode: ``dds``'s search compiled with
    the old rules of ``kernel`` inlined would survive their change.  A stale digest of
    the two sources (as after an upgrade) flushes every compiled function's cache, the
    search's and the rules' alike; a fresh one leaves them alone."""
    import hashlib
    from pathlib import Path
    from typing import Any

    from tute.search import dds, kernel
    if not dds.AVAILABLE:
        pytest.skip("numba is not installed: nothing is compiled")
    search: Any = dds._search
    stamp = Path(search._cache.cache_path) / "dds.sources-digest"
    if not stamp.exists():
        pytest.skip("numba cannot write its cache here")
    flushed: list[str] = []
    for module in (kernel, dds):
        for name in ("_search", "_key", "took", "end_of_three", "_cante_choices"):
            f: Any = getattr(module, name, None)
            if f is not None:
                monkeypatch.setattr(f._cache, "flush",
                                    lambda name=name: flushed.append(name))
    stamp.write_text("stale")
    dds._drop_stale_cache()
    digest = hashlib.sha256(Path(kernel.__file__).read_bytes()
                            + Path(dds.__file__).read_bytes()).hexdigest()
    assert stamp.read_text() == digest
    assert {"_search", "_key", "took", "end_of_three", "_cante_choices"} <= set(flushed)
    flushed.clear()
    dds._drop_stale_cache()                                  # fresh: left alone
    assert flushed == []


def test_each_partner_chooses_his_own_cante() -> None:
    """Hand-built, each partner singing his own (sing_who both_one_each): seat 0 takes
    the first trick with the as de oros; his partner holds the forty (bastos, trumps)
    and a twenty (copas), forty_first off, and their side takes no other trick.  The
    partner's choice is searched: the value is the one with only the forty to sing (the
    copas knight swapped for the sota, one point less in the partner's hand)."""
    from tute.search import dds
    if not dds.AVAILABLE:
        pytest.skip("numba is not installed: the pure solver is the only one")
    o, c, e, b = 0, 10, 20, 30                # the suits' first bits; strength 9 the as

    def value(partner: int) -> int:
        hands = [1 << (o + 9) | 1 << e | 1 << (e + 1) | 1 << (e + 2) | 1 << (e + 3),
                 1 << o | 1 << (e + 9) | 1 << (e + 8) | 1 << (e + 7) | 1 << (e + 6),
                 partner,
                 1 << (o + 2) | 1 << (b + 9) | 1 << (b + 8) | 1 << (b + 5) | 1 << (b + 4)]
        found = dds.solve_arrays(hands, (0, 1, 0, 1), (True, False, True, False),
                                 (1, 2, 3, 0), 0, [], 0, 3, 4, False, False, 0, 10, 0,
                                 [o + 9], unit=(0, 1, 2, 3), cantes=True,
                                 partner_sings=True, forty_first=0, each_one=True)
        assert found is not None
        return found[0][o + 9]

    marriages = 1 << (o + 1) | 1 << (b + 6) | 1 << (b + 7) | 1 << (c + 6) | 1 << (c + 7)
    forty_only = 1 << (o + 1) | 1 << (b + 6) | 1 << (b + 7) | 1 << (c + 5) | 1 << (c + 7)
    assert value(marriages) == value(forty_only) - 1


def test_the_kernel_declares_manillas_as_the_pure_solver() -> None:
    """Option manilla: a seat holds the A and the 3 of one suit or two and keeps them;
    the kernel's values are the pure solver's -- a manilla declared by the trick's
    winner (his side, each partner his own, the declarer alone) once a suit, apart from
    the cantes, the choice between two searched -- from every perspective."""
    from tute.search import dds
    if not dds.AVAILABLE:
        pytest.skip("numba is not installed: the pure solver is the only one")

    def manillas(rng: random.Random) -> Callable[[Card], bool]:
        suits = rng.sample("oceb", rng.choice((1, 2, 2)))
        return lambda c: c.code[0] in "A3" and c.code[1] in suits

    checked = by_kernel = two = at_root = 0
    for text in ("parejas(manilla=10)", "parejas(sing_who=both_one_each,manilla=10)",
                 "online(manilla=20)", "tres(manilla=10)", "subastado(manilla=10)",
                 "parejas(sing_who=winner_or_partner,sing_use_or_lose=true,manilla=10)",
                 "habanero(manilla=10)",
                 "online(players=2,sing_while_stock_only=true,manilla=10)"):
        found = 0
        for seed in range(400):
            if Game.new(text, seed=seed).variant.has_stock:    # the strict phase
                g = _position(text, seed, 4 + seed % 3, seed % 2 == 1)
            else:
                g = _kept_position(text, seed, 4 + seed % 3 // 2, seed % 4 >= 2, manillas)
            if g is None:
                continue
            held = [sum(1 for x in "oceb" if {f"A{x}", f"3{x}"} <= {c.code for c in
                                                                   g.hand(h)})
                    for h in range(g.players)]
            if not any(held):
                continue
            for persp in range(g.players):
                pure = _against_pure(g, persp, text, seed, persp)
                if pure is None:
                    break                     # the root's own tute: the pure solver
                checked += 1
                s = _Search(g, persp)
                if s.manillas_possible and s.with_kernel() is not None:
                    by_kernel += 1
                    two += max(held) >= 2
                    at_root += any(a in MANILLAS for a in pure.move_values)
            else:
                found += 1
            if found == 25:
                break
        assert found == 25, (text, found)
    assert checked >= 400 and by_kernel >= 300, (checked, by_kernel)
    assert two >= 60 and at_root >= 10, (two, at_root)


def test_the_kernel_declares_first_the_manilla_it_would_lose() -> None:
    """Hand-built, manilla 10, two players, bastos trumps: seat 0 takes the first trick
    with the as de oros and holds the A and 3 of copas and of espadas.  Seat 1 holds a
    trump and four espadas: after the copas manilla, he trumps the next lead and leads
    espadas, and seat 0 must break that manilla; after the espadas one, seat 0 leads
    espadas, wins and declares copas.  Both manillas (83 up), not one (73)."""
    from tute.search import dds
    if not dds.AVAILABLE:
        pytest.skip("numba is not installed: the pure solver is the only one")
    o, c, e, b = 0, 10, 20, 30                # the suits' first bits; strength 9 the as
    mine = 1 << (o + 9) | 1 << o | 1 << (c + 9) | 1 << (c + 8) | 1 << (e + 9) | 1 << (e + 8)
    theirs = 1 << (o + 1) | 1 << b | 1 << e | 1 << (e + 1) | 1 << (e + 2) | 1 << (e + 3)
    values = {}
    for manilla in (0, 10):
        found = dds.solve_arrays([mine, theirs], (0, 1), (True, False), (1, 0), 0, [], 0,
                                 3, 2, False, False, 0, 10, 0, [o + 9], manilla=manilla)
        assert found is not None
        values[manilla] = found[0][o + 9]
    assert values[0] == dds.WIN + 63                # every point, the last trick's too
    assert values[10] == values[0] + 20


def test_each_partner_declares_his_own_manilla() -> None:
    """Hand-built, manilla 10, each partner declaring his own (sing_who both_one_each):
    seat 0 takes the first trick with the as de oros; he holds the copas manilla and his
    partner the espadas one, and either must break his at the next trick.  Both are
    declared in that first window (83 up), not one (73)."""
    from tute.search import dds
    if not dds.AVAILABLE:
        pytest.skip("numba is not installed: the pure solver is the only one")
    o, c, e = 0, 10, 20                       # the suits' first bits; strength 9 the as

    def value(each_one: bool) -> int:
        hands = [1 << (o + 9) | 1 << (c + 9) | 1 << (c + 8),
                 1 << (o + 1) | 1 << e | 1 << (e + 1),
                 1 << o | 1 << (e + 9) | 1 << (e + 8),
                 1 << (o + 2) | 1 << (e + 2) | 1 << (e + 3)]
        found = dds.solve_arrays(hands, (0, 1, 0, 1), (True, False, True, False),
                                 (1, 2, 3, 0), 0, [], 0, 3, 4, False, False, 0, 10, 0,
                                 [o + 9], unit=(0, 1, 2, 3) if each_one else (0, 1, 0, 1),
                                 partner_sings=True, each_one=each_one, manilla=10)
        assert found is not None
        return found[0][o + 9]

    assert value(True) == dds.WIN + 63 + 20
    assert value(False) == dds.WIN + 63 + 10       # one manilla a side in a window


def _strong_position(text: str | Variant, seed: int, cards: int, mid: bool) -> Game | None:
    """A deal where one seat holds the six best trumps and every other ace, played at
    random down to ``cards`` cards a hand (cantes now and then): he often takes every
    trick so far (Cabrero's capote), and not always."""
    rng = random.Random(seed)
    dealt = Game.new(text, seed=seed)
    n, size = dealt.players, len(dealt.hand(0))
    deck = [c for s in range(n) for c in dealt.hand(s)]
    trump = rng.choice("oceb")
    best = [c for c in deck if (c.code[1] == trump and c.code[0] in "A3RCS7")
            or c.code[0] == "A"]
    rest = [c for c in deck if c not in best]
    rng.shuffle(rest)
    for holder in range(n):                   # the seat dealt last turns trumps up
        hands: list[list[Card]] = []
        pool = list(rest)
        for s in range(n):
            take = size - (len(best) if s == holder else 0)
            hands.append((best if s == holder else []) + pool[:take])
            pool = pool[take:]
        try:
            g = Game.from_hands(text, hands, next(c for c in best if c.code[1] == trump),
                                (), 0)
        except TuteError:
            continue
        break
    else:
        return None
    while not g.is_over:
        for s in g.seats_with_declarations():
            if rng.random() < 0.5:
                g.apply(s, rng.choice(g.legal_actions(s)))
        if g.is_over:
            return None
        seat = g.acting
        if len(g.hand(seat)) <= cards and bool(g.trick) == mid:
            return g
        g.apply(seat, rng.choice([a for a in g.legal_actions(seat) if isinstance(a, Play)]))
    return None


def test_the_kernel_counts_cabreros_porotos_as_the_pure_solver() -> None:
    """Cabrero (three, four, and five with the dealer sitting out; two left after
    eliminations; with manillas): a poroto for the middle rank and for every seat
    without a trick, the capote's rule, two players' lower total -- not a sum of
    points, so the kernel keeps every total.  Its values are the pure solver's from
    every playing seat's perspective."""
    import dataclasses

    from tute.core.variants import parse_variant
    from tute.search import dds, kernel
    if not dds.AVAILABLE:
        pytest.skip("numba is not installed: the pure solver is the only one")
    assert kernel.WIN_K == WIN
    two_left = dataclasses.replace(parse_variant("cabrero(players=3)"), players=2, deck=40,
                                   hand_size=20)
    cases: list[tuple[str | Variant, int]] = [
        ("cabrero(players=3)", 3), ("cabrero(players=3)", 4), ("cabrero(players=4)", 3),
        ("cabrero(players=5)", 3), ("cabrero(players=3,manilla=10)", 4), (two_left, 4),
        (two_left, 5)]
    checked = trickless = capote = 0
    for text, cards in cases:
        for seed in range(50):
            for mid in (False, True):
                g = (_position(text, seed, cards, mid) if seed % 3 else
                     _strong_position(text, seed, cards, mid))
                if g is None:
                    continue
                took = [s for s in g.playing if g.tricks[s]]
                for persp in g.playing:
                    if _against_pure(g, persp, text, seed, mid, persp) is None:
                        break                 # the root's own tute: the pure solver
                    assert _Search(g, persp).with_kernel() is not None
                    checked += 1
                    trickless += len(took) < len(g.playing)
                    capote += len(took) == 1
    assert checked > 800 and trickless > 200 and capote > 40, (checked, trickless, capote)


def test_a_capote_who_sang_takes_the_poroto() -> None:
    """Hand-built Cabrero, three players, oros trumps: seat 0 has taken every trick so
    far and leads with the as, the king and the knight of trumps; he takes every
    trick.  Had he sung before, or once he sings his forty after the first trick, the
    capote is his poroto (RULES §9); with the sota for the knight, nothing to sing, it
    is everyone else's."""
    from tute.search import dds
    if not dds.AVAILABLE:
        pytest.skip("numba is not installed: the pure solver is the only one")
    o, c, e = 0, 10, 20                       # the suits' first bits; 9 the as, 7 the king

    def value(mine: int, sang: int, perspective: int) -> int:
        hands = [mine, 1 << c | 1 << (c + 1) | 1 << (c + 2),
                 1 << e | 1 << (e + 1) | 1 << (e + 2)]
        found = dds.solve_arrays(hands, (0, 1, 2), tuple(s == perspective for s in range(3)),
                                 (1, 2, 0), 0, [], 0, 0, 3, False, False, perspective, 10,
                                 0, [o + 9], unit=(0, 1, 2), cantes=True,
                                 cabrero=((50, 0, 0), 0b111, 0b001, sang))
        assert found is not None
        return found[0][o + 9]

    forty = 1 << (o + 9) | 1 << (o + 7) | 1 << (o + 6)
    blank = 1 << (o + 9) | 1 << (o + 7) | 1 << (o + 5)
    assert value(forty, 0, 0) == -WIN + 50 + 11 + 4 + 3 + 10 + 40     # sings: his poroto
    assert value(forty, 0, 1) == WIN - (50 + 11 + 4 + 3 + 10 + 40)
    assert value(blank, 0b001, 0) == -WIN + 50 + 11 + 4 + 2 + 10      # had sung before
    assert value(blank, 0, 0) == WIN + 50 + 11 + 4 + 2 + 10
    assert value(blank, 0, 2) == -WIN - (50 + 11 + 4 + 2 + 10)


def test_the_kernel_stops_at_its_node_limit_and_keeps_its_table_sound() -> None:
    """A node limit holds in the compiled kernel too (a robot or the bench is never
    stuck on one solve): past it, SolverLimit; and what the stopped search had half
    done is not kept -- the same positions solved again, without a limit, give the pure
    solver's values."""
    from tute.search import dds
    from tute.search.solver import SolverLimit
    if not dds.AVAILABLE:
        pytest.skip("numba is not installed: the pure solver is the only one")
    for seed in range(12):
        g = _position("parejas", seed, 5, seed % 2 == 1)
        assert g is not None and _Search(g, g.acting).kernel_ok()
        with pytest.raises(SolverLimit):
            solve(g, max_nodes=30 + seed)
        assert solve(g).move_values == solve(g, kernel=False).move_values, seed
