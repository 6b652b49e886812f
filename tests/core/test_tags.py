"""The tag pairs and notes both record formats write and read (tute.core.tags)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tute.core.tags import escape_note, quote, read_tag, tag_line

_names = st.from_regex(r"[A-Za-z][A-Za-z0-9]{0,12}", fullmatch=True)
_values = st.text(st.characters(exclude_categories=["Cs"], exclude_characters="\n\r"),
                  max_size=40)


@given(_names, _values)
def test_a_tag_reads_back_as_written(name: str, value: str) -> None:
    assert read_tag(tag_line(name, value)) == (name, value)


def test_escapes_and_what_is_no_tag() -> None:
    assert quote('a "b" \\c') == '"a \\"b\\" \\\\c"'
    assert read_tag('[Event "x \\" y"]') == ("Event", 'x " y')
    for line in ('[Event x]', '[1Event "x"]', 'Event "x"', '[Event "x"', '[Event "a"b"]'):
        assert read_tag(line) is None, line
    assert escape_note("a}b\\") == "a\\}b\\\\"
