"""The reasons of the analysis come from the position: a move forced by must-beat says
that rule; the forty before the twenty; the last trick's ten; a trick given away with a
three in it; a marriage kept or broken -- each found in hand-built or random positions
where it holds, and not where it does not."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest

from helpers import deal, run
from tute.analysis.reasons import (
    Reason,
    figure_thrown,
    figures_kept,
    forced,
    sings_after,
    trick_taker,
    why_best,
    why_not,
    winning,
    words,
)
from tute.core.actions import Action, Play, parse_action
from tute.core.cards import deck
from tute.core.game import Game
from tute.core.tables import strength
from tute.core.variants import PRESETS
from tute.i18n import card_name


def _positions(variant: str, games: int = 300) -> Iterator[tuple[Game, int]]:
    """Every decision point of random hands: (the game, the seat to decide)."""
    rng = random.Random(7)
    for _ in range(games):
        g = Game.new(variant, seed=rng.randrange(1 << 30))
        while not g.is_over:
            seats = [*g.seats_with_declarations(), g.to_act]
            for seat in {s for s in seats if s is not None}:
                yield g, seat
            for s in g.seats_with_declarations():
                if rng.random() < 0.5 and not g.is_over:
                    g.apply(s, rng.choice(_no_tute(g, s)))
            if g.is_over or g.to_act is None:
                break
            g.apply(g.to_act, rng.choice(_no_tute(g, g.to_act)))


def _no_tute(g: Game, seat: int) -> list[Action]:
    """The seat's legal actions but a tute (which would end the hand at once)."""
    return [a for a in g.legal_actions(seat) if str(a) != "tute"] or \
        list(g.legal_actions(seat))


def _first(variant: str, test: Callable[[Game, int], bool]) -> tuple[Game, int]:
    for g, seat in _positions(variant):
        if test(g, seat):
            return g.copy(), seat
    raise AssertionError("no such position in the random hands")


def test_a_move_forced_by_must_beat_says_so() -> None:
    g = deal("parejas", {0: "3c Ao Ro", 1: "Ac 2c Re Ce", 3: "5o"}, turn_up="5o", dealer=3)
    run(g, "0:3c")
    assert [str(a) for a in g.legal_actions(1)] == ["Ac"]
    reason = forced(g, 1, "Ac")
    assert reason.rule is not None and reason.rule.key == "must_beat"
    assert words(reason, "es") == "debes montar sobre el 3 de copas"


def test_the_last_card_is_forced_by_being_the_last() -> None:
    g, seat = _first("habanero", lambda g, s: s == g.to_act and len(g.hand(s)) == 1)
    assert forced(g, seat, g.hand(seat)[0].code).key == "reason_last_card"


def test_the_forty_before_the_twenty() -> None:
    def both(g: Game, s: int) -> bool:                # the forty open, a twenty held
        held = {c.code for c in g.hand(s)}
        trump = g.trump.value if g.trump else ""
        return "40" in {str(a) for a in g.legal_actions(s)} and any(
            {f"R{x}", f"C{x}"} <= held for x in "oceb" if x != trump)
    g, seat = _first("habanero", both)
    said = why_best(g, seat, "40")
    assert [r.key for r in said][:2] == ["reason_forty_first", "reason_sing"]
    assert "las cuarenta antes que las veinte" in words(said[0], "es")
    assert "40 puntos" in words(said[1], "es")
    only, single = _first("habanero", lambda g, s: "40" in {
        str(a) for a in g.legal_actions(s)} and not both(g, s))
    assert "reason_forty_first" not in [r.key for r in why_best(only, single, "40")]


