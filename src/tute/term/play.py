"""``tute play``: a person at a terminal against computer players.

The human's seat is a :class:`TerminalPlayer`; the others are bots.  The shared driver
loop moves the game; every action is told as it happens; illegal input is answered with
the rule in words and the prompt returns.  Each hand ends with the count; the match
record is saved after every hand to a file whose name is printed.
"""

from __future__ import annotations

import datetime as _dt
import re
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from tute.bots import BEST, QUICK, Bot, make_bot
from tute.bots.knowledge import trick_winner
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
    parse_action,
)
from tute.core.cards import Card
from tute.core.driver import Player, play_hand
from tute.core.errors import TuteError
from tute.core.game import Game
from tute.core.match import Match
from tute.core.records import format_record, record_of_games
from tute.core.variants import Variant
from tute.core.views import PlayerView
from tute.term.narrate import (
    YOU,
    count_lines,
    describe,
    said,
    said_of_side,
    side_names,
    trump_line,
)
from tute.term.style import Style, sort_hand
from tute.tools.rules_text import rules_summary

BOT_NAMES = ("Ada", "Bruno", "Carmen", "Diego", "Elena", "Fermín")


class Quit(Exception):
    """The player left (``q``, or the end of input)."""


class TerminalPlayer:
    """The human seat: shows the table, reads a move, explains refusals."""

    def __init__(self, seat: int, names: tuple[str, ...], style: Style, out: TextIO,
                 read: Callable[[str], str]) -> None:
        self.seat = seat
        self.names = names
        self.style = style
        self.out = out
        self.read = read
        # the host's referee: why the engine refuses an action, in the player's words
        self.explain: Callable[[Action], str] | None = None

    def start_hand(self, view: PlayerView) -> None:
        pass

    def observe(self, seat: int, action: Action, view: PlayerView) -> None:
        pass

    def declare(self, view: PlayerView) -> Action | None:
        t = self.style.t
        options = [a for a in view.legal if not isinstance(a, Play)]
        if not options:
            return None
        self._show(view)
        self.out.write(t("play_partner_window", options=" · ".join(str(a) for a in options))
                       + "\n")
        while True:
            text = self._ask(t("play_declare_prompt"))
            if not text:
                return None
            action = self._parse(text, view, [])
            if action is not None and action in options:
                return action
            if action is not None:
                self.out.write(t("play_not_offered", action=str(action)) + "\n")

    def choose(self, view: PlayerView) -> Action:
        t = self.style.t
        self._show(view)
        hand = sort_hand(view.hand, view.variant.ranking)
        while True:
            text = self._ask(t("play_prompt"))
            if text in ("?", "ayuda", "help", "reglas"):
                variant = str(view.variant)
                more = t("rules_more", preset=view.variant.preset,
                         variant=f'"{variant}"' if "(" in variant else variant)
                for line in [*rules_summary(view.variant, self.style.lang),
                             t("rules_commands_auction"
                               if view.variant.scoring == "contract" else "rules_commands"),
                             more]:
                    self.out.write(self.style.wrap(line, "  ") + "\n")
                continue
            if not text:
                continue
            action = self._parse(text, view, hand)
            if action is None:
                continue
            if action in view.legal:
                return action
            self.out.write(self.style.bold(self._why(view, action)) + "\n")

    # ------------------------------------------------------------------ input
    def _ask(self, prompt: str) -> str:
        try:
            text = self.read(prompt)
        except EOFError:
            raise Quit from None
        text = text.strip()
        if text.lower() in ("q", "quit", "salir", "sair", "esci"):
            try:                                   # a slip of the finger is not a quit
                sure = self.read(self.style.t("play_quit_confirm")).strip().lower()
            except EOFError:
                raise Quit from None
            if sure[:1] in ("s", "y"):
                raise Quit
            return ""
        return text

    def _parse(self, text: str, view: PlayerView, hand: list[Card]) -> Action | None:
        t = self.style.t
        low = text.lower()
        # "40" and "20" are cantes, never card numbers (no hand holds twenty cards): a
        # "40" not allowed now is explained by the rules, not as "no card 40"
        sings = [a for a in view.legal if isinstance(a, (SingTwenty, SingForty))]
        if low == "40" and view.phase != "auction":
            return SingForty()
        twenties = [a for a in sings if isinstance(a, SingTwenty)]
        if low == "20" and len(twenties) == 1:
            return twenties[0]
        if low == "20" and twenties:
            self.out.write(t("play_which_twenty",
                             options=", ".join(str(a) for a in twenties)) + "\n")
            return None
        if low.isdigit() and low != "20" and view.phase != "auction":
            n = int(low)
            if 1 <= n <= len(hand):
                return Play(hand[n - 1])
            self.out.write(t("play_bad_number", n=n, count=len(hand)) + "\n")
            return None
        if view.phase == "auction" and re.fullmatch(r"\d{2,3}", low):
            return Bid(int(low))
        aliases = {"cambiar": "swap", "cambio": "swap", "trocar": "swap", "troca": "swap",
                   "scambiare": "swap", "scambio": "swap", "paso": "pass", "passo": "pass"}
        text = aliases.get(low, text)
        if low in ("cantar", "cantare", "sing"):
            sings = [a for a in view.legal if isinstance(a, (SingTwenty, SingForty))]
            if len(sings) == 1:
                return sings[0]
        try:
            return parse_action(text)
        except TuteError as e:
            self.out.write(e.localized(self.style.lang) + "\n")
            return None

    def _why(self, view: PlayerView, action: Action) -> str:
        """The rule that refuses ``action``, in words (from the host's referee)."""
        if self.explain is None:
            return self.style.t("play_not_allowed", action=str(action))
        return self.explain(action)

    # ------------------------------------------------------------------ display
    def _show(self, view: PlayerView) -> None:
        st = self.style
        t = st.t
        out = self.out
        names = self.names
        out.write("\n")
        sides = side_names(view.variant, names)
        score = " · ".join(t("play_side_status", side=sides[s], tricks=view.tricks_won[s],
                                 points=view.points_taken[s] + view.cantes[s])
                           for s in range(len(view.tricks_won))
                           if not (view.sitting_out == s and not view.variant.partnerships))
        out.write(score + "\n")
        if view.trump is not None:
            up = view.turn_up                   # shown while under the stock, or while
            where = ""                          # its holder has it still, known to all
            holder = view.turn_up_holder
            if up is not None and view.turn_up_in_stock:
                where = t("play_stock", count=view.stock_left)
            elif up is not None and holder is not None and up in (
                    view.hand if holder == view.seat else view.known_cards[holder]):
                where = said(st, "play_turn_up_held", holder, view.seat, who=names[holder])
            else:
                up = None                       # drawn and played: the suit is enough
            up_text = ("(" + st.card(up) + ")"
                       if up is not None and view.variant.trump != "declarer" else "")
            out.write(t("play_trump", suit=st.suit_name(view.trump), card=up_text, where=where)
                      + "\n")
        elif view.phase == "auction":
            high = view.bid
            out.write(t("play_auction", high=high if high is not None else "-") + "\n")
        if view.declarer is not None and view.phase != "auction" and view.bid is not None:
            out.write(said(st, "play_contract", view.declarer, view.seat,
                           who=names[view.declarer], bid=view.bid) + "\n")
        for c in view.cantes_shown:
            out.write("  " + said(st, "play_cante_shown", c.seat, view.seat, who=names[c.seat],
                                  points=c.points, suit=st.suit_name(c.suit),
                                  cards=st.cards(c.cards)) + "\n")
        if view.trick:
            table = "  ".join(f"{names[s]}: {st.card(c)}" for s, c in view.trick)
            winning = trick_winner(view)
            if winning is not None:
                table += "  (" + said(st, "play_winning", winning[0], view.seat,
                                      who=names[winning[0]], card=st.card_name(winning[1])) + ")"
            out.write(t("play_table", cards=table) + "\n")
        counts = "  ".join(f"{names[s]} {n}" for s, n in enumerate(view.hand_counts)
                           if s != view.seat and view.sitting_out != s)
        out.write(t("play_counts", counts=counts) + "\n")
        hand = sort_hand(view.hand, view.variant.ranking)
        legal_cards = {a.card for a in view.legal if isinstance(a, Play)}
        shown = []
        for i, card in enumerate(hand, start=1):
            ok = card in legal_cards
            label = f"{i}:{st.card(card, legal=ok)}"
            shown.append(label if ok or st.colour else st.dim(label))
        out.write(t("play_your_hand") + " " + " ".join(shown) + "\n")
        others = [a for a in view.legal if not isinstance(a, Play)]
        if view.phase == "auction":
            bids = [a for a in others if isinstance(a, Bid)]
            parts = []
            if any(isinstance(a, Pass) for a in others):
                parts.append("pass")
            if bids:
                parts.append(f"bid {bids[0].points}..{bids[-1].points}")
            parts += [str(a) for a in others if isinstance(a, NameTrump)]
            out.write(t("play_options", options=" · ".join(parts)) + "\n")
        else:
            cards = " ".join(str(i) for i, c in enumerate(hand, start=1) if c in legal_cards)
            extra = [str(a) for a in others
                     if isinstance(a, (SingTwenty, SingForty, DeclareTute, Manilla))]
            text = t("play_cards_ok", numbers=cards)
            if extra:
                text += " · " + t("play_declarations", options=" ".join(extra))
            if any(isinstance(a, Swap) for a in others):       # the swap is no cante
                text += " · " + t("play_swap_word")
            out.write(t("play_options", options=text) + "\n")


