"""``tute verify RECORD...``: every deal of a record derived again from its seeds.

A hand dealt by ``tute serve`` carries its verifiable shuffle (:mod:`tute.core.shuffle`):
the commitment published before the deal, the server seed revealed after the hand, the
seeds the players' clients added, the nonce and the event numbers of the commitment,
each client seed and the deal.  :func:`verify_record` checks each hand -- the seed
hashes to the commitment, the deck dealt is the one the seeds give, the commitment came
before the seeds and the deal -- and, across hands, that no commitment served twice and
each hand's commitment came after the hand before it was dealt, and no hand after a
verifiable one comes without its proof.
"""

from __future__ import annotations

from dataclasses import dataclass

from tute.core.records import GameRecord, replay
from tute.core.shuffle import check
from tute.i18n import render


@dataclass(frozen=True, slots=True)
class HandCheck:
    """One hand's verdict: ``ok`` (derived again and equal), ``none`` (dealt without a
    verifiable shuffle: from a seed, or a kept hand played again) or ``bad`` (with why:
    a message key and its parameters)."""

    hand: int
    verdict: str
    why: str = ""
    params: tuple[tuple[str, object], ...] = ()

    def text(self, lang: str) -> str:
        if self.verdict == "ok":
            return render("verify_hand_ok", {"hand": self.hand}, lang)
        if self.verdict == "none":
            return render("verify_hand_none", {"hand": self.hand}, lang)
        why = render(self.why, dict(self.params), lang)
        return render("verify_hand_bad", {"hand": self.hand, "why": why}, lang)


def verify_record(record: GameRecord) -> list[HandCheck]:
    """Each hand of ``record`` checked against its shuffle's proof."""
    games = replay(record).games
    out: list[HandCheck] = []
    last_dealt = -1
    seen: set[str] = set()
    for h, (hand, game) in enumerate(zip(record.hands, games, strict=True), start=1):
        proof = hand.proof
        if proof is None or hand.deck is None:
            # an honest table deals every hand after its first verifiable one from a
            # commitment: a hand without one after it is a proof taken away
            out.append(HandCheck(h, "bad", "verify_unproven") if seen else HandCheck(h, "none"))
            continue
        why = check(proof, game.variant, hand.deck, record.variant.players, h)
        if why is None and proof.commitment in seen:
            why = "verify_reused", {}
        if why is None and proof.committed < last_dealt:
            why = "verify_stale", {}
        seen.add(proof.commitment)
        last_dealt = proof.dealt
        out.append(HandCheck(h, "ok") if why is None
                   else HandCheck(h, "bad", why[0], tuple(why[1].items())))
    return out