def test_the_last_trick_and_its_ten() -> None:
    def closing_last(g: Game, s: int) -> bool:
        return s == g.to_act and len(g.hand(s)) == 1 and len(g.trick) == g.nplay - 1
    for g, seat in _positions("habanero"):
        if not closing_last(g, seat):
            continue
        card = g.hand(seat)[0].code
        h = g.copy()
        h.apply(seat, h.legal_actions(seat)[0])
        won = h.variant.side_of(h.view(seat).table.last_trick_winner or 0) == \
            h.variant.side_of(seat)
        keys = [r.key for r in why_best(g, seat, card)]
        assert ("reason_last_trick" in keys) == won, (keys, won)
        if won:
            said = words(next(r for r in why_best(g, seat, card)
                              if r.key == "reason_last_trick"), "es")
            assert said == "gana la última baza: 10 de últimas"
            return
    raise AssertionError("no last trick won in the random hands")


def test_a_three_given_to_the_other_side() -> None:
    g = deal("parejas", {0: "Ac Ro", 1: "3c 2o", 2: "4o", 3: "5o"}, turn_up="5o", dealer=3)
    run(g, "0:Ac")
    keys = [r.key for r in why_not(g, 1, "3c", "3c")]
    assert "reason_gives_points" not in keys          # 2 more to play: not known yet
    g = deal("habanero", {0: "Ac Ro Co 2o 3o 4o 5o 6o", 1: "3c 2c 7b 2e 3e 4e 5e 6e"},
             turn_up="7o", dealer=1)
    run(g, "0:Ac")
    said = why_not(g, 1, "3c", "2c")
    assert [r.key for r in said] == ["reason_gives_points"]
    assert words(said[0], "es") == "regala el 3 de copas (10 puntos) a los contrarios"


def test_a_marriage_broken_and_kept() -> None:
    g = deal("habanero", {0: "2c 2o 3o 4o 5o 6o 7o So", 1: "Rc Cc 7c 4e 5e 6e 7e Se"},
             turn_up="Ro", dealer=1)
    run(g, "0:2c")                       # the rey or caballo of copas would take it
    assert {"Rc", "4e"} <= {str(a) for a in g.legal_actions(1)}
    broken = why_not(g, 1, "Rc", "4e")
    assert "reason_breaks_twenty" in [r.key for r in broken]
    assert "separa el rey de copas y el caballo de copas: pierde las veinte" in words(
        next(r for r in broken if r.key == "reason_breaks_twenty"), "es")
    kept = why_best(g, 1, "4e")
    assert "reason_keeps_twenty" in [r.key for r in kept]
    assert "reason_keeps_twenty" not in [r.key for r in why_best(g, 1, "Rc")]


def test_guinote_s_marriage_is_rey_and_sota() -> None:
    """Guiñote's cante is the rey and the SOTA: its reasons name them (never "rey y
    caballo"), a caballo breaks no marriage, and a trump caballo is no forty."""
    g = deal("guinote", {0: "2c 2o 3o 4o 5o 6o", 1: "Rc Sc Cc 4e Ro Co"},
             turn_up="7o", dealer=1)
    run(g, "0:2c")
    broken = why_not(g, 1, "Sc", "4e")
    said = [words(r, "es") for r in broken]
    assert "separa el rey de copas y la sota de copas: pierde las veinte" in said, said
    assert not any("caballo" in w for w in said), said
    caballo = why_not(g, 1, "Cc", "4e") + why_not(g, 1, "Co", "4e")
    assert not {"reason_breaks_twenty", "reason_breaks_forty"} & {r.key for r in caballo}
    kept = [words(r, "es") for r in why_best(g, 1, "4e")]
    assert "guarda el rey de copas y la sota de copas para las veinte" in kept, kept
    for lang in ("pt", "it", "en"):
        text = words(next(r for r in broken if r.key == "reason_breaks_twenty"), lang)
        assert card_name("Sc", lang) in text and card_name("Cc", lang) not in text


def test_a_trump_spent_on_a_trick_the_seat_had_says_whose() -> None:
    """A trump spent where the seat's own card took the trick says it was the seat's
    ("tuya"), never "vuestra" (there is no partner in habanero)."""
    g = deal("habanero", {0: "2c 2o 3o 4o 5o 6o 7o So", 1: "Ac 7c 4e 5e 6e 7e Se Cb"},
             turn_up="Rb", dealer=1)
    run(g, "0:2c")
    wasted = [r for r in why_not(g, 1, "Cb", "Ac") if r.key.startswith("reason_wastes")]
    assert [r.key for r in wasted] == ["reason_wastes_trump_alone"], wasted
    assert "vuestra" not in words(wasted[0], "es") and "tuya" in words(wasted[0], "es")


