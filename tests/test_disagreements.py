"""Every disagreement between the sources has a home, and every home exists.

The register is ``claims/disagreements.yaml`` (see :mod:`engine.disagreements`). A home is a
canonical rule file, a variant, a setup option, a claim or a heading of docs/decisions.md. Claim
ids are checked once a claims register exists beside it (``claims/*.yaml``); until then they
are accepted.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine import load_ruleset
from engine.documents.disagreements import Disagreement, load_disagreements
from engine.errors import RuleFileError

ROOT = Path(__file__).resolve().parent.parent


def load(path: Path) -> list[Disagreement]:
    register = load_disagreements(path)
    assert register is not None, f"{path} is missing"
    return list(register)


def number(d: Disagreement) -> int | None:
    found = re.match(r"§3\.(\d+)\b", d.reference)
    return int(found.group(1)) if found else None


def markdown_headings(text: str) -> set[str]:
    """Returns the text of every Markdown heading (``## Amounts`` gives ``Amounts``)."""
    return {m.group(1).strip() for m in re.finditer(r"^#{1,6}\s+(.+?)\s*#*\s*$", text, re.M)}


def check(
    register: list[Disagreement],
    *,
    sources: set[str],
    rulesets: set[str],
    variants: set[str],
    options: set[str],
    decisions: set[str],
    claims: set[str] | None,
) -> list[str]:
    """Returns a message for every reading whose source or home does not exist (claim ids are
    not checked when ``claims`` is None)."""
    problems: list[str] = []
    for d in register:
        for r in d.readings:
            at = f"{d.id}: {r.source} ({r.locator})"
            if r.source not in sources:
                problems.append(f"{at}: no rule file's sources table has {r.source!r}")
            known = {
                "canonical": rulesets,
                "variant": variants,
                "option": options,
                "decision": decisions,
                "claim": claims,
            }[r.home.kind]
            if known is not None and r.home.ref not in known:
                problems.append(f"{at}: its home, {r.home.kind} {r.home.ref!r}, does not exist")
    return problems


REGISTER = ROOT / "claims" / "disagreements.yaml"
CITING = sorted(
    [
        *ROOT.glob("rules/*.yaml"),
        *ROOT.glob("variants/*.yaml"),
        *ROOT.glob("claims/*.yaml"),
        *ROOT.glob("docs/*.md"),
        *ROOT.glob("sources/*.yaml"),
        *ROOT.glob("templates/**/*.j2"),
    ]
)


def _ids(folder: str) -> set[str]:
    return {p.stem for p in (ROOT / folder).glob("*.yaml")}


def _sources() -> set[str]:
    found: set[str] = set()
    for path in [*ROOT.glob("rules/*.yaml"), *ROOT.glob("variants/*.yaml")]:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        found |= set((data.get("sources") or {}).keys())
    return found


def _options() -> set[str]:
    out: set[str] = set()
    for name in _ids("rules") | _ids("variants"):
        out |= {f"{name}:{key}" for key in load_ruleset(name).options}
    return out


def _claim_ids() -> set[str] | None:
    files = [p for p in (ROOT / "claims").glob("*.yaml") if p.name != REGISTER.name]
    if not files:
        return None
    ids: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("id"), str):
                ids.add(node["id"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for path in files:
        walk(yaml.safe_load(path.read_text(encoding="utf-8")))
    return ids


def test_every_home_exists() -> None:
    register = load(REGISTER)
    decisions = markdown_headings((ROOT / "docs" / "decisions.md").read_text(encoding="utf-8"))
    problems = check(
        register,
        sources=_sources(),
        rulesets=_ids("rules"),
        variants=_ids("variants"),
        options=_options(),
        decisions=decisions,
        claims=_claim_ids(),
    )
    assert problems == []


def test_homes_load() -> None:
    """A canonical or variant home is a rule file that loads, of the kind it says."""
    for d in load(REGISTER):
        for r in d.readings:
            if r.home.kind in ("canonical", "variant"):
                ruleset = load_ruleset(r.home.ref)
                want = "ruleset" if r.home.kind == "canonical" else "variant"
                assert ruleset.kind == want, f"{d.id}: {r.home.ref} is a {ruleset.kind}"


def test_the_register_is_numbered_without_gaps() -> None:
    """The register numbers its disagreements §3.1, §3.2, ... in order, each once, each with at
    least two readings (a disagreement needs two sides)."""
    register = load(REGISTER)
    numbers = [number(d) for d in register]
    assert None not in numbers
    assert numbers == list(range(1, len(register) + 1))
    assert all(len(d.readings) >= 2 for d in register), [
        d.id for d in register if len(d.readings) < 2
    ]


def test_every_cited_disagreement_exists() -> None:
    """A rule file, claim, source or document citing "docs/disagreements.md §3.N" (or a range
    §3.N-M) names an entry of the register."""
    known = {number(d) for d in load(REGISTER)}
    problems = []
    for path in CITING:
        text = path.read_text(encoding="utf-8")
        for found in re.finditer(r"disagreements\.md[^§\n]{0,3}((?:,? ?§3\.\d+(?:-\d+)?)+)", text):
            for first, last in re.findall(r"§3\.(\d+)(?:-(\d+))?", found.group(1)):
                for n in range(int(first), int(last or first) + 1):
                    if n not in known:
                        problems.append(f"{path.relative_to(ROOT)}: §3.{n} is not in the register")
    assert problems == []


def test_no_citation_of_a_document_the_repository_does_not_hold() -> None:
    """The research's rules reference is not shipped: nothing cites it."""
    offenders = [
        str(path.relative_to(ROOT))
        for path in [*CITING, *ROOT.glob("tests/*.py"), *ROOT.glob("engine/**/*.py")]
        if "rules" + "-reference" in path.read_text(encoding="utf-8")
    ]
    assert offenders == []


def test_a_missing_home_is_reported(tmp_path: Path) -> None:
    bad = tmp_path / "disagreements.yaml"
    bad.write_text(
        "disagreements:\n"
        "  - id: x\n    topic: t\n    reference: '§3.1 x'\n    readings:\n"
        "      - {source: enc-q, locator: l, reading: r, home: {kind: variant, ref: nowhere}}\n"
        "      - {source: nobody, locator: l, reading: r, home: {kind: decision, ref: Amounts}}\n",
        encoding="utf-8",
    )
    problems = check(
        load(bad),
        sources={"enc-q"},
        rulesets={"quadrille"},
        variants=set(),
        options=set(),
        decisions={"Amounts"},
        claims=None,
    )
    assert len(problems) == 2
    assert "variant 'nowhere', does not exist" in problems[0]
    assert "'nobody'" in problems[1]
    bad.write_text(
        "disagreements:\n  - id: x\n    topic: t\n    reference: '§3.1 x'\n    readings:\n"
        "      - {source: enc-q, locator: l, reading: r, home: {kind: house, ref: x}}\n",
        encoding="utf-8",
    )
    with pytest.raises(RuleFileError, match="home kind 'house'"):
        load(bad)


def test_docs_table_is_current() -> None:
    spec = importlib.util.spec_from_file_location(
        "gen_disagreements", ROOT / "tools" / "gen_disagreements.py"
    )
    assert spec is not None and spec.loader is not None
    gen_disagreements = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen_disagreements)
    page = (ROOT / "docs" / "disagreements.md").read_text(encoding="utf-8")
    assert page == gen_disagreements.render(load(REGISTER)), (
        "docs/disagreements.md is stale: run python tools/gen_disagreements.py"
    )
