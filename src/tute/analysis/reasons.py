"""Why a move is best, or why another was: reasons derived from the position.

Each reason is read off the position the seat saw -- which cards, which obligation,
which cante is at stake, who takes the trick -- never a fixed text per grade: a forced
move says the rule that forced it ("debes montar sobre el 3 de copas"), a cante says
which and what it is worth, the forty before the twenty, the swap names the card it
takes, the last trick's ten, a trick won or given away with the points in it, a marriage
broken, trumps drawn.  A reason is a catalog key and its parameters, put in words in the
reader's language by :func:`words`.
"""

from __future__ import annotations

from dataclasses import dataclass

from tute.bots.knowledge import played, unseen
from tute.bots.sampler import exclusions
from tute.core.actions import Action, Play, Swap, parse_action
from tute.core.cards import Card, Rank, Suit, deck
from tute.core.errors import TuteError
from tute.core.game import Game
from tute.core.tables import (
    marriage_ranks,
    plain_figure,
    rank_points,
    ranking,
    strength,
    trick_winner,
)
from tute.core.views import PlayerView
from tute.i18n import render


@dataclass(frozen=True, slots=True)
class Reason:
    key: str
    params: tuple[tuple[str, object], ...] = ()
    rule: TuteError | None = None           # a forced move: the rule that forces it


# reasons that say what the search found a move worth, not what in the position makes it
BY_VALUE = frozenset({"reason_value", "reason_exact_points", "reason_mean_points",
                      "reason_exact_wins", "reason_mean_win", "reason_mean_win_points",
                      "reason_ahead_of", "reason_ahead_of_win"})


# reasons that a card is kept: false beside "as good as playing that card"
KEEPS = frozenset({"reason_keeps_master", "reason_keeps_forty", "reason_keeps_twenty"})


def kept_cards(r: Reason) -> set[str]:
    """The cards a reason says are kept (none for other reasons)."""
    if r.key not in KEEPS:
        return set()
    return {str(v) for k, v in r.params if k.startswith("card")}


def specific(reasons: tuple[Reason, ...]) -> bool:
    """Whether ``reasons`` name something of the position (not only a value found)."""
    return any(r.key not in BY_VALUE for r in reasons)


def words(r: Reason, lang: str = "es") -> str:
    params = dict(r.params)
    if r.rule is not None:
        params["rule"] = r.rule.localized(lang)
    return render(r.key, params, lang)


def _reason(key: str, **params: object) -> Reason:
    return Reason(key, tuple(params.items()))


def _points(g: Game, code: str) -> int:
    card = parse_action(code)
    assert isinstance(card, Play)
    return rank_points(card.card.rank, g.variant.ranking)


def _after(g: Game, seat: int, text: str) -> Game:
    h = g.copy()
    h.apply(seat, parse_action(text))
    return h


def trick_taker(g: Game, seat: int, text: str) -> int | None:
    """Who takes the trick if ``seat`` plays ``text`` now -- known when it closes it."""
    if len(g.trick) != g.nplay - 1:
        return None
    h = _after(g, seat, text)
    return h.view(seat).table.last_trick_winner


def forced(g: Game, seat: int, played: str) -> Reason:
    """Why the only legal move was the only one: the rule another card breaks (a card
    of the suit led first: "debes montar sobre el 3 de copas")."""
    led = g.trick[0].suit if g.trick else None
    for card in sorted(g.hand(seat), key=lambda c: c.suit != led):
        if card.code == played:
            continue
        try:
            _after(g, seat, card.code)
        except TuteError as e:
            return Reason("reason_forced", rule=e)
    return _reason("reason_last_card")


def by_value(win: float, points: float, exact: bool) -> Reason:
    """The reason no rule of play names: what the search found it worth, in the units a
    player reads -- the winning chance where it moved (``win``: percentage points), else
    the points of margin."""
    if round(win) >= 1:
        if exact:
            return _reason("reason_exact_wins")
        if round(points) >= 1:
            return _reason("reason_mean_win_points", win=round(win), points=round(points))
        return _reason("reason_mean_win", win=round(win))
    return _reason("reason_exact_points" if exact else "reason_mean_points",
                   points=round(points))


