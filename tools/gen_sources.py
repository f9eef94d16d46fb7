"""Gathers the period passages the rule files and claims quote into ``sources/``.

Run from the repository with the shared research folder beside it (``../shared``)::

    python tools/gen_sources.py [--also CHECKOUT ...]

(``--also`` reads the rule files and claims of other checkouts too, e.g. a branch about to be
merged, so that its quotes find their passages here.)

For every source id cited with a quote in ``rules/``, ``variants/`` and ``claims/``:

* the *Encyclopédie* article QUADRILLE (``enc-q``) is kept whole, as the card-game part of the
  seed ``../shared/seeds/002_69bdd0d0feef7afc.txt`` (public domain);
* for every other source, each quote is looked up in the project's rules reference
  (``../shared/rules-reference.md``, which transcribes the sources it read) or the seeds, and the
  passage that holds it is kept: the reference's whole quotation around it, or the sentence of
  the seed. The address comes from the reference's table of sources (§1.1).

The files written are data with provenance; ``tests/test_citations.py`` then checks every quote
against ``sources/`` alone, so the test runs on any clone. Existing passages are kept, so a
passage added by hand (with its provenance) survives a rerun.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
REFERENCE = SHARED / "rules-reference.md"
SEED_ENC = SHARED / "seeds" / "002_69bdd0d0feef7afc.txt"
SEED_ZH = SHARED / "seeds" / "000_22da23224b53a882.txt"
OUT = ROOT / "sources"

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'"})
_ELLIPSIS = re.compile(r"…|\.\.\.")


def norm(text: str) -> str:
    text = unicodedata.normalize("NFC", text).translate(_APOSTROPHES)
    return re.sub(r"\s+", " ", text).strip().casefold()


def cites(node: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if isinstance(node, dict):
        if isinstance(node.get("quote"), str) and isinstance(node.get("source"), str):
            out.append(node)
        for value in node.values():
            out.extend(cites(value))
    elif isinstance(node, list):
        for value in node:
            out.extend(cites(value))
    return out


ROOTS = [ROOT]


def quoting_files(pattern: str) -> list[Path]:
    return sorted(p for root in ROOTS for p in root.glob(pattern))


def source_titles() -> dict[str, dict[str, Any]]:
    titles: dict[str, dict[str, Any]] = {}
    for path in [*quoting_files("rules/*.yaml"), *quoting_files("variants/*.yaml")]:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        for sid, meta in (data.get("sources") or {}).items():
            titles.setdefault(sid, dict(meta))
    titles.setdefault(
        "zh", {"title": "Modern Chinese-language summary of Quadrille (seed document)"}
    )
    return titles


def reference_rows() -> dict[str, tuple[str, str]]:
    """Tag (lower case) -> (what it is, address) from the reference's table of sources."""
    rows: dict[str, tuple[str, str]] = {}
    for line in REFERENCE.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0] and cells[0] not in ("Tag", "---"):
            for tag in re.split(r",\s*", cells[0]):
                rows[tag.strip().lower()] = (cells[1], cells[2])
    return rows


def reference_quotations() -> list[str]:
    """Every quotation of the reference: text between double quotation marks."""
    text = REFERENCE.read_text(encoding="utf-8")
    return [m.group(1) for m in re.finditer(r'"([^"\n]{3,})"', text)]


def seed_sentences(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return [s.strip() for s in re.split(r"(?<=[.。；;!?])\s*|\n", text) if s.strip()]


def passage_for(piece: str, quotations: list[str], sentences: list[str]) -> str | None:
    key = norm(piece)
    for q in quotations:
        if key in norm(q):
            return q
    for s in sentences:
        if key in norm(s):
            return s
    return None


def main() -> int:
    args = sys.argv[1:]
    while args[:1] == ["--also"] and len(args) >= 2:
        ROOTS.append(Path(args[1]).resolve())
        args = args[2:]
    titles = source_titles()
    rows = reference_rows()
    quotations = reference_quotations()
    zh_sentences = seed_sentences(SEED_ZH)
    enc_sentences = seed_sentences(SEED_ENC)
    wanted: dict[str, list[dict[str, Any]]] = {}
    files = [
        *quoting_files("rules/*.yaml"),
        *quoting_files("variants/*.yaml"),
        *(p for p in quoting_files("claims/*.yaml") if p.name != "disagreements.yaml"),
    ]
    for path in files:
        for cite in cites(yaml.safe_load(path.read_text(encoding="utf-8"))):
            wanted.setdefault(cite["source"], []).append(cite)
    OUT.mkdir(exist_ok=True)
    (OUT / "texts").mkdir(exist_ok=True)
    lines = SEED_ENC.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Quadrille, (Jeu.)"))
    (OUT / "texts" / "encyclopedie-quadrille.txt").write_text(
        "\n\n".join(lines[start:]) + "\n", encoding="utf-8"
    )
    missing = []
    for sid in sorted(wanted):
        target = OUT / f"{sid}.yaml"
        old = yaml.safe_load(target.read_text(encoding="utf-8")) if target.exists() else {}
        meta = titles.get(sid, {})
        _what, address = rows.get(sid, ("", ""))
        doc: dict[str, Any] = {
            "id": sid,
            "title": old.get("title") or meta.get("title") or sid,
            "kind": old.get("kind") or meta.get("kind") or "secondary",
        }
        if meta.get("year"):
            doc["year"] = meta["year"]
        doc["address"] = old.get("address") or meta.get("url") or address.replace("`", "")
        if sid == "enc-q":
            doc["text"] = "texts/encyclopedie-quadrille.txt"
            doc["provenance"] = (
                "The card-game part of the article, whole, as the seed document "
                "../shared/seeds/002_69bdd0d0feef7afc.txt gives it (Wikisource transcription "
                "of the 1st edition, 1765; public domain). The first paragraph (the courtly "
                "sense, fête galante) is left out."
            )
            doc["passages"] = []
        else:
            doc["provenance"] = old.get("provenance") or (
                "Passages as transcribed by the project's research (its research notes, not "
                "shipped) from the address given; only the passages the rule files and claims "
                "quote are kept."
                if sid != "zh"
                else "Sentences of the seed document ../shared/seeds/000_22da23224b53a882.txt "
                "(a modern summary; only the sentences the workbench quotes are kept)."
            )
            passages: list[dict[str, str]] = list(old.get("passages") or [])
            have = {norm(p["text"]) for p in passages}
            for cite in wanted[sid]:
                for piece in filter(None, (p.strip() for p in _ELLIPSIS.split(cite["quote"]))):
                    if any(norm(piece) in h for h in have):
                        continue
                    sentences = zh_sentences if sid == "zh" else enc_sentences
                    text = passage_for(piece, quotations, sentences)
                    if text is None:
                        missing.append(f"{sid}: {piece!r}")
                        continue
                    passages.append({"locator": str(cite.get("locator", "")), "text": text})
                    have.add(norm(text))
            doc["passages"] = passages
        target.write_text(
            "# Generated by tools/gen_sources.py from the project's research; see README.md.\n"
            + yaml.safe_dump(doc, allow_unicode=True, sort_keys=False, width=100),
            encoding="utf-8",
        )
    for m in missing:
        print(f"not found in the reference or the seeds: {m}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
