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