def ahead_of(card: str, win: float, points: float) -> Reason:
    """The best move, where no rule of play names it: by how much it beats the next
    (the winning chance where it moved, else the points)."""
    if round(win) >= 1:
        return _reason("reason_ahead_of_win", card=card, win=round(win))
    return _reason("reason_ahead_of", card=card, points=round(points))


def missed_cante(g: Game, seat: int, cante: str, card: str) -> Reason:
    """A card played without the cante that could have come before it."""
    if cante == "40":
        return _reason("reason_missed_forty_card", card=card)
    return _reason("reason_missed_twenty_card", suit=cante[2:], card=card)


def why_best(g: Game, seat: int, best: str) -> list[Reason]:
    """What the best move does, from the position."""
    v = g.variant
    legal = {str(a) for a in g.view(seat).legal}
    out: list[Reason] = []
    if best == "tute":
        return [_reason("reason_tute")]
    if best == "40" or best.startswith("20"):
        h = _after(g, seat, best)
        sung = h.view(seat).table.cantes_shown[-1]
        if best == "40" and (any(a.startswith("20") for a in legal) or any(
                found is not None and not found[0]
                for found in (_marriage(g, seat, f"R{c.suit.value}") for c in g.hand(seat)
                              if c.rank == marriage_ranks(v.ranking)[0]))):
            out.append(_reason("reason_forty_first"))     # a twenty waits its turn
        out.append(_reason("reason_sing", points=sung.points, suit=sung.suit.value))
        out.append(_reason("reason_cante_tells"))         # both cards are shown
        return out
    if best == "swap":
        up = g.view(seat).table.turn_up
        return [_reason("reason_swap", card=up.code if up else "")]
    action = parse_action(best)
    if not isinstance(action, Play):
        return [_reason("reason_value")]
    taker = trick_taker(g, seat, best)
    last = len(g.hand(seat)) == 1 and g.view(seat).table.stock_left == 0
    side = v.side_of(seat)
    then = sings_after(g, seat, best) if taker == seat else None
    if then is not None:
        out.append(_cante_reason("reason_win_then", then))
    last_draw = _turn_up_taken(g, seat, best)
    if last_draw is not None and taker is not None and v.side_of(taker) != side:
        out.append(_reason("reason_last_draw_turn_up", card=last_draw))
    if taker is not None and v.side_of(taker) == side:
        points = sum(_points(g, c.code) for c in g.trick) + _points(g, best)
        if last and v.last_trick_bonus:
            out.append(_reason("reason_last_trick", bonus=v.last_trick_bonus))
        elif taker != seat and _points(g, best) >= 10:     # the partner's, loaded
            out.append(_reason("reason_loads_partner", card=best, points=points))
        elif taker == seat and points > 0:          # a trick of no points: no praise
            out.append(_reason("reason_wins_trick", card=best, points=points))
    if not g.trick and g.trump is not None and action.card.suit == g.trump \
            and g.view(seat).table.stock_left == 0:
        left = trumps_out(g, seat)
        if left:
            out.append(_reason("reason_draw_trumps", left=left))
    if not g.trick and action.card.rank in (Rank.TRES, plain_figure(v.ranking)) and \
            action.card.suit != g.trump and figures_kept(g, seat):
        out.append(_reason("reason_leads_keeps_figures" + (
            "_guinote" if v.ranking == "guinote" else ""), card=best))
    kept = _marriage_kept(g, seat, best)
    if kept:
        out.append(kept)
    master = _master_trump(g, seat)
    if master is not None and master != best and master in legal and v.last_trick_bonus:
        out.append(_reason("reason_keeps_master", card=master, bonus=v.last_trick_bonus))
    if taker is not None and v.side_of(taker) != side and _points(g, best) == 0:
        out.append(_reason("reason_cheap_loss", card=best))
    if all(r.key in KEEPS for r in out):     # a card kept may be as good as this one
        plain = _plain_play(g, seat, action, taker)
        if plain is not None:
            out.append(plain)
    return out or [_reason("reason_value")]


