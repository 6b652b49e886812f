"""Why an action is refused: the rule, in words a player understands (internal).

Called only on the error path, so it may be slow and thorough.  It reads the engine's
state and returns the :class:`~tute.core.errors.TuteError` to raise; it never changes state.
"""

from __future__ import annotations

from tute.core.actions import (
    Action,
    Bid,
    DeclareTute,
    Manilla,
    NameTrump,
    Pass,
    Play,
    SingForty,
    SingTwenty,
    Swap,
)
from tute.core.declarations import DeclarationRules
from tute.core.errors import IllegalActionError, OutOfTurnError, TuteError, WrongPhaseError
from tute.core.tables import (
    ABOVE,
    AUCTION,
    OVER,
    STOCK,
    STRICT,
    SUIT_MASK,
    SUIT_OF,
    suits_with_marriage,
)


def explain(g: DeclarationRules, seat: int, action: Action) -> TuteError:
    if not isinstance(action, (Play, SingTwenty, SingForty, DeclareTute, Swap, Bid, Pass,
                               NameTrump, Manilla)):
        return IllegalActionError("not_an_action", action=repr(action))
    if g.phase_code == OVER:
        return WrongPhaseError("hand_over", action=str(action))
    if isinstance(action, (Bid, Pass, NameTrump)):
        if g.auction is None:
            return WrongPhaseError("no_auction", action=str(action))
        return g.auction.explain(seat, action)
    if g.phase_code == AUCTION:
        return WrongPhaseError("auction_first", action=str(action))
    if isinstance(action, Play):
        return _explain_play(g, seat, action)
    if isinstance(action, (SingTwenty, SingForty)):
        return _explain_cante(g, seat, action)
    if isinstance(action, DeclareTute):
        return _explain_tute(g, seat)
    if isinstance(action, Swap):
        return _explain_swap(g, seat)
    if isinstance(action, Manilla):
        return _explain_manilla(g, seat, action)
    return IllegalActionError("not_legal_now", action=str(action))  # pragma: no cover


def _code(g: DeclarationRules, bit: int) -> str:
    return g.rk.card_of_bit[bit].code


def _explain_play(g: DeclarationRules, seat: int, action: Play) -> TuteError:
    if seat != g.acting:
        return OutOfTurnError("not_your_turn", seat=g.acting)
    bit = g.bit_of[action.card.index]
    hand = g.hands[seat]
    if not hand >> bit & 1:
        return IllegalActionError("not_in_hand", card=action.card.code)
    led, trump, win = g.led, g.trump_suit, g.win_bit
    suit = SUIT_OF[bit]
    follow = hand & SUIT_MASK[led]
    trumps = hand & SUIT_MASK[trump]
    if g.phase_code == STOCK and g.oblig == 1:
        return IllegalActionError("must_answer_trump")
    if follow and suit != led:
        return IllegalActionError("must_follow", suit=led)
    if follow:
        return IllegalActionError("must_beat", card=_code(g, win))
    if SUIT_OF[win] == trump and trumps & ABOVE[win]:
        return IllegalActionError("must_overtrump", card=_code(g, win))
    if trumps:
        return IllegalActionError("must_trump", suit=trump)
    return IllegalActionError("not_legal_now", action=str(action))  # pragma: no cover


def _explain_cante(g: DeclarationRules, seat: int, action: SingTwenty | SingForty) -> TuteError:
    trump = g.trump_suit
    suit = trump if isinstance(action, SingForty) else action.suit.index
    if isinstance(action, SingTwenty) and suit == trump:
        return IllegalActionError("twenty_in_trumps")
    if not suits_with_marriage(g.hands[seat]) >> suit & 1:
        return IllegalActionError("no_marriage", suit=suit)
    if g.sung_suits >> suit & 1:
        return IllegalActionError("already_sung", suit=suit)
    if not g._may_declare_in_window(seat):
        if g.declarer_sings and seat != g.declarer:
            return IllegalActionError("only_declarer_sings")
        if g.variant.sing_who == "winner" and g.window >= 0 and g.partners:
            return IllegalActionError("only_winner_sings")
        if not g.tricks[g.side[seat]]:
            return IllegalActionError("sing_before_win")
        return IllegalActionError("sing_only_after_win")
    if g.stock_only and g.phase_code == STRICT:
        return IllegalActionError("no_sing_without_stock")
    unit = g.unit[seat]
    if g.window_sang[unit]:
        return IllegalActionError("one_cante_per_trick")
    if g.lost[unit] >> suit & 1:
        return IllegalActionError("cante_lost", suit=suit)
    if suit == trump:
        return IllegalActionError("forty_after_twenty")
    return IllegalActionError("forty_first")


def _explain_tute(g: DeclarationRules, seat: int) -> TuteError:
    if not g.tute_sets:
        return IllegalActionError("tute_off")
    hand = g.hands[seat]
    if not any(hand & t == t for t in g.tute_sets):
        return IllegalActionError("no_tute", which=g.variant.tute_set)
    if g.variant.no_tute_after_sing and g.sang[seat]:
        return IllegalActionError("tute_after_sing")
    if not g.tricks[g.side[seat]]:
        return IllegalActionError("tute_before_win")
    return IllegalActionError("tute_only_after_win")


def _explain_swap(g: DeclarationRules, seat: int) -> TuteError:
    if seat != g.acting:
        return OutOfTurnError("swap_own_turn")
    if not g.swap_kind:
        return IllegalActionError("swap_off")
    if not g.turn_up_live:
        return IllegalActionError("swap_no_turn_up")
    if g.stock_left < g.variant.swap_min_stock:
        return IllegalActionError("swap_stock_low", count=g.variant.swap_min_stock)
    if g._swap_card(seat) < 0:
        return IllegalActionError("swap_no_card")
    if g.swap_timing == 1 and not g.tricks[g.side[seat]]:
        return IllegalActionError("swap_after_win")
    return IllegalActionError("swap_on_lead")


def _explain_manilla(g: DeclarationRules, seat: int, action: Manilla) -> TuteError:
    if g.manilla is None:
        return IllegalActionError("manilla_off")
    suit = action.suit.index
    top = 0b11 << (suit * 10 + 8)
    if g.hands[seat] & top != top:
        return IllegalActionError("no_manilla", suit=suit)
    if g.manilla_suits >> suit & 1:
        return IllegalActionError("manilla_done", suit=suit)
    if not g._may_declare_in_window(seat):
        if not g.tricks[g.side[seat]]:
            return IllegalActionError("sing_before_win")
        return IllegalActionError("sing_only_after_win")
    return IllegalActionError("one_manilla_per_trick")
