"""The snapshots of the documents' outputs: name -> the function that renders it now.

tests/test_snapshots.py compares each with the file of that name here; ``python
tools/gen_docs.py`` (``make docs``) rewrites them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
BELINDA = ROOT / "docs" / "examples" / "belinda.yaml"


def _story() -> object:
    from engine import load_ruleset
    from engine.documents.deal_page import replay_story
    from engine.records import read_record

    record = read_record(BELINDA)
    return replay_story(record, load_ruleset(record.ruleset), "docs/examples/belinda.yaml")


def _deal_page(fmt: str) -> Callable[[], str]:
    def make() -> str:
        from engine.documents.site import render_deal_page

        return render_deal_page(_story(), "html" if fmt == "html" else "md")

    return make


def _replay_text() -> str:
    from engine.render import render

    return render("replay.txt.j2", "text", story=_story())


def _show(name: str) -> Callable[[], str]:
    def make() -> str:
        from engine import load_ruleset
        from engine.documents.book import rule_view
        from engine.render import render

        return render("show.txt.j2", "text", view=rule_view(load_ruleset(name), worked=False))

    return make


def _claims() -> str:
    from engine.documents.claims import evaluate, load_claims
    from engine.render import render

    return render("claims.txt.j2", "text", evaluations=evaluate(load_claims()))


def _diff() -> str:
    from engine import load_ruleset
    from engine.documents.diff import diff_rulesets
    from engine.render import render

    return render(
        "diff.txt.j2",
        "text",
        diff=diff_rulesets(load_ruleset("quadrille"), load_ruleset("quadrille-four-trick-bete")),
    )


SNAPSHOTS: dict[str, Callable[[], str]] = {
    "belinda.md": _deal_page("md"),
    "belinda.html": _deal_page("html"),
    "belinda-replay.txt": _replay_text,
    "show-mediateur.txt": _show("mediateur"),
    "claims.txt": _claims,
    "diff-quadrille-four-trick-bete.txt": _diff,
}
"""Each snapshot file and how to render it."""