def test_a_trump_on_a_trick_of_no_points_says_so_and_only_there() -> None:
    """A trump closing a plain trick that holds no points, where no trump was best,
    says so; a trick with points in it, or a best move that trumps too, does not."""
    g = deal("habanero", {0: "2c 2o 3o 4o 5o 6o 7o So", 1: "Ab 7b 4e 5e 6e 7e Se Cb"},
             turn_up="Rb", dealer=1)
    run(g, "0:2c")                                # bastos trumps; the 2 of copas led
    said = [r for r in why_not(g, 1, "7b", "4e")]
    assert "reason_trumps_nothing" in {r.key for r in said}, said
    text = words(next(r for r in said if r.key == "reason_trumps_nothing"), "es")
    assert text == "gasta el 7 de bastos, un triunfo, en una baza en la que no hay " \
        "puntos que ganar", text
    assert "reason_trumps_nothing" not in {r.key for r in why_not(g, 1, "7b", "Ab")}
    h = deal("habanero", {0: "Ac 2o 3o 4o 5o 6o 7o So", 1: "Ab 7b 4e 5e 6e 7e Se Cb"},
             turn_up="Rb", dealer=1)
    run(h, "0:Ac")                                # the ace led: 11 points to take
    assert "reason_trumps_nothing" not in {r.key for r in why_not(h, 1, "7b", "4e")}


def _tops(g: Game, s: int) -> tuple[str | None, bool]:
    """The seat's highest trump, and whether every higher trump is played."""
    trump, ranking = g.trump, g.variant.ranking
    mine = [c for c in g.hand(s) if c.suit == trump]
    if trump is None or not mine:
        return None, False
    top = max(mine, key=lambda c: strength(c.rank, ranking))
    played = {a.card for _w, a in g.view(s).table.history if isinstance(a, Play)}
    higher_out = any(c.suit == trump and c not in played and c not in mine
                     and strength(c.rank, ranking) > strength(top.rank, ranking)
                     for c in deck(g.variant.deck))
    return top.code, not higher_out


def test_the_highest_trump_kept_for_the_last_trick() -> None:
    """Late in the hand, the highest trump still in play: the move that keeps it says
    it wins the last trick for sure, playing it says it was spent; with a higher trump
    still out, neither."""
    for variant in ("parejas", "habanero"):
        def late(g: Game, s: int, master: bool) -> bool:
            top, is_master = _tops(g, s)
            legal = {str(a) for a in g.legal_actions(s)}
            return s == g.to_act and g.view(s).table.stock_left == 0 and \
                2 <= len(g.hand(s)) <= 4 and top in legal and len(legal) >= 2 and \
                is_master == master
        g, seat = _first(variant, lambda g, s: late(g, s, True))
        top, _ = _tops(g, seat)
        assert top is not None
        other = next(str(a) for a in g.legal_actions(seat) if str(a) != top)
        kept = next(r for r in why_best(g, seat, other) if r.key == "reason_keeps_master")
        assert words(kept, "es").startswith(f"guarda {card_name(top, 'es')}, el triunfo")
        assert "10 de últimas" in words(kept, "es")
        assert "reason_spends_master" in [r.key for r in why_not(g, seat, top, other)]
        assert "reason_keeps_master" not in [r.key for r in why_best(g, seat, top)]
        h, who = _first(variant, lambda g, s: late(g, s, False))
        low, _ = _tops(h, who)
        rest = next(str(a) for a in h.legal_actions(who) if str(a) != low)
        assert "reason_keeps_master" not in [r.key for r in why_best(h, who, rest)]