def _plain_play(g: Game, seat: int, action: Play, taker: int | None) -> Reason | None:
    """What a plain card does where nothing more is at stake: a card led that no card
    of its suit left in other hands beats; led or thrown without points while cards of
    points could have gone; a trick taken, or headed while others are still to play,
    with the lowest card that does it (a trump kept); the least worth given to a trick
    an opponent is winning; the partner's trick whatever the seat plays."""
    cards = [a.card for a in g.legal_actions(seat) if isinstance(a, Play)]
    card = action.card
    points = _points(g, card.code)
    side = g.variant.side_of(seat)
    # who takes the trick with each card (where the seat closes it), else who heads it
    takers = {c: trick_taker(g, seat, c.code) for c in cards}
    heads = {c: winning(g, seat, c) for c in cards} if g.trick else {}
    if taker == seat:
        higher = [c for c in cards if c != card and takers[c] == seat
                  and (_points(g, c.code) > points or _beats(g, c, card))]
        lower = [c for c in cards if c != card and takers[c] == seat
                 and _points(g, c.code) <= points and _beats(g, card, c)]
        return _reason("reason_wins_low", card=card.code) if higher and not lower \
            else None
    if taker is not None and taker != seat and g.variant.side_of(taker) == side and \
            all(takers[c] == taker for c in cards):
        return _reason("reason_partner_takes")
    if not g.trick and master_of_suit(g, seat, card):
        return _reason("reason_leads_master", card=card.code)
    if g.trick and taker is None:                # others still to play
        ahead = [c for c in cards if heads[c] == seat]
        if card in ahead and not any(
                _points(g, c.code) <= points and _beats(g, card, c) for c in ahead) and any(
                c != card and (_points(g, c.code) > points or _beats(g, c, card))
                for c in ahead):
            return _reason("reason_heads_low", card=card.code)
    now = winning(g, seat)
    if points > 0 and now is not None and g.variant.side_of(now) != side \
            and not any(heads.get(c) == seat for c in cards) \
            and points == min(_points(g, c.code) for c in cards) \
            and any(_points(g, c.code) > points for c in cards):
        return _reason("reason_gives_least", card=card.code)
    if points > 0 or not any(_points(g, c.code) > 0 for c in cards):
        return None
    if not g.trick:
        return _reason("reason_cheap_lead", card=card.code)
    if taker is None:                            # others still to play
        return _reason("reason_plays_low", card=card.code)
    return None


def _beats(g: Game, higher: Card, card: Card) -> bool:
    """Whether ``higher`` is the stronger card: higher in the same suit, or a trump
    where ``card`` is not."""
    if higher.suit == card.suit:
        ranking = g.variant.ranking
        return strength(higher.rank, ranking) > strength(card.rank, ranking)
    return g.trump is not None and higher.suit == g.trump


def master_of_suit(g: Game, seat: int, card: Card) -> bool:
    """Whether no card of ``card``'s suit in other hands or the stock beats it, from
    what the seat has seen: every higher card of the suit played or the seat's own (a
    dead turn-up counts as still to come: what is not sure is not said)."""
    view, ranking = g.view(seat), g.variant.ranking
    gone = played(view) | set(view.hand)
    return not any(c.suit == card.suit and c not in gone and
                   strength(c.rank, ranking) > strength(card.rank, ranking)
                   for c in deck(g.variant.deck))


