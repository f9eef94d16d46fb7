"""``ombre new``: a commented starter variant, ready to edit.

The starter extends a parent ruleset or variant, carries the schema line (so editors complete
and check it), validates as written, and shows in comments how to change the rules an author
most often changes, with the parent's own values and the basis each change needs. The guide is
``docs/authoring.md``.
"""

from __future__ import annotations

import os
import re
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.errors import NotationError
from engine.rules.authoring import PLACEHOLDER_NOTE, PLACEHOLDER_SUMMARY
from engine.rules.emitter import commented, quoted, scalar

if TYPE_CHECKING:
    from engine.rules.model import RuleSet

__all__ = ["check_name", "starter_path", "starter_text", "write_starter"]

_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")


def check_name(name: str) -> str:
    """Returns ``name`` if it can be a rule-file id (lower-case words joined by ``-``).

    :raises NotationError: otherwise, suggesting an id.
    """
    if _ID.match(name):
        return name
    import unicodedata

    folded = unicodedata.normalize("NFKD", name.strip().lower())
    plain = "".join(ch for ch in folded if not unicodedata.combining(ch))
    suggestion = re.sub(r"[^a-z0-9]+", "-", plain).strip("-")
    hint = f"; try {suggestion!r}" if suggestion and _ID.match(suggestion) else ""
    raise NotationError(
        f"{name!r} cannot be an id: use lower-case letters, digits and '-' (as in "
        f"'quadrille-four-trick-bete'){hint}"
    )


def starter_path(name: str, out: Path | None, variants_dir: Path) -> Path:
    """Returns where the starter goes: ``out``, else ``variants/NAME.yaml`` of the checkout
    (when it is the working directory's), else ``NAME.yaml`` in the working directory."""
    if out is not None:
        return out
    here = Path.cwd() / "variants"
    if here.is_dir() and here.resolve() == variants_dir.resolve():
        return here / f"{name}.yaml"
    return Path.cwd() / f"{name}.yaml"


def _strip_bases(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip_bases(v) for k, v in value.items() if k != "basis"}
    if isinstance(value, list):
        return [_strip_bases(v) for v in value]
    return value


def starter_text(name: str, parent: RuleSet, target: Path, schema: Path) -> str:
    """Returns the starter file for a variant ``name`` of ``parent``, to be written at ``target``.

    The schema line is relative to the target's folder. Everything past the header is comments
    except the file's own keys, so the starter validates as written.
    """
    lines = _header_lines(name, parent, target, schema)
    threshold, change = _threshold_example(parent)
    lines += threshold
    lines += _change_examples(parent, change)
    return "\n".join(lines)


def _header_lines(name: str, parent: RuleSet, target: Path, schema: Path) -> list[str]:
    """Returns the starter's opening lines: the schema line, the guide in comments, the
    variant's own keys (id, name, extends, summary) and the commented sources to fill in."""
    schema_ref = Path(os.path.relpath(schema, target.resolve().parent)).as_posix()
    parent_file = "/".join(Path(parent.file).parts[-2:])
    sources = textwrap.wrap(
        "Sources you cite that the parent's table lacks (its own are inherited: "
        + ", ".join(sorted((parent.plain(("sources",)) or {}).keys()))
        + ").",
        width=94,
    )
    return [
        f"# yaml-language-server: $schema={schema_ref}",
        "#",
        f"# {name}: a variant of {parent.name} ({parent.id}, {parent_file}).",
        "#",
        "# State only what changes: every key not written here is the parent's. Mappings merge key",
        "# by key; a list or a value replaces the parent's; {$append: [...]}, {$remove: [...]} and",
        "# {$delete: true} edit the parent's lists and keys. Each change needs a basis of its own",
        "# (evidence attested | inferred | disputed | conjecture, and a cite for attested or",
        "# disputed), or `ombre validate` refuses it. Guide: docs/authoring.md; format:",
        "# docs/rule-format.md.",
        f"id: {scalar(name)}",
        f"name: {quoted(parent.name + ', ' + name)}",
        f"extends: {scalar(parent.id)}",
        "summary: >-",
        *textwrap.wrap(
            f"{parent.name} {PLACEHOLDER_SUMMARY}",
            width=88,
            initial_indent="  ",
            subsequent_indent="  ",
        ),
        "",
        *(f"# {text}" for text in sources),
        "# sources:",
        "#   my-house:",
        '#     title: "The rules of our club (2024)"',
        "#     kind: house          # primary | secondary | modern | house",
        "",
    ]


def _threshold_example(parent: RuleSet) -> tuple[list[str], dict[str, Any]]:
    """Returns the commented example of a threshold (the parent's sharing of a lost game when
    it has a sole-liability threshold, else its vole) and the change of it to show, with the
    basis a change needs."""
    basis = {
        "evidence": "attested",
        "cite": [
            {
                "source": "my-house",
                "locator": "rule 7",
                "quote": "a sentence at most, in the source's own spelling",
            }
        ],
        "note": PLACEHOLDER_NOTE,
    }
    sharing = parent.plain(("settlement", "sharing")) or {}
    if sharing.get("sole_liability_below") is not None:
        lines = ["# Example: a threshold. The parent's sharing of a lost game:"]
        lines += commented({"settlement": {"sharing": _strip_bases(sharing)}})
        change: dict[str, Any] = {
            "settlement": {
                "sharing": {
                    "sole_liability_below": int(sharing["sole_liability_below"]) + 1,
                    "basis": basis,
                }
            }
        }
    else:
        vole = _strip_bases(parent.plain(("vole",)) or {})
        lines = ["# Example: a threshold. The parent's vole:"]
        lines += commented({"vole": vole})
        change = {"vole": {"after_tricks": int(vole.get("after_tricks", 1)) + 1, "basis": basis}}
    return lines, change


def _change_examples(parent: RuleSet, change: dict[str, Any]) -> list[str]:
    """Returns the starter's closing examples: the threshold's change with its basis, the
    parent's stakes (a list replaced whole) and a contract changed or added."""
    contracts = parent.plain(("auction", "contracts")) or {}
    stakes = _strip_bases(parent.plain(("settlement", "stakes")) or [])
    first_contract = next(iter(contracts), "ask")
    return [
        "# Change one value and give the rule's basis whole, for instance:",
        *commented(change),
        "",
        "# Example: the stakes, a list replaced whole (each item with its basis). The parent's:",
        *commented({"settlement": {"stakes": stakes}}),
        "",
        f"# Example: a contract changed or added. The parent's: {', '.join(contracts)}.",
        *commented(
            {
                "auction": {
                    "contracts": {
                        first_contract: {
                            "matchable": False,
                            "basis": {
                                "evidence": "conjecture",
                                "note": "No source says; our house's choice.",
                            },
                        }
                    }
                }
            }
        ),
        "",
    ]


def write_starter(name: str, parent: RuleSet, target: Path, schema: Path) -> Path:
    """Writes the starter at ``target``; never overwrites.

    :raises FileExistsError: when ``target`` exists.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    text = starter_text(name, parent, target, schema)
    with target.open("x", encoding="utf-8") as handle:
        handle.write(text)
    return target