def test_the_partner_s_trick_loaded_is_said_so() -> None:
    """Parejas: the partner wins the trick and the seat closes it with a card of points
    that leaves it the partner's -- "carga la baza de tu compañero", not "gana la baza";
    the same card taking it over from the partner is said to waste the partner's."""
    from tute.analysis.reasons import winning

    def loaded(g: Game, s: int) -> bool:
        if s != g.to_act or len(g.trick) != 3:
            return False
        now = winning(g, s)
        return now is not None and now != s and now % 2 == s % 2 and any(
            isinstance(a, Play) and a.card.rank.value in ("A", "3")
            and winning(g, s, a.card) == now for a in g.legal_actions(s))
    g, seat = _first("parejas", loaded)
    now = winning(g, seat)
    card = next(a for a in g.legal_actions(seat) if isinstance(a, Play)
                and a.card.rank.value in ("A", "3") and winning(g, seat, a.card) == now)
    keys = [r.key for r in why_best(g, seat, str(card))]
    assert "reason_loads_partner" in keys and "reason_wins_trick" not in keys
    said = words(next(r for r in why_best(g, seat, str(card))
                      if r.key == "reason_loads_partner"), "es")
    assert said.startswith(f"carga la baza de tu compañero con {card_name(str(card), 'es')}")


def test_the_highest_trump_is_no_reason_where_it_could_not_be_played() -> None:
    """Seed 002's Q♥ under the A♥: where the seat must follow another suit, its highest
    trump could not go now -- keeping it is no choice, so it is no reason given."""
    for variant in ("parejas", "habanero"):
        def bound(g: Game, s: int) -> bool:
            top, is_master = _tops(g, s)
            legal = {str(a) for a in g.legal_actions(s)}
            return s == g.to_act and g.view(s).table.stock_left == 0 and is_master and \
                top is not None and top not in legal and len(legal) >= 2 and \
                len(g.hand(s)) >= 3
        g, seat = _first(variant, bound)
        for action in g.legal_actions(seat):
            assert "reason_keeps_master" not in [r.key for r in why_best(g, seat,
                                                                           str(action))]


@pytest.mark.parametrize("variant", sorted(PRESETS))
def test_every_legal_move_of_random_hands_has_reasons(variant: str) -> None:
    """Reasons never fail: for every legal action of every decision of random hands of
    every preset, why it is best and why not another (a king of a marriage that may not
    be played, since it must follow suit, once asked the trick its taker)."""
    seen = 0
    for g, seat in _positions(variant, games=12):
        legal = [str(a) for a in g.legal_actions(seat)]
        for text in legal:
            assert why_best(g, seat, text)
            why_not(g, seat, text, legal[0])
            seen += 1
    assert seen > 100


def _legal(g: Game, s: int) -> list[str]:
    return [str(a) for a in g.legal_actions(s)]


def _keys(reasons: list[Reason]) -> list[str]:
    return [r.key for r in reasons]


def test_win_the_trick_and_the_lead_then_sing() -> None:
    """Seed 002's "you cannot sing before you win a trick": the card that wins it says
    the cante it opens, the card that gives it away says what it cost -- and the rules
    let the seat sing after the first, not after the second."""
    def choice(g: Game, s: int) -> bool:
        if s != g.to_act or len(g.trick) != 1:
            return False
        opens = [c for c in _legal(g, s) if sings_after(g, s, c)]
        return bool(opens) and any(trick_taker(g, s, c) != s for c in _legal(g, s))
    g, seat = _first("habanero", choice)
    win = next(c for c in _legal(g, seat) if sings_after(g, seat, c))
    lose = next(c for c in _legal(g, seat) if trick_taker(g, seat, c) != seat)
    said = why_best(g, seat, win)
    assert _keys(said)[0].startswith("reason_win_then_")
    assert "gana la baza y la mano: así cantas las " in words(said[0], "es")
    after = g.copy()
    after.apply(seat, parse_action(win))
    cante = "40" if said[0].key.endswith("forty") else f"20{dict(said[0].params)['suit']}"
    assert cante in {str(a) for a in after.legal_actions(seat)}
    lost = why_not(g, seat, lose, win)
    assert any(k.startswith("reason_sing_needs_trick_") for k in _keys(lost))
    assert "reason_loses_trick" not in _keys(lost)          # said once, with the cante
    assert not any(k.startswith("reason_win_then_") for k in _keys(why_best(g, seat, lose)))