def why_not(g: Game, seat: int, played: str, best: str) -> list[Reason]:
    """What the played move gives up that the best one does not."""
    v = g.variant
    out: list[Reason] = []
    side = v.side_of(seat)
    if best == "tute":
        out.append(_reason("reason_missed_tute"))
    elif best == "40" or best.startswith("20"):
        out.append(_reason("reason_missed_cante", best=best))
    if best == "swap":
        out.append(_reason("reason_missed_swap"))
    action = parse_action(played)
    if isinstance(action, Play):
        taker = trick_taker(g, seat, played)
        if taker is not None and v.side_of(taker) != side and _points(g, played) >= 10:
            out.append(_reason("reason_gives_points", card=played,
                               points=_points(g, played)))
        broken = _marriage_broken(g, seat, played)
        if broken:
            out.append(broken)
        master = _master_trump(g, seat)
        if master == played and best != played and v.last_trick_bonus:
            out.append(_reason("reason_spends_master", card=played,
                               bonus=v.last_trick_bonus))
        for found in (_trump_wasted(g, seat, action, best) or
                      _trump_on_nothing(g, seat, action, best),
                      _partner_overtaken(g, seat, action, best),
                      led_into_void(g, seat, action)):
            if found is not None:
                out.append(found)
        best_taker = trick_taker(g, seat, best) if isinstance(parse_action(best), Play) \
            else None
        then = sings_after(g, seat, best) if best_taker == seat else None
        if then is not None and taker != seat and sings_after(g, seat, played) is None:
            out.append(_cante_reason("reason_sing_needs_trick", then, card=best))
        missed = _turn_up_taken(g, seat, best)
        if missed is not None and best_taker is not None and \
                v.side_of(best_taker) != side and taker is not None and \
                v.side_of(taker) == side:
            out.append(_reason("reason_missed_turn_up", card=missed))
        thrown = figure_thrown(g, seat, action)
        if thrown is not None and figure_thrown(g, seat, parse_action(best)) is None:
            out.append(thrown)
        last = len(g.hand(seat)) == 1 and g.view(seat).table.stock_left == 0
        if then is None and best_taker is not None and v.side_of(best_taker) == side and (
                taker is None or v.side_of(taker) != side):
            out.append(_reason("reason_loses_last" if last and v.last_trick_bonus
                               else "reason_loses_trick", card=best))
    if isinstance(action, Swap):
        out.append(_reason("reason_value"))
    return out


def _pair(g: Game, suit: Suit) -> tuple[str, str]:
    """The codes of ``suit``'s marriage in the game's ranking: the Rey, then the
    Caballo (the Sota in Guiñote)."""
    high, low = marriage_ranks(g.variant.ranking)
    return Card(suit, high).code, Card(suit, low).code


def _marriage(g: Game, seat: int, card_text: str) -> tuple[bool, Suit] | None:
    """Whether ``card_text`` is one of a marriage the seat still holds (both cards, not
    sung): (of trumps, suit)."""
    action = parse_action(card_text)
    if not isinstance(action, Play) or \
            action.card.rank not in marriage_ranks(g.variant.ranking):
        return None
    suit = action.card.suit
    hand = {c.code for c in g.hand(seat)}
    if not set(_pair(g, suit)) <= hand:
        return None
    sung = {c.suit for c in g.view(seat).table.cantes_shown}
    if suit in sung:
        return None
    return g.trump == suit, suit


def _marriage_kept(g: Game, seat: int, best: str) -> Reason | None:
    """A marriage the best move keeps, closing a trick that its king or knight would
    have won (leading, or where they would not win, there is no temptation to name)."""
    if not g.trick:
        return None
    legal = {str(a) for a in g.view(seat).legal}
    side = g.variant.side_of(seat)
    for card in g.hand(seat):
        if card.code not in legal or card.code == best:
            continue
        found = _marriage(g, seat, card.code)
        taker = trick_taker(g, seat, card.code) if found else None
        tempting = taker is not None and g.variant.side_of(taker) == side  # it would win
        if found and tempting and _marriage(g, seat, best) is None:
            king, low = _pair(g, found[1])
            return _reason("reason_keeps_forty" if found[0] else "reason_keeps_twenty",
                           card=king, card2=low)
    return None


def _marriage_broken(g: Game, seat: int, played: str) -> Reason | None:
    found = _marriage(g, seat, played)
    if found is None:
        return None
    king, low = _pair(g, found[1])
    return _reason("reason_breaks_forty" if found[0] else "reason_breaks_twenty",
                   card=king, card2=low)


def _master_trump(g: Game, seat: int) -> str | None:
    """The highest trump still in play when the seat holds it, late in the hand (the
    stock gone; in a game without one, the last four tricks): kept to the end, it wins
    the last trick whatever the others hold -- the only card of the seat that surely
    does (where the others hold no trump, any trump does: then only a lone trump)."""
    t = g.view(seat).table
    hand = g.hand(seat)
    trump = g.trump
    if trump is None or t.stock_left > 0 or len(hand) < 2 or (
            g.variant.stock_size == 0 and len(hand) > 4):
        return None
    ranking = g.variant.ranking
    trumps = [c for c in hand if c.suit == trump]
    if not trumps:
        return None
    top = max(trumps, key=lambda c: strength(c.rank, ranking))
    if not master_of_suit(g, seat, top) or (
            len(trumps) > 1 and not _others_may_trump(g, seat)):
        return None      # a higher one is out; or the others hold no trump, so that
    return top.code      # any of the seat's trumps wins the last as surely


