"""The slowest tests open the workers' shares; every test still runs, once."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from slowfirst import LIST, arranged, shares, slowest


def test_the_slowest_open_each_workers_share_in_turn() -> None:
    ids = [f"t{i}" for i in range(20)]
    got = arranged(ids, ids, ["t19", "t18", "t17", "t3"], 4)
    assert [got[i] for i in (0, 5, 10, 15)] == ["t19", "t18", "t17", "t3"]
    assert [t for t in got if t not in ("t19", "t18", "t17", "t3")] == \
        [t for t in ids if t not in ("t19", "t18", "t17", "t3")]      # the rest in order
    assert shares(20, 4) == [5, 5, 5, 5] and shares(10, 4) == [2, 2, 3, 3]


def test_one_worker_or_nothing_slow_keeps_the_order() -> None:
    ids = ["a", "b", "c"]
    assert arranged(ids, ids, ["c"], 0) == ids
    assert arranged(ids, ids, ["c"], 1) == ids
    assert arranged(ids, ids, ["zz"], 2) == ids


@given(st.integers(0, 60), st.integers(0, 8), st.lists(st.integers(0, 80), max_size=30))
def test_every_test_runs_once_whatever_the_list(n: int, workers: int, slow: list[int]) -> None:
    ids = [f"t{i}" for i in range(n)]
    got = arranged(ids, ids, [f"t{i}" for i in slow], workers)
    assert sorted(got) == sorted(ids)


def test_the_list_names_tests_that_exist() -> None:
    """A renamed test left in the list would only lose its place: this says so."""
    listed = slowest(LIST)
    assert listed, "tests/slowest.txt is empty: remake it with scripts/slowest"
    here = LIST.parent.parent
    for test_id in listed:
        path, name = test_id.split("::", 1)
        assert (here / path).exists(), test_id
        assert f"def {name.split('[', 1)[0]}(" in (here / path).read_text("utf-8"), test_id