class _Teller:
    """Tells every action as it happens, and who takes each trick."""

    def __init__(self, style: Style, names: tuple[str, ...], turn_up: Card | None,
                 out: TextIO, you: int | None = None) -> None:
        self.style, self.names, self.turn_up, self.out = style, names, turn_up, out
        self.you = you
        self.drawn = 0                             # the reader's cards drawn, told so far

    def __call__(self, game: Game, who: int, action: Action) -> None:
        line = describe(self.style, game, self.names, who, action, self.turn_up, self.you)
        self.turn_up = game.turn_up
        tricks = game.trick_winners
        if isinstance(action, Play) and not game.trick and tricks:
            line += "  " + said(self.style, "play_trick_won", tricks[-1], self.you,
                                who=self.names[tricks[-1]])
            drawn = game.view(self.you).own_draws if self.you is not None else ()
            if len(drawn) > self.drawn:            # only the reader's own card is told
                self.drawn = len(drawn)
                line += "  " + self.style.t("play_you_draw",
                                            card=self.style.card_name(drawn[-1]))
        self.out.write("  " + line + "\n")


def _score_line(match: Match, names: tuple[str, ...]) -> str:
    """The running score with names: hands won, points, or porotos."""
    v = match.variant
    s = match.score()
    if v.match == "elimination":
        return "  ".join(f"{names[m]} {p}" + ("" if m in s.players_in else " ✗")
                         for m, p in enumerate(s.porotos))
    figures = s.points if (v.match == "cumulative" or v.scoring == "contract") else s.hands_won
    labels = side_names(v, names)
    return "  ".join(f"{label} {x}" for label, x in zip(labels, figures, strict=True))