def _others_may_trump(g: Game, seat: int) -> bool:
    """Whether a seat of the other side may hold a trump."""
    view, v = g.view(seat), g.variant
    excluded = exclusions(view)
    return any(_may_hold(view, excluded, other, g.trump) for other in range(g.players)
               if other != seat and v.side_of(other) != v.side_of(seat))


def _may_hold(view: PlayerView, excluded: dict[int, set[Card]], other: int,
              suit: Suit | None) -> bool:
    """Whether seat ``other`` may hold a card of ``suit``: one seen in its hand, or one
    unseen that it is not known to lack."""
    return any(c.suit == suit for c in view.known_cards[other]) or any(
        c.suit == suit and c not in excluded.get(other, set()) for c in unseen(view))


def winning(g: Game, seat: int, card: Card | None = None) -> int | None:
    """The seat winning the trick in progress (with ``card`` of ``seat`` added)."""
    trick = [(s, c) for s, c in g.view(seat).table.trick]
    if card is not None:
        trick.append((seat, card))
    if not trick:
        return None
    rk = ranking(g.variant.ranking)
    trump = g.trump.index if g.trump is not None else -1
    return trick_winner([(s, rk.bit_of_index[c.index]) for s, c in trick], trump)[0]


def _trump_wasted(g: Game, seat: int, action: Play, best: str) -> Reason | None:
    """A trump played on a trick the seat's side had without it: the best move, not a
    trump, keeps the trick the side's (the seat closing it, or its partner winning)."""
    other = parse_action(best)
    if g.trump is None or action.card.suit != g.trump or not isinstance(other, Play) \
            or other.card.suit == g.trump or not g.trick:
        return None
    side = g.variant.side_of(seat)
    keeps = winning(g, seat, other.card)
    if keeps is None or g.variant.side_of(keeps) != side:
        return None
    if len(g.trick) != g.nplay - 1 and keeps == seat:
        return None                      # the others still to play: not sure
    if keeps == seat:                    # the seat's own card was enough
        return _reason("reason_wastes_trump_alone", card=action.card.code)
    return _reason("reason_wastes_trump", card=action.card.code)


def _trump_on_nothing(g: Game, seat: int, action: Play, best: str) -> Reason | None:
    """A trump played on a plain suit's trick that holds no points, the seat closing
    it, where the best move is no trump."""
    other = parse_action(best)
    if g.trump is None or action.card.suit != g.trump or not isinstance(other, Play) \
            or other.card.suit == g.trump or len(g.trick) != g.nplay - 1 \
            or g.trick[0].suit == g.trump \
            or any(_points(g, c.code) for c in g.trick):
        return None
    return _reason("reason_trumps_nothing", card=action.card.code)


def _partner_overtaken(g: Game, seat: int, action: Play, best: str) -> Reason | None:
    """The partner's trick taken over: the partner wins it now, the played card beats
    the partner's where the best move leaves it -- and the seat closes the trick."""
    v = g.variant
    other = parse_action(best)
    if not v.partnerships or len(g.trick) != g.nplay - 1 or not isinstance(other, Play):
        return None
    now = winning(g, seat)
    if now is None or now == seat or v.side_of(now) != v.side_of(seat):
        return None
    if winning(g, seat, action.card) != seat or winning(g, seat, other.card) != now:
        return None
    return _reason("reason_overtakes_partner", card=action.card.code)


def led_into_void(g: Game, seat: int, action: Play) -> Reason | None:
    """A card of points led in a suit an opponent is known not to hold (it did not
    follow it when it had to, or every other card of the suit is seen), an opponent who
    may hold trumps: it will be trumped."""
    if g.trick or g.trump is None or action.card.suit == g.trump or \
            _points(g, action.card.code) < 10:
        return None
    view = g.view(seat)
    excluded = exclusions(view)
    v = g.variant
    for other in range(g.players):
        if other == seat or v.side_of(other) == v.side_of(seat) or \
                view.table.hand_counts[other] == 0:
            continue
        # void: every card of the suit it could hold is seen, or it failed to follow
        if not _may_hold(view, excluded, other, action.card.suit) and \
                _may_hold(view, excluded, other, g.trump):
            return _reason("reason_led_into_void", card=action.card.code,
                           suit=action.card.suit.value)
    return None


