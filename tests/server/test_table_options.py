"""A table's options have one home (issue 47): the stored event and the table's value
are the same fields, made one from the other by name, and a table's options survive
the store's form whatever they are."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tute.core.variants import PRESETS, preset_variant
from tute.server.store import Event
from tute.server.tables.events import OptionsSet, stored, typed
from tute.server.tables.options import Fields, Options
from tute.server.tables.state import options_event, options_of

names = st.none() | st.text("abcdef0123456789", min_size=1, max_size=12)
options = st.builds(
    Options, st.sampled_from(sorted(PRESETS)).map(preset_variant),
    st.sampled_from(["random", "heuristic", "expert"]), st.floats(0, 600),
    competitive=st.booleans(), bet=st.integers(0, 1000), spectators=st.booleans(),
    chat_in_hand=st.booleans(), private=st.booleans(), series=names,
    series_deal=st.integers(0, 50), tourney=names, tourney_round=st.integers(0, 9),
    tourney_board=st.integers(0, 99), bots=st.sampled_from(["no", "yes", "only"]))


def test_the_event_and_the_value_are_one_list_of_fields() -> None:
    assert OptionsSet.__struct_fields__ == Options.__struct_fields__ == Fields.__struct_fields__
    assert len(Fields.__struct_fields__) == 14


@given(options)
def test_options_survive_the_store(o: Options) -> None:
    e = stored(1, options_event(o))
    back = typed(Event(e.seq, e.kind, e.data))
    assert isinstance(back, OptionsSet)
    assert options_of(back) == o
    assert e.data["variant"] == str(o.variant)          # the stored form: the text


def test_an_old_options_event_reads_with_its_defaults() -> None:
    old = typed(Event(1, "options", {"variant": "habanero", "robot_level": "random",
                                     "move_seconds": 0}))
    assert isinstance(old, OptionsSet)
    o = options_of(old)
    assert (o.competitive, o.bet, o.spectators, o.bots, o.series) == (False, 0, True, "no",
                                                                       None)
