"""Every rule test of a live Rocambor engine (the online table ``roc-online``, its
server/tests at commit b8f840d) with what this project makes of it (issue 16): the list is
``tests/data/peer-rocambor.yaml``, its statuses explained in docs/living-family.md §3.3.

A case that ``plays`` names the rule file or test here that expresses it; one whose mechanism
is built but not switched on names the test of the mechanism; one that ``differs`` names the
page where the difference is argued. The figures of §3.3 are the list's.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
CASES = yaml.safe_load((ROOT / "tests/data/peer-rocambor.yaml").read_text(encoding="utf-8"))[
    "cases"
]
STATUSES = {"plays", "not-run", "mechanism", "differs", "not-a-rule"}
FAMILY = (ROOT / "docs/living-family.md").read_text(encoding="utf-8")


def test_every_peer_test_is_listed_once_with_a_status() -> None:
    per_file = Counter(c["file"] for c in CASES)
    # The peer's files at b8f840d: 63 tests in engine.test.ts, 74 in room.test.ts, 11 in
    # scoring.test.ts (docs/living-family.md §3.2).
    assert per_file == {"engine.test.ts": 63, "room.test.ts": 74, "scoring.test.ts": 11}
    keys = [(c["file"], c["test"]) for c in CASES]
    assert len(keys) == len(set(keys))
    assert {c["status"] for c in CASES} <= STATUSES


def test_every_rule_case_names_where_it_lives() -> None:
    for case in CASES:
        if case["status"] == "not-a-rule":
            assert "where" not in case, case
            continue
        where = ROOT / case["where"]
        assert where.is_file(), case


def _quoting_tests(source: str) -> dict[str, str]:
    """Returns, for each test function of a test file's ``source`` that asserts, the text it
    runs on: its source (with its comments), and the module-level lists its parametrize
    decorators name."""
    tree = ast.parse(source)
    lists = {
        target.id: ast.get_source_segment(source, node) or ""
        for node in tree.body
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    out: dict[str, str] = {}
    for node in tree.body:
        if not (isinstance(node, ast.FunctionDef) and node.name.startswith("test_")):
            continue
        if not any(isinstance(x, ast.Assert) for x in ast.walk(node)):
            continue  # a test that asserts nothing runs no assertion
        named = [
            lists.get(x.id, "")
            for d in node.decorator_list
            for x in ast.walk(d)
            if isinstance(x, ast.Name)
        ]
        out[node.name] = "\n".join([ast.get_source_segment(source, node) or "", *named])
    return out


def test_every_case_that_plays_is_a_test_here_that_runs_its_assertion() -> None:
    # A case counts as playing only where a test function here (a tests/test_*.py file that
    # loads the Rocambor variant) quotes its title in its own body or in the cases it is
    # parametrized over, and asserts: it re-expresses the peer's assertion (its hands, its
    # actions, its expected value). A rule that is merely in a rule file is filed as not-run.
    for case in CASES:
        if case["status"] != "plays":
            continue
        where = case["where"]
        assert re.fullmatch(r"tests/test_[\w]+\.py", where), case
        source = (ROOT / where).read_text(encoding="utf-8")
        quoting = [n for n, text in _quoting_tests(source).items() if case["test"] in text]
        assert quoting and '"tresillo-rocambor"' in source, case


def test_the_register_check_refuses_a_title_outside_a_test() -> None:
    # The check above can fail: a title quoted only in the module's docstring, or in a test
    # that asserts nothing, is not found; one in a parametrized list is.
    source = """\"\"\"a title in the docstring\"\"\"
import pytest

CASES = [("a title in the cases", 1)]


def test_nothing() -> None:
    # a title in a test that asserts nothing
    print(1)


@pytest.mark.parametrize(("title", "n"), CASES)
def test_cases(title: str, n: int) -> None:
    assert n == 1, title
"""
    quoted = " ".join(_quoting_tests(source).values())
    assert "a title in the cases" in quoted
    assert "a title in the docstring" not in quoted
    assert "a title in a test that asserts nothing" not in quoted


def test_the_cases_that_differ_or_wait_are_argued_on_the_family_page() -> None:
    section = " ".join(FAMILY.split("### 3.3", 1)[1].split("\n## ", 1)[0].split())
    for case in CASES:
        if case["status"] in ("differs", "mechanism"):
            assert case["test"] in section, case


def test_the_family_page_gives_the_lists_figures() -> None:
    section = FAMILY.split("### 3.3", 1)[1].split("\n## ", 1)[0]
    counts = Counter(c["status"] for c in CASES)
    rules = sum(v for k, v in counts.items() if k != "not-a-rule")
    found = re.search(
        r"Of the (\d+) rule tests, (\d+) play as the peer says in a test here that runs its"
        r" assertion, (\d+) are rules the variant has whose assertion no test here runs yet,"
        r" (?:(\d+) are written by a mechanism the variant does not switch on yet, )?and (\d+)"
        r" differ",
        " ".join(section.split()),
    )
    assert found is not None
    assert tuple(int(x or 0) for x in found.groups()) == (
        rules,
        counts["plays"],
        counts["not-run"],
        counts["mechanism"],
        counts["differs"],
    )
