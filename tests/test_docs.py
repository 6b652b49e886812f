"""The documentation is checked like code: every ``pycon`` example in the README and
``docs/`` runs (doctest, the examples of a page sharing one namespace), every docstring
example of the library runs, and every link inside the repository points at a file that
exists (and at a heading that exists, when it names one).  No network: links to other
sites are not followed."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re
from pathlib import Path

import pytest

import tute

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
_FENCE = re.compile(r"^```pycon\n(.*?)^```", re.S | re.M)
_LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")
_CODE = re.compile(r"^```.*?^```", re.S | re.M)


def _name(page: Path) -> str:
    return str(page.relative_to(ROOT))


@pytest.mark.parametrize("page", [p for p in PAGES if "```pycon" in p.read_text("utf-8")],
                         ids=_name)
def test_the_examples_of_a_page_run(page: Path) -> None:
    blocks = _FENCE.findall(page.read_text(encoding="utf-8"))
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    namespace: dict[str, object] = {}
    for i, block in enumerate(blocks):
        test = parser.get_doctest(block, namespace, f"{_name(page)}[{i}]", str(page), 0)
        runner.run(test, clear_globs=False)
        namespace.update(test.globs)           # a DocTest works on a copy
    failed, tried = runner.summarize(verbose=False)
    assert tried > 0
    assert failed == 0, f"{failed} of {tried} examples of {_name(page)} failed (see above)"


def test_the_docstring_examples_of_the_library_run() -> None:
    tried_all = 0
    for info in pkgutil.walk_packages(tute.__path__, "tute."):
        if info.name.startswith(("tute.server", "tute.search.dds")):
            continue                           # optional packages; no examples there
        module = importlib.import_module(info.name)
        failed, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert failed == 0, info.name
        tried_all += tried
    assert tried_all > 0, "no docstring example found: the search is broken"


def _anchors(page: Path) -> set[str]:
    """The anchors of a Markdown page's headings, as GitHub and MkDocs make them."""
    text = _CODE.sub("", page.read_text(encoding="utf-8"))
    out = set()
    for heading in re.findall(r"^#+ +(.+?) *$", text, re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).strip().replace(" ", "-")
        out.add(slug)
    return out


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_every_link_inside_the_repository_works(page: Path) -> None:
    text = _CODE.sub("", page.read_text(encoding="utf-8"))
    bad = []
    for m in _LINK.finditer(text):
        target = m.group(1) or m.group(2)
        if re.match(r"[a-z][a-z0-9+.-]*:", target):       # http:, mailto: ...: not followed
            continue
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists() or (ROOT not in file.parents and file != ROOT):
            bad.append(f"{target}: no such file in the repository")
        elif anchor and file.suffix == ".md" and anchor not in _anchors(file):
            bad.append(f"{target}: no such heading")
    assert not bad, bad