def _warm(style: Style, out: TextIO) -> None:
    """The search's compiled kernel made ready before the deal, with a word: after an
    install numba compiles it (up to a minute), later it loads from its cache."""
    from tute.search import dds

    if not dds.AVAILABLE:
        return
    out.write(style.t("play_warming") + "\n")
    out.flush()
    began = time.monotonic()
    dds.warm()
    if time.monotonic() - began > 2:
        out.write(style.t("play_warmed") + "\n")


def run_play(variant: Variant, seat: int, levels: list[str], names: list[str] | None,
             seed: int | None, style: Style, out: TextIO, read: Callable[[str], str],
             records_dir: Path, hands_limit: int | None = None) -> int:
    t = style.t
    n = variant.players
    if not 0 <= seat < n:
        out.write(t("bad_seat", seat=seat, players=n) + "\n")
        return 2
    seed = seed if seed is not None else secrets.randbelow(10**9)
    bot_levels = levels or [BEST]
    if len(bot_levels) == 1:
        bot_levels = bot_levels * (n - 1)
    if len(bot_levels) != n - 1:
        out.write(t("play_bad_bots", count=n - 1) + "\n")
        return 2
    all_names = list(names or [])
    if not all_names:
        robot_names = iter(BOT_NAMES)
        all_names = [YOU.get(style.lang, "You") if s == seat else next(robot_names)
                     for s in range(n)]
    if len(all_names) != n:
        out.write(t("play_bad_names", count=n) + "\n")
        return 2
    seat_names = tuple(all_names)
    others = [m for m in range(n) if m != seat]
    bot_for: dict[int, Bot] = {m: make_bot(level, seed=seed * 10 + m)
                               for m, level in zip(others, bot_levels, strict=True)}
    match = Match(variant, seed=seed, dealer=(seat - 1) % n)   # you are the mano
    out.write(style.bold(t("play_welcome", variant=str(variant), seed=seed)) + "\n")
    if any(level not in QUICK for level in bot_levels):
        _warm(style, out)
    out.write(style.wrap(t("play_help")) + "\n")
    date = _dt.date.today().isoformat()
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    records_dir.mkdir(parents=True, exist_ok=True)
    path = records_dir / f"tute-{stamp}-{seed}.tute"
    games: list[Game] = []
    human = TerminalPlayer(seat, seat_names, style, out, read)
    played = 0
    try:
        while True:
            g = match.game
            hand_names = tuple(seat_names[m] for m in match.seat_map)
            players: list[Player] = [human if m == seat else bot_for[m]
                                     for m in match.seat_map]
            human.seat = match.seat_map.index(seat) if seat in match.seat_map else -1
            human.names = hand_names
            human.explain = _explainer(g, human)
            out.write("\n" + style.bold(t("term_hand_header", n=match.hand_number,
                                          variant=str(g.variant), dealer=hand_names[g.dealer]))
                      + "\n")
            out.write(trump_line(style, g) + "\n")
            games.append(g)

            you = human.seat if human.seat >= 0 else None
            tell = _Teller(style, hand_names, g.turn_up, out, you)
            play_hand(g, players, on_action=tell)
            r = g.result()
            assert r is not None
            for line in count_lines(style, g, hand_names, r, you):
                out.write(style.bold(line) + "\n")
            match.record_hand()
            played += 1
            _save(path, games, seat_names, date, seed, style, out)
            out.write(t("play_match_score", score=_score_line(match, seat_names)) + "\n")
            if match.is_over:
                w = match.winner
                if w is not None:
                    label = side_names(g.variant, seat_names)[w] if variant.match != "elimination" \
                        else seat_names[w]
                    line = (said(style, "play_match_winner", w, seat, side=label)
                            if variant.match == "elimination" else
                            said_of_side(style, "play_match_winner", variant, w, seat,
                                         side=label))
                    out.write(style.bold(line) + "\n")
                return 0
            if hands_limit is not None and played >= hands_limit:
                return 0
            human._ask(t("play_next_hand"))
            match.deal_next()
    except Quit:
        if games:
            _save(path, games, seat_names, date, seed, style, out)
        out.write(t("play_bye") + "\n")
        return 0


def _save(path: Path, games: list[Game], names: tuple[str, ...], date: str, seed: int,
          style: Style, out: TextIO) -> None:
    record = record_of_games(games, names=names, date=date,
                             notes=(f"tute play, match seed {seed}",))
    path.write_text(format_record(record), encoding="utf-8")
    out.write(style.t("play_saved", path=str(path)) + "\n")


def _explainer(game: Game, human: TerminalPlayer) -> Callable[[Action], str]:
    """Ask the engine (on a copy) why an action is refused, in the player's language."""

    def why(action: Action) -> str:
        try:
            game.copy().apply(human.seat, action)
        except TuteError as e:
            return e.localized(human.style.lang)
        return human.style.t("play_not_allowed", action=str(action))

    return why