def test_the_last_draw_gives_the_loser_the_turn_up() -> None:
    def last_draw(g: Game, s: int) -> bool:
        legal = _legal(g, s)
        return s == g.to_act and g.view(s).table.stock_left == 1 and len(g.trick) == 1 \
            and any(trick_taker(g, s, c) == s for c in legal) \
            and any(trick_taker(g, s, c) != s for c in legal)
    g, seat = _first("habanero", last_draw)
    up = g.view(seat).table.turn_up
    assert up is not None
    lose = next(c for c in _legal(g, seat) if trick_taker(g, seat, c) != seat)
    win = next(c for c in _legal(g, seat) if trick_taker(g, seat, c) == seat)
    said = why_best(g, seat, lose)
    assert "reason_last_draw_turn_up" in _keys(said)
    assert dict(said[_keys(said).index("reason_last_draw_turn_up")].params)["card"] == up.code
    after = g.copy()
    after.apply(seat, parse_action(lose))
    assert up in after.hand(seat)                             # as said: the loser's
    assert "reason_missed_turn_up" in _keys(why_not(g, seat, win, lose))
    assert "reason_last_draw_turn_up" not in _keys(why_best(g, seat, win))


def test_trumps_drawn_are_counted() -> None:
    """Seed 004: count the ten trumps -- the number said is the trumps in the others'
    hands (the stock gone), counted here from the full deal."""
    def trump_lead(g: Game, s: int) -> bool:
        return s == g.to_act and not g.trick and g.view(s).table.stock_left == 0 and \
            g.trump is not None and any(parse_action(c).card.suit == g.trump  # type: ignore[union-attr]
                                        for c in _legal(g, s) if c[0] in "A23456789SCR")
    for variant in ("habanero", "parejas"):
        g, seat = _first(variant, trump_lead)
        card = next(c for c in _legal(g, seat) if c[0] in "A23456789SCR"
                    and c[1] == g.trump.value)                      # type: ignore[union-attr]
        others = sum(1 for s in range(g.players) if s != seat
                     for c in g.hand(s) if c.suit == g.trump)
        said = [r for r in why_best(g, seat, card) if r.key == "reason_draw_trumps"]
        if others:
            assert said and dict(said[0].params)["left"] == others
            assert f"quedan {others} en manos de los demás" in words(said[0], "es")
        else:
            assert not said                                  # none out: nothing to draw


def test_lead_threes_and_sotas_keep_the_figures() -> None:
    """Seed 004: lead your threes and sotas first, keep kings and caballos for the
    cantes -- said where a figure may still sing, not where none can."""
    def lead(g: Game, s: int) -> bool:
        return s == g.to_act and not g.trick and g.view(s).table.stock_left > 0 and \
            any(c[0] in "3S" and c[1] != g.trump.value for c in _legal(g, s)  # type: ignore[union-attr]
                if len(c) == 2) and figures_kept(g, s)
    g, seat = _first("habanero", lead)
    card = next(c for c in _legal(g, seat) if len(c) == 2 and c[0] in "3S"
                and c[1] != g.trump.value)                          # type: ignore[union-attr]
    said = why_best(g, seat, card)
    assert "reason_leads_keeps_figures" in _keys(said)
    held = [c for c in g.hand(seat) if c.rank.value in "RC"]
    assert held                                                # a figure to keep
    def bare(g: Game, s: int) -> bool:
        return s == g.to_act and not g.trick and not any(
            c.rank.value in "RC" for c in g.hand(s)) and any(
            c[0] in "3S" for c in _legal(g, s) if len(c) == 2)
    g2, seat2 = _first("habanero", bare)
    card2 = next(c for c in _legal(g2, seat2) if len(c) == 2 and c[0] in "3S")
    assert "reason_leads_keeps_figures" not in _keys(why_best(g2, seat2, card2))


