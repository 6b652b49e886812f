"""``tute replay FILE``: step through a record trick by trick.

Every hand is shown at each trick, or with ``--seat N`` only what that seat could see at
each moment: its own hand and draws, the table, the declarations.  The count closes each
hand; the match score closes the record.
"""

from __future__ import annotations

from typing import TextIO

from tute.core.actions import Play
from tute.core.cards import Card
from tute.core.game import Game
from tute.core.records import GameRecord, Replay, match_text, replay
from tute.term.narrate import count_lines, describe, reader_seat, trump_line
from tute.term.style import Style, sort_hand


def print_replay(record: GameRecord, out: TextIO, style: Style, seat: int | None = None,
                 pause: bool = False) -> Replay:
    rep = replay(record)
    t = style.t
    for h, (hand, game) in enumerate(zip(record.hands, rep.games, strict=True)):
        seat_map = rep.seat_maps[h]
        names = tuple(record.names[m] for m in seat_map)
        you = reader_seat(names)
        g = hand.new_game(game.variant)
        out.write("\n" + style.bold(t("term_hand_header", n=h + 1, variant=str(record.variant),
                                      dealer=names[g.dealer])) + "\n")
        out.write(trump_line(style, g) + "\n")
        if seat is not None and seat >= g.players:
            seat = None
        _hands(out, style, g, names, seat)
        events: list[str] = []
        draws_before = 0
        for i, (who, action) in enumerate(hand.actions):
            up = g.turn_up
            tricks = sum(g.tricks_won)
            g.apply(who, action)
            note = hand.note(i)                  # an annotation: tute analyze --annotate
            events.append(describe(style, g, names, who, action, up, you)
                          + (f" {{{note}}}" if note else ""))
            if isinstance(action, Play) and sum(g.tricks_won) > tricks:
                winner = g.trick_winners[-1]
                out.write(t("term_trick_line", n=tricks + 1, events=" · ".join(events),
                            winner=names[winner]) + "\n")
                events = []
                draws = g.draws[draws_before:]
                draws_before += len(draws)
                if draws:
                    out.write("  " + _draws(style, g, names, draws, seat) + "\n")
                if not g.is_over:
                    _hands(out, style, g, names, seat)
                if pause:
                    input()
        if events:
            out.write("  " + " · ".join(events) + "\n")
        r = g.result()
        if r is None:
            out.write(t("term_unfinished") + "\n")
        else:
            for line in count_lines(style, g, names, r, you):
                out.write(style.bold(line) + "\n")
    out.write("\n" + t("term_match_score", score=match_text(rep.match)) + "\n")
    return rep


def _hands(out: TextIO, style: Style, g: Game, names: tuple[str, ...],
           seat: int | None) -> None:
    width = max(len(n) for n in names)
    for s in range(g.players):
        if seat is not None and s != seat:
            continue
        cards = g.view(s).hand
        if not cards and g.variant.dealer_sits_out and s == g.dealer:
            continue
        out.write(f"  {names[s]:<{width}} : {style.cards(sort_hand(cards, g.variant.ranking))}\n")


def _draws(style: Style, g: Game, names: tuple[str, ...], draws: tuple[tuple[int, Card], ...],
           seat: int | None) -> str:
    parts = []
    for s, card in draws:
        public = card == g.turn_up and s == g.turn_up_holder
        if seat is None or s == seat or public:
            parts.append(f"{names[s]} {style.card(card)}")
        else:
            parts.append(f"{names[s]} ?")
    return style.t("term_draws", draws=", ".join(parts))
