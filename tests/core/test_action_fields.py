"""An action's typed form, sent beside its text so that no client parses it: every
action has one, it names the action alone, and the text's form is the action's."""

from __future__ import annotations

from tute.core.actions import (
    FORTY,
    MANILLAS,
    NAME_TRUMPS,
    PASS,
    PLAYS,
    SWAP,
    TUTE,
    TWENTIES,
    Action,
    Bid,
    action_fields,
    parse_action,
    text_fields,
)

EVERY: list[Action] = [*PLAYS, *TWENTIES, *MANILLAS, *NAME_TRUMPS, FORTY, TUTE, SWAP, PASS,
                       *(Bid(n) for n in range(60, 250, 5))]


def test_every_action_has_a_typed_form_of_its_own() -> None:
    forms = [tuple(sorted(action_fields(a).items())) for a in EVERY]
    assert len(set(forms)) == len(EVERY)                       # no two the same
    kinds = {f["kind"] for f in map(action_fields, EVERY)}
    assert kinds == {"play", "twenty", "manilla", "trump", "forty", "tute", "swap", "pass",
                     "bid"}


def _text(f: dict[str, str | int]) -> str:
    """The action's text built again from its typed form alone."""
    kind = f["kind"]
    if kind == "play":
        return str(f["card"])
    if kind == "twenty":
        return f"20{f['suit']}"
    if kind in ("manilla", "trump"):
        return f"{kind} {f['suit']}"
    if kind == "bid":
        return f"bid {f['points']}"
    return "40" if kind == "forty" else str(kind)


def test_the_typed_form_says_what_the_text_says() -> None:
    for a in EVERY:
        f = dict(action_fields(a))
        assert text_fields(str(a)) == f
        assert parse_action(_text(f)) == a