# ---------------------------------------------------------------- a teacher's advice
# (seed 002's words and seed 004's "Consigli e strategie"), each checked in the position


def _cante_reason(key: str, cante: str, **params: object) -> Reason:
    """``key``'s forty or twenty form (``reason_win_then_forty``...)."""
    if cante == "40":
        return _reason(f"{key}_forty", **params)
    return _reason(f"{key}_twenty", suit=cante[2:], **params)


def sings_after(g: Game, seat: int, card: str) -> str | None:
    """The cante the seat may declare once ``card`` closes the trick (the forty before
    a twenty), or None: asked of the rules, not guessed."""
    if len(g.trick) != g.nplay - 1 or not isinstance(parse_action(card), Play):
        return None
    h = _after(g, seat, card)
    if h.is_over:
        return None
    cantes = sorted(str(a) for a in h.legal_actions(seat)
                    if str(a) == "40" or str(a).startswith("20"))
    return cantes[-1] if cantes else None           # "40" sorts after "20x"


def _turn_up_taken(g: Game, seat: int, card: str) -> str | None:
    """The last draw (two players): the turn-up that the seat takes when ``card``
    closes the last trick of the stock and loses it."""
    t = g.view(seat).table
    if g.nplay != 2 or t.stock_left != 1 or t.turn_up is None or len(g.trick) != 1 \
            or not isinstance(parse_action(card), Play):
        return None
    h = _after(g, seat, card)
    return t.turn_up.code if t.turn_up in h.hand(seat) else None


def trumps_out(g: Game, seat: int) -> int:
    """The trumps still in the others' hands or the stock (count the ten trumps): not
    played, not the seat's, not a dead turn-up."""
    if g.trump is None:
        return 0
    view = g.view(seat)
    gone = played(view) | set(view.hand)
    if g.variant.trump == "dead_turn_up" and view.turn_up is not None:
        gone.add(view.turn_up)
    return sum(1 for c in deck(g.variant.deck) if c.suit == g.trump and c not in gone)


def _cante_possible(g: Game, seat: int) -> bool:
    """Whether a cante may still come for the seat in this hand (the variant lets it
    sing, and the stock has not run out where cantes end with it)."""
    v = g.variant
    return v.sing_who != "declarer" \
        and not (v.sing_while_stock_only and g.view(seat).table.stock_left == 0)


def _partner_may_come(g: Game, seat: int, card: Card) -> bool:
    """Whether the other card of ``card``'s marriage is not held by the seat and may
    still reach it: not seen, or the live turn-up (the stock not yet drawn out)."""
    king, low = _pair(g, card.suit)
    other = next(c for c in deck(g.variant.deck)
                 if c.code == (low if card.code == king else king))
    t = g.view(seat).table
    return t.stock_left > 0 and (other in unseen(g.view(seat)) or other == t.turn_up)


def _sung(g: Game, seat: int, suit: object) -> bool:
    return suit in {c.suit for c in g.view(seat).table.cantes_shown}


def figures_kept(g: Game, seat: int) -> bool:
    """Whether the seat holds a king or caballo that may still make a cante (its pair
    held, or still to come from the stock) -- seed 004: lead threes and sotas first,
    keep the figures for the cantes."""
    if not _cante_possible(g, seat):
        return False
    held = set(g.hand(seat))
    for c in held:
        if c.rank in marriage_ranks(g.variant.ranking) and not _sung(g, seat, c.suit):
            pair = _marriage(g, seat, c.code) is not None
            if pair or _partner_may_come(g, seat, c):
                return True
    return False


def figure_thrown(g: Game, seat: int, action: Action) -> Reason | None:
    """A lone king or caballo played while its pair may still come from the stock: the
    cante it could have made is given up."""
    if not isinstance(action, Play) or \
            action.card.rank not in marriage_ranks(g.variant.ranking) or \
            not _cante_possible(g, seat) or _sung(g, seat, action.card.suit) or \
            _marriage(g, seat, action.card.code) is not None or \
            not _partner_may_come(g, seat, action.card):
        return None
    return _reason("reason_throws_figure", card=action.card.code)
