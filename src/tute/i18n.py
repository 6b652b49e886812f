"""Player-facing text in Spanish (first), Portuguese, Italian and English.

Messages are templates keyed by name; parameters named ``card*`` hold card codes and
``suit`` a suit (index, letter or :class:`~tute.cards.Suit`): both are rendered as words
of the language.  A key missing in a language falls back to English, then to the key.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from tute.cards import SUITS, Rank, Suit

LANGS: Final = ("es", "pt", "it", "en")

SUIT_NAMES: Final[dict[str, tuple[str, str, str, str]]] = {
    "es": ("oros", "copas", "espadas", "bastos"),
    "pt": ("ouros", "copas", "espadas", "bastos"),
    "it": ("ori", "coppe", "spade", "bastoni"),
    "en": ("oros", "copas", "espadas", "bastos"),
}
_RANK_WORDS: Final[dict[str, dict[Rank, str]]] = {
    "es": {Rank.AS: "el as", Rank.SOTA: "la sota", Rank.CABALLO: "el caballo",
           Rank.REY: "el rey"},
    "pt": {Rank.AS: "o ás", Rank.SOTA: "a sota", Rank.CABALLO: "o cavalo",
           Rank.REY: "o rei"},
    "it": {Rank.AS: "l'asso", Rank.SOTA: "il fante", Rank.CABALLO: "il cavallo",
           Rank.REY: "il re"},
    "en": {Rank.AS: "the As", Rank.SOTA: "the Sota", Rank.CABALLO: "the Caballo",
           Rank.REY: "the Rey"},
}
_NUMBER_ARTICLE: Final = {"es": "el", "pt": "o", "it": "il", "en": "the"}
_OF: Final = {"es": "de", "pt": "de", "it": "di", "en": "of"}


def suit_name(suit: object, lang: str = "es") -> str:
    names = SUIT_NAMES.get(lang, SUIT_NAMES["en"])
    if isinstance(suit, Suit):
        return names[suit.index]
    if isinstance(suit, int) and 0 <= suit < 4:
        return names[suit]
    if isinstance(suit, str):
        for s in SUITS:
            if s.value == suit:
                return names[s.index]
    return str(suit)


def card_name(code: str, lang: str = "es") -> str:
    """``3c`` -> "el 3 de copas" (es), "the 3 of copas" (en)."""
    from tute.cards import parse_card
    from tute.errors import InvalidNotationError

    try:
        card = parse_card(code)
    except InvalidNotationError:
        return code
    words = _RANK_WORDS.get(lang, _RANK_WORDS["en"])
    rank = words.get(card.rank) or f"{_NUMBER_ARTICLE.get(lang, 'the')} {card.rank.value}"
    return f"{rank} {_OF.get(lang, 'of')} {suit_name(card.suit, lang)}"


MESSAGES: Final[dict[str, dict[str, str]]] = {
    # -- notation ---------------------------------------------------------------
    "unknown_card": {
        "en": "'{text}' is not a card: write the rank then the suit, e.g. Ao, 3c, Re, Cb, So",
        "es": "'{text}' no es una carta: escribe el número y el palo, p. ej. Ao, 3c, Re, Cb, So",
        "pt": "'{text}' não é uma carta: escreva o valor e o naipe, p. ex. Ao, 3c, Re, Cb, So",
        "it": "'{text}' non è una carta: scrivi il valore e il seme, es. Ao, 3c, Re, Cb, So",
    },
    "unknown_suit": {
        "en": "'{text}' is not a suit: use o, c, e or b",
        "es": "'{text}' no es un palo: usa o, c, e o b",
        "pt": "'{text}' não é um naipe: use o, c, e ou b",
        "it": "'{text}' non è un seme: usa o, c, e o b",
    },
    "unknown_action": {
        "en": "'{text}' is not an action: play a card (Ao), sing (20c, 40), tute, swap",
        "es": "'{text}' no es una jugada: juega una carta (Ao), canta (20c, 40), tute, cambio",
        "pt": "'{text}' não é uma jogada: jogue uma carta (Ao), cante (20c, 40), tute, troca",
        "it": "'{text}' non è una mossa: gioca una carta (Ao), canta (20c, 40), tute, scambio",
    },
    "bad_deck_size": {"en": "a deck has 40 or 36 cards, not {size}",
                      "es": "la baraja tiene 40 o 36 cartas, no {size}"},
    # -- variants ---------------------------------------------------------------
    "unknown_preset": {"en": "unknown game '{name}'; the games are: {known}",
                       "es": "juego desconocido '{name}'; los juegos son: {known}"},
    "bad_players": {"en": "{preset} is played by {allowed} players, not {players}",
                    "es": "{preset} se juega con {allowed} jugadores, no {players}"},
    "bad_option_value": {"en": "option {option} cannot be {value}; it takes {allowed}",
                         "es": "la opción {option} no puede ser {value}; admite {allowed}"},
    "unknown_option": {"en": "there is no option '{option}'",
                       "es": "no existe la opción '{option}'"},
    "bad_variant_text": {"en": "cannot read the game '{text}': write preset(option=value,...)",
                         "es": "no se entiende el juego '{text}': escribe juego(opción=valor,...)"},
    "duplicate_option": {"en": "option {option} is given twice",
                         "es": "la opción {option} aparece dos veces"},
    "packet_does_not_divide": {
        "en": "cards cannot be dealt {packet} at a time into hands of {hand}",
        "es": "no se pueden repartir de {packet} en {packet} manos de {hand} cartas"},
    "too_many_cards": {"en": "{dealt} cards cannot be dealt from a deck of {deck}",
                       "es": "no se pueden repartir {dealt} cartas de una baraja de {deck}"},
    "not_all_dealt": {"en": "with trump = {trump} every card must be dealt ({rest} left over)",
                      "es": "con triunfo = {trump} hay que repartir todas las cartas (sobran {rest})"},
    "no_turn_up_card": {"en": "no card is left to turn up for trump",
                        "es": "no queda carta que volver para el triunfo"},
    "stock_not_multiple": {
        "en": "a stock of {stock} cards cannot be drawn evenly by {players} players",
        "es": "un monte de {stock} cartas no se reparte por igual entre {players} jugadores"},
    "declarer_needs_contract": {
        "en": "trump = declarer goes with scoring = contract, and only with it",
        "es": "triunfo = declarer va con scoring = contract, y solo con él"},
    "unsupported_option": {"en": "{option} = {value} is not playable in this version yet",
                           "es": "{option} = {value} aún no se puede jugar en esta versión"},
    # -- deals ------------------------------------------------------------------
    "deal_bad_card": {"en": "{value} is not a card", "es": "{value} no es una carta"},
    "deal_wrong_hand_count": {"en": "the deal must give a hand to each of the {players} seats",
                              "es": "el reparto debe dar mano a los {players} asientos"},
    "deal_bad_hand": {"en": "seat {seat}'s hand is not a list of cards",
                      "es": "la mano del asiento {seat} no es una lista de cartas"},
    "deal_wrong_hand_size": {"en": "seat {seat} has {size} cards; this game deals {expected}",
                             "es": "el asiento {seat} tiene {size} cartas; este juego reparte {expected}"},
    "deal_bad_stock": {"en": "the stock is not a list of cards",
                       "es": "el monte no es una lista de cartas"},
    "deal_wrong_stock_size": {"en": "the stock has {size} cards; this game leaves {expected}",
                              "es": "el monte tiene {size} cartas; este juego deja {expected}"},
    "deal_turn_up_with_declarer": {"en": "no card is turned up when the declarer names trump",
                                   "es": "no se vuelve carta cuando el que gana la subasta elige triunfo"},
    "deal_turn_up_missing": {"en": "the deal needs the turn-up card",
                             "es": "falta la carta que pinta"},
    "deal_turn_up_not_dealers": {"en": "{card} must be in the hand of seat {seat}, who got the last card",
                                 "es": "{card} debe estar en la mano del asiento {seat}, que recibió la última carta"},
    "deal_turn_up_twice": {"en": "the turn-up {card} is also in a hand or in the stock",
                           "es": "la carta que pinta {card} está también en una mano o en el monte"},
    "deal_bad_dealer": {"en": "dealer {dealer} is not a seat of 0..{players}-1",
                        "es": "el repartidor {dealer} no es un asiento de 0..{players}-1"},
    "deal_duplicate_card": {"en": "{card} appears twice in the deal",
                            "es": "{card} aparece dos veces en el reparto"},
    "deal_card_not_in_deck": {"en": "{card} is not in the {deck}-card deck",
                              "es": "{card} no está en la baraja de {deck} cartas"},
    "deal_missing_cards": {"en": "the deal is missing cards: {cards}",
                           "es": "faltan cartas en el reparto: {cards}"},
    # -- playing ----------------------------------------------------------------
    "bad_seat": {"en": "there is no seat {seat} (seats are 0..{players}-1)",
                 "es": "no existe el asiento {seat} (los asientos son 0..{players}-1)"},
    "not_an_action": {"en": "{action} is not an action", "es": "{action} no es una jugada"},
    "hand_over": {"en": "the hand is over", "es": "la mano ha terminado",
                  "pt": "a mão terminou", "it": "la mano è finita"},
    "no_auction": {"en": "there is no auction now", "es": "ahora no hay subasta"},
    "auction_first": {"en": "the auction comes first", "es": "primero va la subasta"},
    "not_legal_now": {"en": "{action} is not allowed now", "es": "{action} no está permitido ahora"},
    "not_your_turn": {"en": "it is not your turn: seat {seat} is to play",
                      "es": "no es tu turno: juega el asiento {seat}",
                      "pt": "não é a sua vez: joga o lugar {seat}",
                      "it": "non è il tuo turno: gioca il posto {seat}"},
    "not_in_hand": {"en": "you do not hold {card}", "es": "no tienes {card}",
                    "pt": "você não tem {card}", "it": "non hai {card}"},
    "must_answer_trump": {"en": "trump was led: you must play a trump",
                          "es": "han salido con triunfo: debes echar triunfo",
                          "pt": "saíram de trunfo: deve jogar trunfo",
                          "it": "è uscita briscola: devi giocare briscola"},
    "must_follow": {"en": "you must follow suit: play {suit}",
                    "es": "debes asistir al palo: juega {suit}",
                    "pt": "deve assistir ao naipe: jogue {suit}",
                    "it": "devi rispondere al seme: gioca {suit}"},
    "must_beat": {"en": "you must beat {card}", "es": "debes montar sobre {card}",
                  "pt": "deve bater {card}", "it": "devi superare {card}"},
    "must_overtrump": {"en": "you must overtrump {card}", "es": "debes montar sobre {card} con un triunfo mayor",
                       "pt": "deve sobretrunfar {card}", "it": "devi superare {card} con una briscola più alta"},
    "must_trump": {"en": "you cannot follow suit: you must trump ({suit})",
                   "es": "no puedes asistir: debes fallar con triunfo ({suit})",
                   "pt": "não pode assistir: deve trunfar ({suit})",
                   "it": "non puoi rispondere: devi giocare briscola ({suit})"},
    "twenty_in_trumps": {"en": "the marriage in trumps is the 40, not a 20",
                         "es": "el cante en triunfo son las cuarenta, no veinte"},
    "no_marriage": {"en": "you do not hold the Rey and Caballo of {suit}",
                    "es": "no tienes rey y caballo de {suit}"},
    "already_sung": {"en": "{suit} has already been sung this hand",
                     "es": "ya se cantó en {suit} esta mano"},
    "only_winner_sings": {"en": "only the player who won the trick may sing",
                          "es": "solo canta quien ganó la baza"},
    "sing_before_win": {"en": "you cannot sing before your side has won a trick",
                        "es": "no puedes cantar antes de que tu lado gane una baza",
                        "pt": "não pode cantar antes de o seu lado ganhar uma vaza",
                        "it": "non puoi cantare prima che la tua parte vinca una presa"},
    "sing_only_after_win": {"en": "you can sing only right after your side wins a trick, before the next lead",
                            "es": "solo se canta justo después de ganar una baza, antes de salir"},
    "no_sing_without_stock": {"en": "no cantes once the stock is exhausted",
                              "es": "no se canta cuando se acaba el monte"},
    "one_cante_per_trick": {"en": "one cante per trick won: win another trick to sing again",
                            "es": "un cante por baza ganada: gana otra baza para volver a cantar"},
    "cante_lost": {"en": "the cante in {suit} is lost: it had to be sung at the first chance",
                   "es": "el cante en {suit} se perdió: había que cantarlo a la primera"},
    "forty_after_twenty": {"en": "you cannot sing the 40 after a 20",
                           "es": "no se pueden cantar las cuarenta después de unas veinte"},
    "forty_first": {"en": "you must sing the 40 first", "es": "primero hay que cantar las cuarenta"},
    "tute_off": {"en": "tute is not played at this table", "es": "en esta mesa no se juega el tute"},
    "no_tute": {"en": "you do not hold a tute ({which})", "es": "no tienes tute ({which})"},
    "tute_after_sing": {"en": "you cannot declare tute after singing",
                        "es": "no puedes cantar tute después de haber cantado"},
    "tute_before_win": {"en": "you cannot declare tute before your side has won a trick",
                        "es": "no puedes cantar tute antes de que tu lado gane una baza"},
    "tute_only_after_win": {"en": "tute is declared right after your side wins a trick, before the next lead",
                            "es": "el tute se canta justo después de ganar una baza, antes de salir"},
    "swap_own_turn": {"en": "you may swap only on your own turn",
                      "es": "solo puedes cambiar en tu turno"},
    "swap_off": {"en": "the turn-up cannot be exchanged in this game",
                 "es": "en este juego no se cambia la carta que pinta"},
    "swap_no_turn_up": {"en": "there is no turn-up left to exchange",
                        "es": "ya no queda carta que pinta para cambiar"},
    "swap_stock_low": {"en": "no swap once fewer than {count} cards remain in the stock",
                       "es": "no se cambia cuando quedan menos de {count} cartas en el monte"},
    "swap_no_card": {"en": "you do not hold the 7 (or 2) of trumps that exchanges for this turn-up",
                     "es": "no tienes el 7 (o el 2) de triunfo que se cambia por esta carta"},
    "swap_after_win": {"en": "you may swap only after your side has won a trick",
                       "es": "solo puedes cambiar después de que tu lado gane una baza"},
    "swap_on_lead": {"en": "you may swap only when you are to lead",
                     "es": "solo puedes cambiar cuando te toca salir"},
    "trump_by_declarer": {"en": "only the declarer (seat {seat}) names trump",
                          "es": "solo el que ganó la subasta (asiento {seat}) elige triunfo"},
    "auction_passed": {"en": "you passed: passing is final", "es": "pasaste: el paso es definitivo"},
    "auction_not_over": {"en": "trump is named once the auction is won",
                         "es": "el triunfo se elige cuando termina la subasta"},
    "name_trump_now": {"en": "you won the auction: name the trump suit (trump o, c, e or b)",
                       "es": "ganaste la subasta: elige el triunfo (trump o, c, e o b)"},
    "bid_step": {"en": "bids go in steps of {step}", "es": "se puja de {step} en {step}"},
    "bid_min": {"en": "the lowest bid is {min}", "es": "la puja mínima es {min}"},
    "bid_max": {"en": "no bid can pass {max}", "es": "ninguna puja puede pasar de {max}"},
    "bid_higher": {"en": "you must bid more than {high}", "es": "debes pujar más de {high}"},
    "auction_bid_or_pass": {"en": "bid or pass", "es": "puja o pasa"},
    "only_declarer_sings": {"en": "only the declarer sings", "es": "solo canta el que ganó la subasta"},
    "no_manilla": {"en": "you do not hold the As and the 3 of {suit}",
                   "es": "no tienes el as y el tres de {suit}"},
    "manilla_done": {"en": "the manilla in {suit} was already declared",
                     "es": "la manilla en {suit} ya se cantó"},
    "one_manilla_per_trick": {"en": "one manilla per trick won",
                              "es": "una manilla por baza ganada"},
    "record_error": {"en": "line {line}: {why}", "es": "línea {line}: {why}",
                     "pt": "linha {line}: {why}", "it": "riga {line}: {why}"},
    "hand_scored": {"en": "this hand is already scored", "es": "esta mano ya está contada"},
    "match_wrong_variant": {"en": "this hand ({variant}) is not of this match",
                            "es": "esta mano ({variant}) no es de esta partida"},
    "match_wrong_dealer": {"en": "seat {dealer} is not the next dealer",
                           "es": "el asiento {dealer} no es el siguiente en repartir"},
    # -- terminal ---------------------------------------------------------------
    "term_sings_forty": {"en": "{who} sings the 40 ({cards})", "es": "{who} canta las cuarenta ({cards})",
                         "pt": "{who} canta as quarenta ({cards})", "it": "{who} canta il quaranta ({cards})"},
    "term_sings_twenty": {"en": "{who} sings 20 in {suit} ({cards})",
                          "es": "{who} canta las veinte en {suit} ({cards})",
                          "pt": "{who} canta vinte em {suit} ({cards})",
                          "it": "{who} canta venti a {suit} ({cards})"},
    "term_swaps": {"en": "{who} swaps: takes {took}, the turn-up is now {gave}",
                   "es": "{who} cambia: se lleva {took}, ahora pinta {gave}",
                   "pt": "{who} troca: fica com {took}, agora o trunfo virado é {gave}",
                   "it": "{who} scambia: prende {took}, ora la carta girata è {gave}"},
    "term_tute": {"en": "{who} declares TUTE", "es": "{who} canta TUTE",
                  "pt": "{who} canta TUTE", "it": "{who} dichiara TUTE"},
    "term_bids": {"en": "{who} bids {points}", "es": "{who} puja {points}",
                  "pt": "{who} licita {points}", "it": "{who} offre {points}"},
    "term_passes": {"en": "{who} passes", "es": "{who} pasa", "pt": "{who} passa",
                    "it": "{who} passa"},
    "term_names_trump": {"en": "{who} names trump: {suit}", "es": "{who} elige triunfo: {suit}",
                         "pt": "{who} escolhe trunfo: {suit}", "it": "{who} sceglie briscola: {suit}"},
    "term_manilla": {"en": "{who} declares the manilla in {suit}",
                     "es": "{who} canta la manilla en {suit}",
                     "pt": "{who} canta a manilha em {suit}", "it": "{who} dichiara la manilla a {suit}"},
    "term_void": {"en": "everybody passed: the hand is void", "es": "todos pasan: mano nula",
                  "pt": "todos passam: mão nula", "it": "tutti passano: mano nulla"},
    "term_last_trick": {"en": " (last trick +10)", "es": " (diez de últimas)",
                        "pt": " (dez de últimas)", "it": " (ultima presa +10)"},
    "term_count_side": {"en": "{side}: cards {cards}{last} + cantes {cantes} = {total}",
                        "es": "{side}: cartas {cards}{last} + cantes {cantes} = {total}",
                        "pt": "{side}: cartas {cards}{last} + cantes {cantes} = {total}",
                        "it": "{side}: carte {cards}{last} + canti {cantes} = {total}"},
    "term_tute_wins": {"en": "{side} wins by tute", "es": "{side} gana con el tute",
                       "pt": "{side} ganha com o tute", "it": "{side} vince con il tute"},
    "term_contract_made": {"en": "{who} makes the contract of {bid}",
                           "es": "{who} cumple su contrato de {bid}",
                           "pt": "{who} cumpre o contrato de {bid}",
                           "it": "{who} mantiene il contratto di {bid}"},
    "term_contract_failed": {"en": "{who} fails the contract of {bid}",
                             "es": "{who} no cumple su contrato de {bid}",
                             "pt": "{who} não cumpre o contrato de {bid}",
                             "it": "{who} non mantiene il contratto di {bid}"},
    "term_porotos": {"en": "porotos: {who}", "es": "porotos: {who}", "pt": "porotos: {who}",
                     "it": "porotos: {who}"},
    "term_hand_winner": {"en": "{side} wins the hand", "es": "gana la mano {side}",
                         "pt": "{side} ganha a mão", "it": "{side} vince la mano"},
    "term_double": {"en": "(double game)", "es": "(partida doble)", "pt": "(jogo duplo)",
                    "it": "(partita doppia)"},
    "term_no_trump_yet": {"en": "trump: not named yet", "es": "triunfo: aún sin elegir",
                          "pt": "trunfo: ainda não escolhido", "it": "briscola: non ancora scelta"},
    "term_trump": {"en": "trump: {suit} ({card})", "es": "triunfo: {suit} ({card})",
                   "pt": "trunfo: {suit} ({card})", "it": "briscola: {suit} ({card})"},
    "term_hand_header": {"en": "== Hand {n} · {variant} · {dealer} deals ==",
                         "es": "== Mano {n} · {variant} · reparte {dealer} ==",
                         "pt": "== Mão {n} · {variant} · dá {dealer} ==",
                         "it": "== Mano {n} · {variant} · distribuisce {dealer} =="},
    "term_trick_line": {"en": "Trick {n}: {events} -> {winner}",
                        "es": "Baza {n}: {events} -> {winner}",
                        "pt": "Vaza {n}: {events} -> {winner}",
                        "it": "Presa {n}: {events} -> {winner}"},
    "term_unfinished": {"en": "(the hand is not finished)", "es": "(la mano no ha terminado)",
                        "pt": "(a mão não terminou)", "it": "(la mano non è finita)"},
    "term_match_score": {"en": "Match: {score}", "es": "Partida: {score}",
                         "pt": "Partida: {score}", "it": "Partita: {score}"},
    "term_draws": {"en": "draw: {draws}", "es": "roban: {draws}", "pt": "compram: {draws}",
                   "it": "pescano: {draws}"},
    # -- tute play ----------------------------------------------------------------
    "unknown_bot": {"en": "unknown computer player '{level}'; the levels are: {known}",
                    "es": "jugador desconocido '{level}'; los niveles son: {known}"},
    "play_partner_window": {"en": "Your side won the trick: you may declare {options}",
                            "es": "Tu lado ganó la baza: puedes cantar {options}",
                            "pt": "O seu lado ganhou a vaza: pode cantar {options}",
                            "it": "La tua parte ha vinto la presa: puoi dichiarare {options}"},
    "play_declare_prompt": {"en": "Declare? (Enter = no) ", "es": "¿Cantas? (Enter = no) ",
                            "pt": "Canta? (Enter = não) ", "it": "Dichiari? (Invio = no) "},
    "play_not_offered": {"en": "{action} is not open to you now",
                         "es": "{action} no está a tu alcance ahora"},
    "play_prompt": {"en": "Your move (number, card, cante; ? rules, q quit): ",
                    "es": "Tu jugada (número, carta, cante; ? reglas, q salir): ",
                    "pt": "A sua jogada (número, carta, cante; ? regras, q sair): ",
                    "it": "La tua mossa (numero, carta, canto; ? regole, q esci): "},
    "play_bad_number": {"en": "there is no card {n}: choose 1 to {count}",
                        "es": "no hay carta {n}: elige de 1 a {count}",
                        "pt": "não há carta {n}: escolha de 1 a {count}",
                        "it": "non c'è la carta {n}: scegli da 1 a {count}"},
    "play_not_allowed": {"en": "{action} is not allowed now",
                         "es": "{action} no está permitido ahora"},
    "play_side_status": {"en": "{side}: {tricks} tricks, {points} points",
                         "es": "{side}: {tricks} bazas, {points} puntos",
                         "pt": "{side}: {tricks} vazas, {points} pontos",
                         "it": "{side}: {tricks} prese, {points} punti"},
    "play_stock": {"en": ", under a stock of {count}", "es": ", bajo un monte de {count}",
                   "pt": ", sob um monte de {count}", "it": ", sotto un tallone di {count}"},
    "play_trump": {"en": "Trump: {suit} {card}{where}", "es": "Triunfo: {suit} {card}{where}",
                   "pt": "Trunfo: {suit} {card}{where}", "it": "Briscola: {suit} {card}{where}"},
    "play_porotos_out": {"en": "out", "es": "fuera"},
    "play_auction": {"en": "Auction: highest bid {high}", "es": "Subasta: puja más alta {high}",
                     "pt": "Leilão: lance mais alto {high}", "it": "Asta: offerta più alta {high}"},
    "play_contract": {"en": "Contract: {who} plays alone for {bid}",
                      "es": "Contrato: {who} juega solo por {bid}",
                      "pt": "Contrato: {who} joga sozinho por {bid}",
                      "it": "Contratto: {who} gioca da solo per {bid}"},
    "play_cante_shown": {"en": "{who} sang {points} in {suit}: {cards}",
                         "es": "{who} cantó {points} en {suit}: {cards}",
                         "pt": "{who} cantou {points} em {suit}: {cards}",
                         "it": "{who} ha cantato {points} a {suit}: {cards}"},
    "play_table": {"en": "On the table: {cards}", "es": "En la mesa: {cards}",
                   "pt": "Na mesa: {cards}", "it": "In tavola: {cards}"},
    "play_counts": {"en": "Cards held: {counts}", "es": "Cartas en mano: {counts}",
                    "pt": "Cartas na mão: {counts}", "it": "Carte in mano: {counts}"},
    "play_your_hand": {"en": "Your hand:", "es": "Tu mano:", "pt": "A sua mão:",
                       "it": "La tua mano:"},
    "play_options": {"en": "You may: {options}", "es": "Puedes: {options}",
                     "pt": "Pode: {options}", "it": "Puoi: {options}"},
    "play_cards_ok": {"en": "cards {numbers}", "es": "cartas {numbers}",
                      "pt": "cartas {numbers}", "it": "carte {numbers}"},
    "play_declarations": {"en": "declare {options}", "es": "cantar {options}",
                          "pt": "cantar {options}", "it": "dichiarare {options}"},
    "play_bad_bots": {"en": "give one level for all computer players, or {count} levels",
                      "es": "indica un nivel para todos los jugadores de la máquina, o {count}"},
    "play_bad_names": {"en": "give {count} names", "es": "indica {count} nombres"},
    "play_welcome": {"en": "tute {variant} · seed {seed}", "es": "tute {variant} · semilla {seed}",
                     "pt": "tute {variant} · semente {seed}", "it": "tute {variant} · seme {seed}"},
    "play_help": {"en": "Play a card by its number or code (Ao, 3c); 20c, 40, tute, swap "
                        "when offered; ? shows the rules; q quits.",
                  "es": "Juega una carta por su número o su código (Ao, 3c); 20c, 40, tute, "
                        "swap cuando se ofrezcan; ? muestra las reglas; q sale.",
                  "pt": "Jogue uma carta pelo número ou código (Ao, 3c); 20c, 40, tute, swap "
                        "quando oferecidos; ? mostra as regras; q sai.",
                  "it": "Gioca una carta col suo numero o codice (Ao, 3c); 20c, 40, tute, swap "
                        "quando offerti; ? mostra le regole; q esce."},
    "play_trick_won": {"en": "-> {who} takes the trick", "es": "-> baza para {who}",
                       "pt": "-> vaza para {who}", "it": "-> presa a {who}"},
    "play_match_score": {"en": "Match: {score}", "es": "Partida: {score}",
                         "pt": "Partida: {score}", "it": "Partita: {score}"},
    "play_match_winner": {"en": "{side} wins the match!", "es": "¡{side} gana la partida!",
                          "pt": "{side} ganha a partida!", "it": "{side} vince la partita!"},
    "play_next_hand": {"en": "Enter for the next hand (q quits) ",
                       "es": "Enter para la siguiente mano (q sale) ",
                       "pt": "Enter para a próxima mão (q sai) ",
                       "it": "Invio per la mano successiva (q esce) "},
    "play_bye": {"en": "Goodbye.", "es": "Hasta la próxima.", "pt": "Até à próxima.",
                 "it": "Alla prossima."},
    "play_saved": {"en": "Record saved: {path}", "es": "Partida guardada en: {path}",
                   "pt": "Partida guardada em: {path}", "it": "Partita salvata in: {path}"},
    # -- the rules in force (? at the prompt) -------------------------------------
    "rules_variant": {"en": "{variant}: {players} players, {sides}",
                      "es": "{variant}: {players} jugadores, {sides}"},
    "rules_pairs": {"en": "in pairs (seats 0+2 against 1+3)",
                    "es": "por parejas (asientos 0+2 contra 1+3)"},
    "rules_each": {"en": "each for himself", "es": "cada uno por su cuenta"},
    "rules_deal": {"en": "{cards} cards each from a {deck}-card deck; {trump}",
                   "es": "{cards} cartas a cada uno de una baraja de {deck}; {trump}"},
    "rules_trump_dealer_last": {"en": "the dealer's last card shows trump",
                                "es": "la última carta del que reparte pinta el triunfo"},
    "rules_trump_turn_up": {"en": "the card turned under the stock shows trump and is drawn last",
                            "es": "la carta vuelta bajo el monte pinta y se roba la última"},
    "rules_trump_dead_turn_up": {"en": "the card turned up shows trump and is never drawn",
                                 "es": "la carta vuelta pinta y no se roba nunca"},
    "rules_trump_declarer": {"en": "the auction winner names trump",
                             "es": "el que gana la subasta elige el triunfo"},
    "rules_stock_none": {"en": "While the stock lasts any card may be played.",
                         "es": "Mientras hay monte se juega cualquier carta."},
    "rules_stock_trump_on_trump": {"en": "While the stock lasts: a trump led must be answered with a trump if you have one.",
                                   "es": "Mientras hay monte: a triunfo se responde con triunfo si se tiene."},
    "rules_stock_full": {"en": "Strict play from the first trick: follow, beat, trump.",
                         "es": "Juego estricto desde la primera baza: asistir, montar, fallar."},
    "rules_strict": {"en": "Once the stock is gone: follow suit, beat the best card if you can, trump if void.",
                     "es": "Sin monte: asistir al palo, montar si se puede, fallar si no se tiene."},
    "rules_strict_always": {"en": "Follow suit, beat the best card if you can, trump if void, overtrump if you can.",
                            "es": "Asistir al palo, montar si se puede, fallar si no se tiene, y montar al triunfo."},
    "rules_undertrump": {"en": "If you cannot overtrump you must still play a trump.",
                         "es": "Si no puedes montar al triunfo, debes echar triunfo igualmente."},
    "rules_partner_exception": {"en": "When your partner is winning you only follow suit.",
                                "es": "Si va ganando tu compañero, solo hay que asistir."},
    "rules_swap_seven": {"en": "The 7 of trumps takes a high turn-up (swap),",
                         "es": "El 7 de triunfo se cambia por la carta que pinta si es alta (swap),"},
    "rules_swap_seven_and_two": {"en": "The 7 of trumps takes a high turn-up, the 2 a 7-6-5-4 (swap),",
                                 "es": "El 7 de triunfo se cambia por una carta alta, el 2 por 7-6-5-4 (swap),"},
    "rules_swap_when_own_lead": {"en": "when you are to lead.", "es": "cuando te toca salir."},
    "rules_swap_when_after_won_trick": {"en": "when you lead after your side won a trick.",
                                        "es": "al salir, después de que tu lado gane una baza."},
    "rules_swap_when_anytime": {"en": "whenever you are to play.", "es": "siempre que te toque jugar."},
    "rules_cantes_winner": {"en": "Cantes (20, 40 in trumps): by the trick winner, before his lead.",
                            "es": "Cantes (20, y 40 en triunfo): los canta quien gana la baza, antes de salir."},
    "rules_cantes_winner_or_partner": {"en": "Cantes: the winner or his partner, one for the side per trick.",
                                       "es": "Cantes: el que gana la baza o su compañero, uno por baza."},
    "rules_cantes_both_one_each": {"en": "Cantes: both partners may sing one each after a won trick.",
                                   "es": "Cantes: cada compañero puede cantar uno tras ganar la baza."},
    "rules_cantes_declarer": {"en": "Cantes: only the declarer, after a trick he won.",
                              "es": "Cantes: solo el que ganó la subasta, tras ganar una baza."},
    "rules_forty_strict": {"en": "The 40 must come first; no 40 after a 20.",
                           "es": "Las cuarenta van primero; no se cantan después de unas veinte."},
    "rules_forty_if_held": {"en": "While you hold the 40 you sing it before any 20.",
                            "es": "Mientras tengas las cuarenta, van antes que las veinte."},
    "rules_forty_off": {"en": "Cantes in any order.", "es": "Los cantes, en cualquier orden."},
    "rules_sing_stock_only": {"en": "No cantes once the stock is gone.",
                              "es": "No se canta cuando se acaba el monte."},
    "rules_use_or_lose": {"en": "A cante not sung at the first chance is lost.",
                          "es": "El cante que no se canta a la primera se pierde."},
    "rules_no_tute": {"en": "No tute.", "es": "No hay tute."},
    "rules_tute_kings_or_knights": {"en": "Tute: the four reyes or the four caballos,",
                                    "es": "Tute: los cuatro reyes o los cuatro caballos,"},
    "rules_tute_kings": {"en": "Tute: the four reyes,", "es": "Tute: los cuatro reyes,"},
    "rules_tute_kings_and_knights": {"en": "Tute: the four reyes and the four caballos,",
                                     "es": "Tute: los cuatro reyes y los cuatro caballos,"},
    "rules_tute_win_hand": {"en": "wins the hand.", "es": "gana la mano."},
    "rules_tute_win_match": {"en": "wins the match.", "es": "gana la partida."},
    "rules_manilla": {"en": "Manilla (As and 3 of a suit): {points} points.",
                      "es": "Manilla (as y tres de un palo): {points} puntos."},
    "rules_contract": {"en": "Auction from {min} in steps of {step}; the declarer plays alone for his bid.",
                       "es": "Subasta desde {min} de {step} en {step}; el que la gana juega solo por lo pujado."},
    "rules_cabrero": {"en": "Each for himself: the middle place(s) and those without a trick take a poroto.",
                      "es": "Cada uno por su cuenta: el del medio y quien no hace baza se llevan un poroto."},
    "rules_highest": {"en": "Cards (A 11, 3 10, R 4, C 3, S 2) + {bonus} for the last trick + cantes: most points wins.",
                      "es": "Cartas (A 11, 3 10, R 4, C 3, S 2) + {bonus} de últimas + cantes: gana quien más suma."},
    "rules_match_first_to": {"en": "Match: the first to win {target} hand(s).",
                             "es": "Partida: gana quien antes gane {target} mano(s)."},
    "rules_match_series": {"en": "Match: {target} hands, most wins.",
                           "es": "Partida: {target} manos, gana quien gane más."},
    "rules_match_two_ahead": {"en": "Match: at least {target} hands won and two ahead.",
                              "es": "Partida: al menos {target} manos y dos de ventaja."},
    "rules_match_cumulative": {"en": "Match: points add up to {target}.",
                               "es": "Partida: se suman puntos hasta {target}."},
    "rules_match_elimination": {"en": "Match: {target} porotos and you are out; the last one left wins.",
                                "es": "Partida: con {target} porotos se queda fuera; gana el último."},
    "rules_commands": {"en": "Commands: a number or card code; 20c 40 tute swap; bid 70, pass, trump o; q.",
                       "es": "Órdenes: número o código de carta; 20c 40 tute swap; bid 70, pass, trump o; q."},
    "solver_needs_no_stock": {"en": "the solver needs every card known and none left to draw",
                              "es": "el solucionador necesita todas las cartas a la vista y nada que robar"},
    "solver_node_limit": {"en": "the solver stopped after {nodes} positions",
                          "es": "el solucionador se detuvo tras {nodes} posiciones"},
    "solver_hand_over": {"en": "the hand is over", "es": "la mano ha terminado"},
    "hand_not_over": {"en": "the hand is not over yet", "es": "la mano aún no ha terminado"},
    "match_over": {"en": "the match is over", "es": "la partida ha terminado"},
    "manilla_off": {"en": "manilla is not played in this game",
                    "es": "en este juego no se canta manilla"},
    # -- scenarios --------------------------------------------------------------
    "scenario_malformed": {"en": "malformed scenario: {why}",
                           "es": "escenario mal formado: {why}"},
    # -- demo -------------------------------------------------------------------
    "demo_header": {
        "en": "{variant}, seed {seed}, dealer seat {dealer}; trump {trump} ({card})",
        "es": "{variant}, semilla {seed}, reparte el asiento {dealer}; triunfo {trump} ({card})",
        "pt": "{variant}, semente {seed}, dá o lugar {dealer}; trunfo {trump} ({card})",
        "it": "{variant}, seme {seed}, distribuisce il posto {dealer}; briscola {trump} ({card})"},
    "demo_hand": {"en": "  seat {seat}: {cards}", "es": "  asiento {seat}: {cards}",
                  "pt": "  lugar {seat}: {cards}", "it": "  posto {seat}: {cards}"},
    "demo_trick": {"en": "trick {n:2}: {cards}  -> seat {seat}",
                   "es": "baza {n:2}: {cards}  -> asiento {seat}",
                   "pt": "vaza {n:2}: {cards}  -> lugar {seat}",
                   "it": "presa {n:2}: {cards}  -> posto {seat}"},
    "demo_cante": {"en": "  seat {seat} sings {points} in {suit}",
                   "es": "  el asiento {seat} canta {points} en {suit}",
                   "pt": "  o lugar {seat} canta {points} em {suit}",
                   "it": "  il posto {seat} canta {points} a {suit}"},
    "demo_swap": {"en": "  seat {seat} swaps; the turn-up is now {card}",
                  "es": "  el asiento {seat} cambia; ahora pinta {card}",
                  "pt": "  o lugar {seat} troca; agora o trunfo virado é {card}",
                  "it": "  il posto {seat} scambia; ora la carta girata è {card}"},
    "demo_tute": {"en": "  seat {seat} declares TUTE", "es": "  el asiento {seat} canta TUTE",
                  "pt": "  o lugar {seat} canta TUTE", "it": "  il posto {seat} dichiara TUTE"},
    "demo_side": {"en": "side {side}: cards {cards} + cantes {cantes} = {total}",
                  "es": "lado {side}: cartas {cards} + cantes {cantes} = {total}",
                  "pt": "lado {side}: cartas {cards} + cantes {cantes} = {total}",
                  "it": "parte {side}: carte {cards} + canti {cantes} = {total}"},
    "demo_winner": {"en": "side {side} wins the hand", "es": "gana la mano el lado {side}",
                    "pt": "o lado {side} ganha a mão", "it": "la parte {side} vince la mano"},
}


def _load_catalogs() -> None:
    """Merge the catalogs kept as data (``tute/catalog/*.json``: one object of keys, each
    with its text per language) into :data:`MESSAGES`."""
    folder = Path(__file__).parent / "catalog"
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for key, texts in data.items():
            if not key.startswith("_"):
                MESSAGES[key] = dict(texts)


_load_catalogs()


def render(key: str, params: Mapping[str, object], lang: str = "en") -> str:
    """The message ``key`` in ``lang`` with its parameters filled in."""
    texts = MESSAGES.get(key)
    if texts is None:
        return key if not params else f"{key}: {dict(params)}"
    template = texts.get(lang) or texts["en"]
    words: dict[str, object] = {}
    for name, value in params.items():
        if name.startswith("card") and isinstance(value, str):
            words[name] = card_name(value, lang)
        elif name == "suit":
            words[name] = suit_name(value, lang)
        else:
            words[name] = value
    try:
        return template.format(**words)
    except (KeyError, IndexError, ValueError):
        return template
