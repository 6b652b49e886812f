"""The verifiable shuffle (``hmac-sha256-fy/1``): its documented test vector, a true
permutation without bias, every seed counting, and :func:`check` refusing a deck with
one card moved, a seed changed or a deal before its commitment."""

from __future__ import annotations

import collections
import dataclasses
import hashlib
import hmac

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tute.core.cards import deck
from tute.core.deal import deck_order
from tute.core.errors import InvalidDealError
from tute.core.game import Game
from tute.core.shuffle import (
    ALGORITHM,
    ShuffleProof,
    check,
    commitment,
    shuffled,
    shuffled_deck,
)
from tute.core.variants import parse_variant

ZERO = "00" * 32
# docs/verifiable-deals.md: the 40 cards shuffled with the server seed of 32 zero bytes,
# client seeds "ana" (seat 0) and none (seat 1), nonce 1
VECTOR = ("2c 5e So Re Sb 7e 3o Ce Cc 7b 7o 2b Cb 5o Ac 6o 3e 6e 4b 7c "
          "6b 4e Ae 2o Rb 3b Rc 2e 6c 4c 5c Ao Se Co 4o 5b Ab Ro 3c Sc")


def reference(cards: list[str], key: bytes, parts: list[str]) -> list[str]:
    """The algorithm as the documentation words it, written again apart."""
    message = "\x00".join(parts).encode("utf-8")
    numbers: list[int] = []
    block = 0
    out = list(cards)
    for i in range(len(out) - 1, 0, -1):
        while True:
            if not numbers:
                d = hmac.new(key, message + block.to_bytes(8, "big"), hashlib.sha256).digest()
                numbers = [int.from_bytes(d[k:k + 4], "big") for k in range(0, 32, 4)]
                block += 1
            x = numbers.pop(0)
            if x < 2**32 - 2**32 % (i + 1):
                break
        j = x % (i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def test_the_documented_vector() -> None:
    v = parse_variant("habanero")
    got = shuffled_deck(v, ZERO, ["ana", ""], 1)
    assert " ".join(c.code for c in got) == VECTOR
    assert commitment(ZERO) == hashlib.sha256(bytes(32)).hexdigest()
    canonical = [c.code for c in deck(40)]
    assert reference(canonical, bytes(32), [ALGORITHM, "1", "ana", ""]) == VECTOR.split()
    for k in range(20):                                # and on other seeds
        key = hashlib.sha256(bytes([k])).digest()
        mine = [c.code for c in shuffled(deck(40), key.hex(), [str(k), "", "z"], k)]
        assert mine == reference(canonical, key, [ALGORITHM, str(k), str(k), "", "z"])


def test_the_stream_is_the_documented_hmac() -> None:
    """The first swap, by hand: block 0's first 32-bit number, modulo 40."""
    message = "\x00".join([ALGORITHM, "1", "ana", ""]).encode()
    block = hmac.new(bytes(32), message + (0).to_bytes(8, "big"), hashlib.sha256).digest()
    x = int.from_bytes(block[:4], "big")
    assert x < 2**32 - 2**32 % 40          # not skipped
    cards = list(deck(40))
    j = x % 40
    assert shuffled_deck(parse_variant("habanero"), ZERO, ["ana", ""], 1)[39] == cards[j]


@settings(max_examples=60, deadline=None)
@given(st.binary(min_size=32, max_size=32), st.lists(st.from_regex(r"[0-9a-z]{0,8}",
                                                                   fullmatch=True),
                                                     min_size=2, max_size=4),
       st.integers(0, 10**6))
def test_a_permutation_and_every_seed_counts(key: bytes, clients: list[str], nonce: int
                                             ) -> None:
    seed = key.hex()
    cards = deck(40)
    a = shuffled(cards, seed, clients, nonce)
    assert sorted(a) == sorted(cards)
    assert shuffled(cards, seed, clients, nonce) == a           # deterministic
    assert shuffled(cards, seed, clients, nonce + 1) != a
    assert shuffled(cards, seed, [*clients[:-1], clients[-1] + "x"], nonce) != a
    other = bytes([key[0] ^ 1]) + key[1:]
    assert shuffled(cards, other.hex(), clients, nonce) != a


def test_no_card_prefers_a_place() -> None:
    """4,000 shuffles of 40 cards: where the first card ends, chi-square against even
    (39 degrees of freedom: 99.9 % of fair shuffles stay under 72.1)."""
    cards = deck(40)
    places: collections.Counter[int] = collections.Counter()
    n = 4000
    for k in range(n):
        out = shuffled(cards, hashlib.sha256(str(k).encode()).hexdigest(), [], 1)
        places[out.index(cards[0])] += 1
    expected = n / 40
    chi2 = sum((places[i] - expected) ** 2 / expected for i in range(40))
    assert chi2 < 72.1, chi2


@pytest.mark.parametrize(("seed", "clients", "nonce"), [
    ("zz" * 32, [], 1), ("00" * 31, [], 1), ("AB" * 32, [], 1), (ZERO, ["a b"], 1),
    (ZERO, ["x" * 65], 1), (ZERO, [], -1)])
def test_bad_seeds_are_refused_in_words(seed: str, clients: list[str], nonce: int) -> None:
    with pytest.raises(InvalidDealError) as e:
        shuffled(deck(40), seed, clients, nonce)
    assert e.value.localized("es")


def _dealt() -> tuple[ShuffleProof, Game]:
    proof = ShuffleProof(commitment(ZERO), ZERO, ((0, "ana", 5),), 1, 4, 9)
    return proof, Game.verifiable("parejas", proof)


def test_check_accepts_the_deal_and_refuses_each_tampering() -> None:
    proof, g = _dealt()
    v = g.variant
    order = deck_order(v, g.deal)
    assert check(proof, v, order, 4, 1) is None
    moved = [order[1], order[0], *order[2:]]                      # one card moved
    assert check(proof, v, moved, 4, 1) == ("verify_deck", {})
    changed = dataclasses.replace(proof, server_seed="11" * 32)   # another server seed
    assert check(changed, v, order, 4, 1) == ("verify_commitment", {})
    both = dataclasses.replace(changed, commitment=commitment("11" * 32))   # consistent
    assert check(both, v, order, 4, 1) == ("verify_deck", {})            # but not this deck
    client = dataclasses.replace(proof, client_seeds=((0, "bob", 5),))
    assert check(client, v, order, 4, 1) == ("verify_deck", {})
    early = dataclasses.replace(proof, committed=9, dealt=9)      # dealt, then committed
    assert check(early, v, order, 4, 1) == ("verify_dealt_first", {})
    late = dataclasses.replace(proof, client_seeds=((0, "ana", 3),))   # before the commitment
    assert check(late, v, order, 4, 1) == ("verify_client_order", {"seat": 0})
    hidden = dataclasses.replace(proof, server_seed="")
    assert check(hidden, v, order, 4, 1) == ("verify_unrevealed", {})
    assert check(proof, v, order, 4, 4) == ("verify_nonce", {"nonce": 1, "hand": 4})
    ghost = dataclasses.replace(proof, client_seeds=((0, "ana", 5), (7, "ghost", 6)))
    assert check(ghost, v, order, 4, 1) == ("shuffle_bad_client_seat", {"seat": 7})
    twice = dataclasses.replace(proof, client_seeds=((0, "fake", 5), (0, "ana", 6)))
    assert check(twice, v, order, 4, 1) == ("shuffle_bad_client_seat", {"seat": 0})
    other = dataclasses.replace(proof, algorithm="mt19937/1")
    assert check(other, v, order, 4, 1) == ("verify_algorithm", {"algorithm": "mt19937/1"})


def test_a_records_proof_round_trips_and_verifies() -> None:
    from tute.bots import make_bot
    from tute.core.driver import play_hand
    from tute.core.records import RecordError, format_record, parse_record, record_of_games
    from tute.tools.verify import verify_record

    proof, g = _dealt()
    play_hand(g, [make_bot("heuristic", seed=s) for s in range(4)])
    text = format_record(record_of_games([g], date="2026-12-03"))
    assert '[Shuffle "hmac-sha256-fy/1"]' in text and '[ClientSeeds "0=ana@5"]' in text
    record = parse_record(text)
    assert record.hands[0].proof == proof
    assert [c.verdict for c in verify_record(record)] == ["ok"]
    assert parse_record(format_record(record)) == record
    for bad, why in ((text.replace('[Nonce "1"]', '[Nonce "x"]'), "Nonce"),
                     (text.replace("0=ana@5", "0=a b@5"), "ClientSeeds"),
                     (text.replace("[Deck ", "[Seed \"1\"]\n[X "), "Deck")):
        with pytest.raises(RecordError) as e:
            parse_record(bad)
        assert why in str(e.value)


def test_verify_refuses_proofs_that_could_not_have_happened(tmp_path: object) -> None:
    """The review's crafted records: a seed for a seat that does not exist, a seat
    seeded twice, proof tags without their Shuffle, a nonce chosen by the server, a
    hand stripped of its proof after a verifiable one."""
    from tute.bots import make_bot
    from tute.core.driver import play_hand
    from tute.core.match import Match
    from tute.core.records import RecordError, format_record, parse_record, record_of_games
    from tute.tools.verify import verify_record

    m = Match("habanero(match_target=2)")
    games = []
    for h in range(1, 3):
        seed = hashlib.sha256(bytes([h])).hexdigest()
        proof = ShuffleProof(commitment(seed), seed, ((0, f"s{h}", 10 * h + 1),), h,
                             10 * h, 10 * h + 2)
        if h == 1:
            m = Match("habanero(match_target=2)", first_game=Game.verifiable(
                "habanero(match_target=2)", proof, 0))
        else:
            v, dealer = m.upcoming()
            m.deal_next(Game.verifiable(v, proof, dealer))
        play_hand(m.game, [make_bot("heuristic", seed=s) for s in range(2)])
        games.append(m.game)
        m.record_hand()
        if m.is_over:
            break
    text = format_record(record_of_games(games))
    assert {c.verdict for c in verify_record(parse_record(text))} == {"ok"}

    def verdicts(t: str) -> list[str]:
        return [c.why or c.verdict for c in verify_record(parse_record(t))]

    assert verdicts(text.replace("0=s1@11", "0=s1@11 7=ghost@11"))[0] == \
        "shuffle_bad_client_seat"
    assert verdicts(text.replace("0=s1@11", "0=fake@11 0=s1@11"))[0] == \
        "shuffle_bad_client_seat"
    assert verdicts(text.replace('[Nonce "1"]', '[Nonce "14"]'))[0] == "verify_nonce"
    with pytest.raises(RecordError):
        parse_record(text.replace('[Shuffle "hmac-sha256-fy/1"]\n', "", 1))
    if len(games) == 2:                          # the second hand's proof taken away
        head, _, tail = text.partition('[Hand "2"]')
        stripped = "\n".join(line for line in tail.splitlines()
                             if not line.startswith(("[Shuffle", "[Commitment",
                                                     "[ServerSeed", "[ClientSeeds",
                                                     "[Nonce", "[Committed", "[Dealt")))
        assert verdicts(head + '[Hand "2"]' + stripped) == ["ok", "verify_unproven"]
