"""Deals anyone can verify: a documented, versioned shuffle driven by HMAC-SHA-256.

Before a hand the server publishes a *commitment*, the SHA-256 of a secret server seed
(32 random bytes); the players' clients then add seeds of their own; the deck -- the
variant's cards in their canonical order (:func:`tute.core.cards.deck`) -- is shuffled
by :func:`shuffled` from the server seed, the client seeds and a nonce; after the hand
the server seed is revealed.  Anyone can then check that it hashes to the commitment
and that it gives the deck that was dealt (``tute verify``).  The server could not
choose its seed knowing the clients' (it was committed first), and no client could
steer the deck (it never saw the server's seed).

Algorithm ``hmac-sha256-fy/1`` (:data:`ALGORITHM`), written out in
``docs/verifiable-deals.md`` with a test vector:

* the message is ``"hmac-sha256-fy/1" 0x00 nonce 0x00 seed_0 0x00 seed_1 ...`` in UTF-8,
  the nonce (the hand's number in its match) in decimal, one client seed per seat of the
  table in seat order ("" for a seat that gave none; an elimination match keeps the
  seats of those who are out);
* block ``i`` (``i`` = 0, 1, ...) of the random stream is HMAC-SHA-256 with the server
  seed's 32 bytes as its key over the message followed by ``i`` as 8 bytes big-endian;
  each block gives eight 32-bit numbers, big-endian, in order;
* a number below ``n`` is the next number ``x`` of the stream with ``x < 2**32 -
  2**32 % n`` (larger ones are skipped: no bias), taken modulo ``n``;
* Fisher-Yates: for ``i`` from the deck's size - 1 down to 1, swap card ``i`` with card
  ``j``, ``j`` the next number below ``i + 1``.  The result is the deck top card first,
  dealt as the variant deals (:func:`tute.core.deal.deal_from_deck`).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from tute.core.cards import Card
from tute.core.cards import deck as deck_cards
from tute.core.errors import InvalidDealError
from tute.core.variants import Variant

ALGORITHM = "hmac-sha256-fy/1"
_HEX64 = re.compile(r"[0-9a-f]{64}")
CLIENT_SEED = re.compile(r"[0-9A-Za-z_-]{1,64}")    # what a client may add


@dataclass(frozen=True, slots=True)
class ShuffleProof:
    """How a hand's deck was shuffled, and when (event numbers of the table's log): the
    commitment published at ``committed``, each client seed ``(seat, seed, event)``
    given after it, the hand dealt at ``dealt``.  ``server_seed``: hex, "" until
    revealed."""

    commitment: str
    server_seed: str
    client_seeds: tuple[tuple[int, str, int], ...]
    nonce: int
    committed: int
    dealt: int
    algorithm: str = ALGORITHM

    def seeds_by_seat(self, players: int) -> list[str]:
        """One client seed per seat of the match (``players``: its table's seats, also
        those out of an elimination match), "" where none was given."""
        out = [""] * players
        for seat, seed, _at in self.client_seeds:
            if not 0 <= seat < players or out[seat]:
                raise InvalidDealError("shuffle_bad_client_seat", seat=seat)
            out[seat] = seed
        return out


def new_server_seed() -> str:
    """A fresh secret server seed (hex of 32 random bytes)."""
    return secrets.token_hex(32)


def commitment(server_seed: str) -> str:
    """The SHA-256 of the server seed's bytes, in hex: what is published first."""
    return hashlib.sha256(_seed_bytes(server_seed)).hexdigest()


def _seed_bytes(server_seed: str) -> bytes:
    if not isinstance(server_seed, str) or not _HEX64.fullmatch(server_seed):
        raise InvalidDealError("shuffle_bad_server_seed")
    return bytes.fromhex(server_seed)


def _numbers(key: bytes, message: bytes) -> Iterator[int]:
    block = 0
    while True:
        digest = hmac.new(key, message + block.to_bytes(8, "big"), hashlib.sha256).digest()
        for k in range(0, 32, 4):
            yield int.from_bytes(digest[k:k + 4], "big")
        block += 1


def shuffled(cards: Sequence[Card], server_seed: str, client_seeds: Sequence[str],
             nonce: int) -> list[Card]:
    """``cards`` shuffled by :data:`ALGORITHM` (top card first)."""
    for s in client_seeds:
        if s and not CLIENT_SEED.fullmatch(s):
            raise InvalidDealError("shuffle_bad_client_seed")
    if not isinstance(nonce, int) or nonce < 0:
        raise InvalidDealError("shuffle_bad_nonce")
    parts = [ALGORITHM, str(nonce), *client_seeds]
    stream = _numbers(_seed_bytes(server_seed), "\x00".join(parts).encode())
    out = list(cards)
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        limit = 2**32 - 2**32 % n
        x = next(stream)
        while x >= limit:
            x = next(stream)
        j = x % n
        out[i], out[j] = out[j], out[i]
    return out


def shuffled_deck(variant: Variant, server_seed: str, client_seeds: Sequence[str],
                  nonce: int) -> list[Card]:
    """The variant's deck shuffled by :data:`ALGORITHM`."""
    return shuffled(deck_cards(variant.deck), server_seed, client_seeds, nonce)


def check(proof: ShuffleProof, variant: Variant, deck: Sequence[Card], seats: int,
          nonce: int) -> tuple[str, dict[str, object]] | None:
    """Why ``deck`` (top card first, of the hand's ``variant``) is not what ``proof``
    gives -- a message key of :mod:`tute.i18n` and its parameters -- or None: it is.
    ``seats``: the match's (one client seed each); ``nonce``: the hand's number in its
    match, the only nonce an honest deal has (any other would let the server try
    nonces until a deal suited it)."""
    if proof.algorithm != ALGORITHM:
        return "verify_algorithm", {"algorithm": proof.algorithm}
    if not proof.server_seed:
        return "verify_unrevealed", {}
    try:
        if commitment(proof.server_seed) != proof.commitment:
            return "verify_commitment", {}
        if proof.nonce != nonce:
            return "verify_nonce", {"nonce": proof.nonce, "hand": nonce}
        expected = shuffled_deck(variant, proof.server_seed, proof.seeds_by_seat(seats),
                                 proof.nonce)
    except InvalidDealError as e:
        return e.key, dict(e.params)
    if proof.dealt <= proof.committed:
        return "verify_dealt_first", {}
    for seat, _seed, at in proof.client_seeds:
        if not proof.committed < at < proof.dealt:
            return "verify_client_order", {"seat": seat}
    if list(deck) != expected:
        return "verify_deck", {}
    return None