def test_a_lone_figure_thrown_while_its_pair_may_come() -> None:
    def lone(g: Game, s: int) -> bool:
        return s == g.to_act and g.view(s).table.stock_left > 2 and any(
            figure_thrown(g, s, a) is not None for a in g.legal_actions(s)) and any(
            figure_thrown(g, s, a) is None for a in g.legal_actions(s))
    g, seat = _first("habanero", lone)
    thrown = next(str(a) for a in g.legal_actions(seat) if figure_thrown(g, seat, a))
    other = next(str(a) for a in g.legal_actions(seat) if figure_thrown(g, seat, a) is None
                 and str(a) not in ("40",) and not str(a).startswith("20"))
    card = parse_action(thrown)
    assert isinstance(card, Play) and card.card.rank.value in "RC"
    pair = "C" if card.card.rank.value == "R" else "R"
    assert f"{pair}{card.card.suit.value}" not in {c.code for c in g.hand(seat)}
    assert "reason_throws_figure" in _keys(why_not(g, seat, thrown, other))


def test_a_cante_says_it_shows_the_two_cards() -> None:
    g, seat = _first("habanero", lambda g, s: "40" in _legal(g, s))
    assert _keys(why_best(g, seat, "40"))[-1] == "reason_cante_tells"


def test_the_surest_void_is_named() -> None:
    """Seed 002, trick 17: every other espada is seen and Ada holds trumps that were
    seen (the 7 of bastos taken, the rey of oros...): the 3 of espadas led into her is
    trumped -- the void known from the cards seen, not only from a suit not followed."""
    from pathlib import Path

    from tute.analysis.reasons import led_into_void
    from tute.analysis.walk import steps
    from tute.core.records import parse_record

    record = parse_record((Path(__file__).parents[2] / "examples" / "seed002.tute")
                          .read_text(encoding="utf-8"))
    g = next(s.game for s in steps(record, 0) if sum(s.game.tricks_won) == 16)
    said = {str(a): led_into_void(g, 0, a) for a in g.legal_actions(0)
            if isinstance(a, Play)}
    assert said["3e"] is not None and "fallará" in words(said["3e"], "es")
    assert all(r is None for card, r in said.items() if card != "3e")


def test_no_master_trump_reason_where_the_others_hold_no_trump() -> None:
    """Seed 002, trick 18: Ada holds no trump, so the caballo of bastos wins the last
    trick as surely as the ace -- keeping the ace is not "el único que gana seguro la
    última"; and never "guarda X" beside "igual que X" in one line."""
    from pathlib import Path

    from tute.analysis import Settings, analyze
    from tute.analysis.reasons import kept_cards
    from tute.analysis.walk import steps
    from tute.core.records import parse_record

    record = parse_record((Path(__file__).parents[2] / "examples" / "seed002.tute")
                          .read_text(encoding="utf-8"))
    g = next(s.game for s in steps(record, 0) if sum(s.game.tricks_won) == 17)
    assert {str(a) for a in g.legal_actions(0)} == {"Cb", "Ab"}
    for card in ("Cb", "Ab"):
        keys = {r.key for r in why_best(g, 0, card)} | {
            r.key for r in why_not(g, 0, card, "Ab" if card == "Cb" else "Cb")}
        assert not {"reason_keeps_master", "reason_spends_master"} & keys, (card, keys)
    for d in analyze(record, 0, Settings(min_samples=4, max_samples=8, seed=2)):
        for r in d.why:
            assert not kept_cards(r) & set(d.equal), (d.trick, r, d.equal)


