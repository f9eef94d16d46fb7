"""The Python examples in docs/ run and print exactly the output the docs show."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"
_EXAMPLE = re.compile(
    r"```python\n((?:(?!```).)*?)```\s*\n+Output:\s*\n+```\n((?:(?!```).)*?)```", re.DOTALL
)


def _examples() -> list[tuple[str, str, str]]:
    found = []
    for path in sorted(DOCS.glob("*.md")):
        for k, match in enumerate(_EXAMPLE.finditer(path.read_text(encoding="utf-8"))):
            found.append((f"{path.name}#{k + 1}", match.group(1), match.group(2)))
    return found


EXAMPLES = _examples()


def test_the_docs_have_examples() -> None:
    assert EXAMPLES


@pytest.mark.parametrize(("name", "code", "expected"), EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_example_output(name: str, code: str, expected: str) -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, name, "exec"), {"__name__": "__docs__"})
    assert out.getvalue() == expected, f"{name}: update the example's output in docs/"


def test_the_readme_says_how_to_reach_the_command_before_using_it() -> None:
    readme = (DOCS.parent / "README.md").read_text(encoding="utf-8")
    quick = readme.split("## Quick start")[1].split("## The commands at a glance")[0]
    assert ". .venv/bin/activate" in quick and ".venv/bin/ombre" in quick
    # The console script the line names is the one the package declares.
    assert 'ombre = "engine.startup:main"' in (DOCS.parent / "pyproject.toml").read_text("utf-8")
