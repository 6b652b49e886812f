"""An analysis of a hand as the store keeps it and the review page reads it, typed.

A judged decision (:class:`Judged`) is kept with its reasons in every language; the page
gets it in one (:class:`DecisionWords`), with the hand's accuracy and points lost
(:class:`AnalysisDone`).  How an analysis stands is one of four answers, told apart by
``status``: none, running (how far), failed (why), done.
"""

from __future__ import annotations

import msgspec


class Valued(msgspec.Struct):
    """What a move was worth: its winning chance, margin and score, over how many deals."""

    action: str
    win: float
    margin: float
    score: float
    samples: int


class Judged(msgspec.Struct):
    """One decision, judged: the move played and the best, the loss and its grade, and
    the reasons in every language (``why``, ``why_not``: lists by language; ``lost``,
    ``equal_words``: one sentence by language)."""

    index: int
    trick: int
    played: str
    forced: bool
    exact: bool
    samples: int
    settled: bool
    timed_out: bool
    grade: str
    best: str
    equal: list[str]
    loss: float
    loss_win: float
    loss_points: float
    values: list[Valued]
    why: dict[str, list[str]]
    why_not: dict[str, list[str]]
    lost: dict[str, str]
    equal_words: dict[str, str]


class ValuedWords(Valued):
    """A move's worth, with the move in words."""

    words: str


class DecisionWords(msgspec.Struct):
    """A judged decision in the page's language (a reason said just before is not
    said again), the moves in words."""

    index: int
    trick: int
    played: str
    forced: bool
    exact: bool
    samples: int
    settled: bool
    timed_out: bool
    grade: str
    best: str
    equal: list[str]
    loss: float
    loss_win: float
    loss_points: float
    values: list[ValuedWords]
    why: list[str]
    why_not: list[str]
    lost: str
    equal_words: str
    played_words: str
    best_words: str


class AnalysisNone(msgspec.Struct, tag="none", tag_field="status"):
    """Nobody asked for this analysis (or it was forgotten after failing)."""


class AnalysisRunning(msgspec.Struct, tag="running", tag_field="status"):
    """Being judged: ``done`` decisions of ``total``."""

    done: int
    total: int


class AnalysisFailed(msgspec.Struct, tag="failed", tag_field="status"):
    """It failed (said for a while, then forgotten): why, in the page's language."""

    error: str


class AnalysisDone(msgspec.Struct, tag="done", tag_field="status"):
    """The hand judged: every decision, the accuracy (%) and the points lost."""

    decisions: list[DecisionWords]
    accuracy: float
    points_lost: float


AnalysisState = AnalysisNone | AnalysisRunning | AnalysisFailed | AnalysisDone


class OpenLineWords(msgspec.Struct):
    """"¿Podía ganar?": from one of the seat's decisions, the best play for both sides
    with every card known (``line``: "seat:action" in order), each side's points at its
    end, whether the seat's side would have won, and the line in the page's words."""

    hand: int
    index: int
    trick: int
    played: str
    best: str | None
    line: list[str]
    totals: list[int]
    won: bool | None
    played_best: bool
    text: str


class OpenLines(msgspec.Struct):
    """A hand face up, from each of a seat's decisions."""

    lines: list[OpenLineWords]
