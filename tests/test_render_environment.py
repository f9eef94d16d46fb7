"""One jinja2 environment (engine/render) for every text, page and chart."""

from __future__ import annotations

import ast
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

from engine import load_ruleset
from engine.compare import compare, render_svg, render_text
from engine.render import environment

ROOT = Path(__file__).resolve().parent.parent


def test_no_module_but_engine_render_builds_a_jinja2_environment() -> None:
    builders = {"Environment", "Template", "FileSystemLoader"}
    found = []
    for path in sorted((ROOT / "engine").rglob("*.py")):
        if path.parent.name == "render":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "jinja2":
                found += [f"{path}: {a.name}" for a in node.names if a.name in builders]
            elif (
                isinstance(node, ast.Attribute)
                and node.attr in builders
                and isinstance(node.value, ast.Name)
                and node.value.id == "jinja2"
            ):
                found.append(f"{path}: jinja2.{node.attr}")
    assert found == []


def test_the_chart_escapes_what_xml_needs() -> None:
    report = compare(load_ruleset("ombre"), load_ruleset("ombre-1-4-4-codille"), 20).report()
    a, b = report.rulesets
    report = replace(report, rulesets=(a, replace(b, name='A <b> & "c"')))
    svg = render_svg(report)
    ET.fromstring(svg)  # still well-formed
    assert "A &lt;b&gt; &amp; &quot;c&quot;" in svg
    assert "Ombre (l'Hombre)" in svg  # an apostrophe reads as it is, as it always did


def test_the_comparison_table_is_rendered_by_the_shared_text_environment() -> None:
    report = compare(load_ruleset("quadrille"), load_ruleset("quadrille"), 10).report()
    text = render_text(report)
    assert text.startswith("Quadrille (quadrille) against Quadrille (quadrille)\n")
    assert environment("svg") is environment("svg")
    assert environment("svg").autoescape and not environment("text").autoescape


_RENDERERS = {"render", "render_cached", "chart_data", "table_rows"}


def _renders(call: ast.Call) -> bool:
    func = call.func
    name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
    return name in _RENDERERS or name.startswith("render_")


def _holds_as_json(node: ast.AST, names: set[str]) -> bool:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call) and getattr(sub.func, "attr", "") == "as_json":
            return True
        if isinstance(sub, ast.Name) and sub.id in names:
            return True
    return False


def _fed_documents(tree: ast.AST) -> list[int]:
    """Returns the lines where a renderer is called with an ``as_json()`` document, directly or
    through a name a function binds to one."""
    lines = []
    for func in ast.walk(tree):
        if func is not tree and not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        documents: set[str] = set()  # the names bound to a document (in a function)
        for node in ast.walk(func) if func is not tree else ():
            if isinstance(node, ast.Assign) and _holds_as_json(node.value, set()):
                documents |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        for node in ast.walk(func):
            if isinstance(node, ast.Call) and _renders(node):
                args = [*node.args, *(k.value for k in node.keywords)]
                if any(_holds_as_json(a, documents) for a in args):
                    lines.append(node.lineno)
    return sorted(set(lines))


def test_no_template_is_fed_a_json_document() -> None:
    """Templates receive typed objects: no renderer of engine/ is called with an ``as_json()``
    document, directly or through a name bound to one in the same function (as ``ombre
    simulate --against`` once rendered ``compare(...).as_json()``). ``as_json`` is the
    ``--json`` output only."""
    found = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in sorted((ROOT / "engine").rglob("*.py"))
        for line in _fed_documents(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert found == []


def test_the_check_finds_a_json_document_fed_to_a_renderer() -> None:
    """The check above finds what it looks for."""
    bad = ast.parse(
        "def f(c):\n    report = c.as_json()\n    return render_svg(report)\n"
        "def g(c):\n    return render('x.j2', 'text', r=c.report().as_json())\n"
        "def h(c):\n    return render('x.j2', 'text', r=c.report())\n"
    )
    assert _fed_documents(bad) == [3, 5]