@pytest.mark.parametrize("variant", ["habanero", "parejas", "guinote"])
def test_plain_plays_say_what_they_do_and_only_where_true(variant: str) -> None:
    """The plain plays' reasons, checked in random positions against the position
    itself: a card of no points led (or thrown while the trick is open) where a card of
    points could have gone; a trick taken with the lowest card that takes it, a higher
    one held that would take it too."""
    from tute.analysis.reasons import _points

    seen: set[str] = set()
    for g, seat in _positions(variant, games=40):
        if seat != g.to_act:
            continue
        cards = [a for a in g.legal_actions(seat) if isinstance(a, Play)]
        for a in cards:
            keys = {r.key for r in why_best(g, seat, str(a))}
            plain = keys & {"reason_cheap_lead", "reason_plays_low", "reason_wins_low",
                            "reason_leads_master", "reason_heads_low", "reason_gives_least",
                            "reason_partner_takes"}
            seen |= plain
            if "reason_partner_takes" in plain:     # whatever is played, the partner's
                takers = {trick_taker(g, seat, str(c)) for c in cards}
                assert len(takers) == 1
                taker = takers.pop()
                assert taker is not None and taker != seat and \
                    g.variant.side_of(taker) == g.variant.side_of(seat)
            others = [c for c in cards if c != a]
            if "reason_heads_low" in plain:         # winning it so far, others to play
                assert g.trick and trick_taker(g, seat, str(a)) is None
                assert winning(g, seat, a.card) == seat
                ahead = [c for c in others if winning(g, seat, c.card) == seat]
                assert ahead and not any(
                    _points(g, str(c)) <= _points(g, str(a)) and (
                        (c.card.suit == a.card.suit and
                         strength(c.card.rank, g.variant.ranking) <
                         strength(a.card.rank, g.variant.ranking)) or
                        a.card.suit == g.trump != c.card.suit) for c in ahead), str(a)
            if "reason_gives_least" in plain:       # an opponent winning, none can win
                now = winning(g, seat)
                assert now is not None and \
                    g.variant.side_of(now) != g.variant.side_of(seat)
                assert all(winning(g, seat, c.card) != seat for c in cards)
                assert all(_points(g, str(c)) >= _points(g, str(a)) > 0 for c in cards)
            if "reason_leads_master" in plain:      # asked of the whole deal, not the view
                assert not g.trick
                others_hold = {c for o in range(g.players) if o != seat for c in g.hand(o)}
                played = {x.card for _s, x in g.view(seat).table.history
                          if isinstance(x, Play)}
                to_come = set(deck(g.variant.deck)) - played - set(g.hand(seat))
                assert not any(c.suit == a.card.suit and strength(
                    c.rank, g.variant.ranking) > strength(a.card.rank, g.variant.ranking)
                    for c in to_come | others_hold), (str(a), g.trick)
            if plain & {"reason_cheap_lead", "reason_plays_low"}:
                assert _points(g, str(a)) == 0
                assert any(_points(g, str(c)) > 0 for c in others)
                assert bool(g.trick) == ("reason_plays_low" in plain)
                assert trick_taker(g, seat, str(a)) is None
            if "reason_wins_low" in plain:
                assert trick_taker(g, seat, str(a)) == seat
                assert any(trick_taker(g, seat, str(c)) == seat and (
                    _points(g, str(c)) > _points(g, str(a)) or (
                        c.card.suit == a.card.suit and
                        strength(c.card.rank, g.variant.ranking) >
                        strength(a.card.rank, g.variant.ranking)) or (
                        c.card.suit == g.trump != a.card.suit)) for c in others)
                assert not any(    # the lowest that takes it: none lower takes it too
                    trick_taker(g, seat, str(c)) == seat and
                    _points(g, str(c)) <= _points(g, str(a)) and (
                        (c.card.suit == a.card.suit and
                         strength(c.card.rank, g.variant.ranking) <
                         strength(a.card.rank, g.variant.ranking)) or
                        a.card.suit == g.trump != c.card.suit) for c in others), str(a)
    assert {"reason_cheap_lead", "reason_wins_low", "reason_leads_master",
            "reason_gives_least"} <= seen, seen
    if Game.new(variant, seed=1).nplay > 2:     # two players: the second closes the trick
        assert "reason_heads_low" in seen, seen
    if Game.new(variant, seed=1).variant.partnerships:
        assert "reason_partner_takes" in seen, seen
