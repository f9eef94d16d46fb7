"""The documents: one rendering path, books, the matrix, diffs, claims, disagreements, the
glossary, deal pages, and the commands that write them (``docs``, ``diff``, ``claims``,
``replay --html/--md``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import html5lib
import jinja2
import pytest

from engine import load_ruleset
from engine.documents.book import rule_view
from engine.documents.claims import evaluate, load_claims
from engine.documents.diff import diff_rulesets
from engine.documents.disagreements import load_disagreements
from engine.documents.glossary import load_glossary
from engine.documents.matrix import build_matrix
from engine.documents.site import all_rulesets, write_docs
from engine.errors import RuleFileError
from engine.render import environment, md_escape
from tests.cli_helpers import invoke

# slow: the whole documents site, written twice (Markdown and HTML), with its paired simulations.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
BELINDA = ROOT / "docs" / "examples" / "belinda.yaml"


def _html_ok(text: str) -> None:
    parser = html5lib.HTMLParser(strict=True)
    parser.parse(text)  # raises on the first parse error
    assert text.startswith("<!DOCTYPE html>")


# The environment.


def test_one_environment_per_format_strict_and_escaping() -> None:
    assert environment("md") is environment("md")
    html = environment("html")
    assert html.autoescape is True
    with pytest.raises(jinja2.UndefinedError):
        html.from_string("{{ nosuch }}").render()
    assert html.from_string("{{ x }}").render(x="<b>") == "&lt;b&gt;"
    assert environment("text").from_string("{{ x }}").render(x="<b>") == "<b>"
    assert environment("md").from_string("{{ x }}").render(x="a|b") == "a\\|b"
    assert md_escape(md_escape("<x> *y*")) == md_escape("<x> *y*")
    with pytest.raises(ValueError, match="unknown format"):
        environment("pdf")  # type: ignore[arg-type]


def test_filters_are_registered_once_for_every_format() -> None:
    names = {"card", "signed", "where", "slug", "oneline", "json", "suit_symbol"}
    for fmt in ("text", "md", "html"):
        assert names <= set(environment(fmt).filters)  # type: ignore[arg-type]
    card = environment("html").from_string("{{ c|card }}").render(c="Kh")
    assert card == '<span class="card hearts" title="Kh">K♥</span>'
    assert environment("md").from_string("{{ c|card }}").render(c="Kh") == "K♥"


# Books and worked payments.


def test_mediateur_payments_come_from_the_settlement() -> None:
    view = rule_view(load_ruleset("mediateur"))
    each = {(w.contract.id, w.result): w.uniform for w in view.worked if not w.sole and w.uniform}
    # ENC-Q: 13 / 12 / 13 with the médiateur, 17 / 16 / 17 sans prendre (sources/enc-q.yaml, the médiateur paragraph).
    assert each[("mediateur", "win")] == 13
    assert each[("mediateur", "remise")] == -12
    assert each[("mediateur", "codille")] == -13
    assert each[("sans-prendre", "win")] == 17
    assert each[("sans-prendre", "remise")] == -16
    assert each[("sans-prendre", "codille")] == -17
    for w in view.worked:
        s = w.settlement
        assert sum(s.balances) + s.pot_after - s.pot_before == 0


def test_quadrille_book_shows_a_sole_liability_example() -> None:
    view = rule_view(load_ruleset("quadrille"))
    alone = [w for w in view.worked if w.sole]
    assert alone and all(w.tricks[w.declarer] < 3 for w in alone)


def test_variant_book_lists_its_changes_with_file_and_line(tmp_path: Path) -> None:
    write_docs(tmp_path, "md", [load_ruleset("quadrille-four-trick-bete")])
    text = (tmp_path / "books" / "quadrille-four-trick-bete.md").read_text(encoding="utf-8")
    lines = (ROOT / "variants" / "quadrille-four-trick-bete.yaml").read_text().splitlines()
    line = next(i + 1 for i, t in enumerate(lines) if "sole_liability_below" in t)
    assert "## What it changes against quadrille" in text
    assert f"variants/quadrille-four-trick-bete.yaml:{line}" in text
    assert "`$.settlement.sharing.sole_liability_below` | `4` | `3`" in text


# Every ruleset, both formats, valid HTML5, identical run to run.


@pytest.fixture(scope="module")
def html_docs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("html")
    write_docs(out, "html")
    return out


def test_every_link_of_the_html_site_leads_to_a_page_and_an_anchor_there(html_docs: Path) -> None:
    """Every relative link of the site (the books, the notes' file references, the project's
    documents' own links) leads to a file of the site, and to an element with its anchor."""
    import re

    pages = {p.resolve(): p.read_text("utf-8") for p in html_docs.rglob("*.html")}
    anchors = {p: set(re.findall(r'id="([^"]+)"', text)) for p, text in pages.items()}
    checked = 0
    for page, text in pages.items():
        for href in re.findall(r'href="([^"]+)"', text):
            if re.match(r"^[a-z]+:", href):
                continue
            path, _, fragment = href.partition("#")
            target = (page.parent / path).resolve() if path else page
            assert target.exists(), (page.relative_to(html_docs.resolve()), href)
            if fragment and target.suffix == ".html":
                assert fragment in anchors[target], (page.relative_to(html_docs.resolve()), href)
            checked += 1
    assert checked > 5000
    assert (html_docs / "docs" / "decisions.html").is_file()


def test_every_ruleset_and_variant_has_a_book_in_both_formats(
    html_docs: Path, tmp_path: Path
) -> None:
    write_docs(tmp_path, "md")
    for r in all_rulesets():
        assert (tmp_path / "books" / f"{r.id}.md").is_file(), r.id
        assert (html_docs / "books" / f"{r.id}.html").is_file(), r.id
    for name in ("index", "matrix", "claims", "disagreements", "glossary"):
        assert (tmp_path / f"{name}.md").is_file()
        assert (html_docs / f"{name}.html").is_file()
    assert (html_docs / "style.css").is_file()


def test_every_html_page_is_valid_html5_and_self_contained(html_docs: Path) -> None:
    pages = sorted(html_docs.rglob("*.html"))
    assert len(pages) > 20
    for page in pages:
        text = page.read_text(encoding="utf-8")
        _html_ok(text)
        # The inline chart's namespace names SVG; it fetches nothing.
        local = text.split("Address:")[0].replace('xmlns="http://www.w3.org/2000/svg"', "")
        assert "<script" not in text, page
        assert not re.search(r'\bsrc="(?:https?:)?//|<link[^>]+href="(?:https?:)?//', text), page
        if page.parent.name != "docs":  # the project's documents speak of addresses
            assert "http://" not in local, page
        assert text.count('rel="stylesheet"') == 1


def test_output_is_byte_identical_run_to_run(html_docs: Path, tmp_path: Path) -> None:
    write_docs(tmp_path, "html")
    first = {p.relative_to(html_docs): p.read_bytes() for p in html_docs.rglob("*") if p.is_file()}
    again = {p.relative_to(tmp_path): p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    assert first == again


def test_html_cards_are_coloured_and_quotes_link_to_their_passage(html_docs: Path) -> None:
    text = (html_docs / "books" / "quadrille.html").read_text(encoding="utf-8")
    assert '<span class="card hearts" title="7h">7♥</span>' in text
    assert 'href="../sources/enc-q.html#p' in text
    source = (html_docs / "sources" / "enc-q.html").read_text(encoding="utf-8")
    assert 'id="p1"' in source


def test_a_variant_named_script_renders_as_text(tmp_path: Path) -> None:
    variant = tmp_path / "evil.yaml"
    variant.write_text(
        "id: evil\nname: \"<script>alert('x')</script>\"\nextends: quadrille\n"
        'summary: "a *bold* | claim <b>"\n',
        encoding="utf-8",
    )
    rules = load_ruleset(str(variant))
    write_docs(tmp_path / "html", "html", [rules])
    write_docs(tmp_path / "md", "md", [rules])
    html = (tmp_path / "html" / "books" / "evil.html").read_text(encoding="utf-8")
    _html_ok(html)
    assert "<script>" not in html and "&lt;script&gt;" in html
    md = (tmp_path / "md" / "books" / "evil.md").read_text(encoding="utf-8")
    assert "<script>" not in md and "\\<script\\>" in md
    assert "a \\*bold\\* \\| claim \\<b\\>" in md
    matrix = (tmp_path / "md" / "matrix.md").read_text(encoding="utf-8")
    assert "<script>" not in matrix


# The matrix and diffs.


def test_matrix_marks_what_a_variant_changes() -> None:
    rulesets = [load_ruleset("quadrille"), load_ruleset("quadrille-four-trick-bete")]
    matrix = build_matrix(rulesets)
    rows = {row.aspect: row for row in matrix.rows}
    assert rows["sole liability"].cells[1].changed
    assert not rows["sole liability"].cells[0].changed  # a ruleset has no parent
    assert not rows["pack"].cells[1].changed
    assert rows["trumps in black"].cells[0].value == "11"


def test_diff_gives_each_side_with_its_file_and_line() -> None:
    result = diff_rulesets(load_ruleset("quadrille"), load_ruleset("mediateur")).as_json()
    assert result["a"] == "quadrille" and result["b"] == "mediateur"
    added = next(c for c in result["changes"] if c["path"] == "$.auction.contracts.mediateur")
    assert added["a"] is None and added["where_a"] is None
    assert added["b"]["help"] == "demand"
    assert added["where_b"].startswith("rules/mediateur.yaml:")
    assert int(added["where_b"].split(":")[1]) > 0


def test_diff_command_text_and_json() -> None:
    result = invoke("diff", "quadrille", "quadrille-four-trick-bete", "--json")
    assert result.exit_code == 0, result.output  # type: ignore[attr-defined]
    document = json.loads(result.stdout)  # type: ignore[attr-defined]
    paths = [c["path"] for c in document["changes"]]
    assert "$.settlement.sharing.sole_liability_below" in paths
    text = invoke("diff", "quadrille", "quadrille-four-trick-bete").stdout  # type: ignore[attr-defined]
    assert "variants/quadrille-four-trick-bete.yaml, line" in text
    assert invoke("diff", "quadrille", "nosuch").exit_code == 2  # type: ignore[attr-defined]


def test_diff_text_wraps_long_values_and_json_keeps_them_whole() -> None:
    text = invoke("diff", "quadrille", "ombre").stdout  # type: ignore[attr-defined]
    lines = text.splitlines()
    # Every line fits, but for a single word longer than a line (a URL), kept whole.
    assert all(len(line) <= 92 or len(line.split()) == 1 for line in lines), [
        line for line in lines if len(line) > 92
    ]
    # Prose rule by rule, as the generated diff page: no JSON path, no JSON value.
    assert "$." not in text and '": ' not in text
    assert "rules/quadrille.yaml, line " in text and "rules/ombre.yaml, line " in text
    # The files' own names apart, after the rules, and not counted among them.
    names = next(i for i, x in enumerate(lines) if x.startswith("The files' own names"))
    assert names > 2 and "summaries differ" in " ".join(lines[names:])
    out = invoke("diff", "quadrille", "ombre", "--json").stdout  # type: ignore[attr-defined]
    summary = next(c for c in json.loads(out)["changes"] if c["path"] == "$.summary")
    assert summary["a"].startswith("Four players") and "\n" not in summary["a"]


def test_diff_text_counts_rules_not_names_and_gives_each_sides_basis() -> None:
    text = invoke("diff", "quadrille", "quadrille-four-trick-bete").stdout  # type: ignore[attr-defined]
    flat = " ".join(text.split())
    assert "1 rule changed" in flat
    assert "Sole liability below: quadrille 3 (rules/quadrille.yaml, line" in flat
    assert "in quadrille-four-trick-bete: attested" in flat


# Claims.


def test_encyclopedie_black_trumps_are_contradicted_with_eleven() -> None:
    result = {e.claim.id: e for e in evaluate(load_claims())}
    black = result["enc-black-trumps"]
    assert black.status == "contradicted"
    assert black.detail == "the model derives 11: As 2c Ac Kc Qc Jc 7c 6c 5c 4c 3c"
    assert result["enc-red-trumps"].status == "confirmed"
    assert result["enc-codille-five"].status == "contradicted"
    assert "5 tricks: remise" in result["enc-codille-five"].detail
    assert result["enc-bete-fourteen-on-thirteen"].status == "confirmed"
    assert result["enc-thirty-cards"].status == "confirmed"
    assert result["zh-eldest-left"].status == "contradicted"
    assert result["zh-black-king-ponto"].status == "contradicted"
    assert result["zh-codille-fourfold"].status == "contradicted"
    # "Three times, plus an extra bonus": at least three times a win (13 against 3).
    assert result["zh-vole-triple"].status == "confirmed"
    assert result["zh-vole-triple"].claim.statement.get("at_least") is True
    assert result["zh-black-trumps"].status == "confirmed"
    assert result["zh-whist-boston"].status == "unverifiable"


def test_the_seed_texts_checkable_statements() -> None:
    """The statements of the two seed texts (the Encyclopédie, the Chinese summary) that issue
    15 added, each with its verdict against the model."""
    result = {e.claim.id: e.status for e in evaluate(load_claims())}
    confirmed = [
        "enc-win-six", "enc-a-trois-win-six", "enc-a-trois-remise-five", "enc-spadille-first",
        "enc-manille-black", "enc-basto-third", "enc-manille-red", "enc-ponto-red",
        "enc-plain-black", "enc-plain-red", "enc-packets", "enc-stakes",
        "enc-first-bete-fourteen", "enc-alone-below-three", "enc-four-trick-houses",
        "enc-forced-shares", "enc-forced-no-vole", "enc-self-caller-no-premium",
        "enc-codille-pays-as-win", "enc-sans-prendre-codille-as-win",
        "enc-leftover-next-spadille", "enc-mediateur-vole-one-fiche", "enc-largest-bete-first",
        "enc-double-game", "enc-queen-with-four-kings", "qui-packets", "qui-win-five",
        "qui-remise-four", "qui-never-alone", "qui-no-jeu", "cg-quintille-first-bete",
        "cg-quintille-bete-chain", "cg-quintille-odd-counters", "zh-win-six", "zh-remise-five",
        "zh-codille-four", "zh-forced-no-vole", "zh-queen-with-four-kings", "zh-eldest-leads",
        "zh-solo-pays-more",
    ]  # fmt: skip
    assert {c: result[c] for c in confirmed} == dict.fromkeys(confirmed, "confirmed")
    contradicted = ["zh-packets-any-order", "zh-stakes-one-each", "zh-forced-partner-names-trumps"]
    assert {c: result[c] for c in contradicted} == dict.fromkeys(contradicted, "contradicted")


def test_claims_json_has_the_spec_fields() -> None:
    result = invoke("claims", "--json")
    assert result.exit_code == 0  # type: ignore[attr-defined]
    rows = json.loads(result.stdout)  # type: ignore[attr-defined]
    black = next(r for r in rows if r["id"] == "enc-black-trumps")
    assert {
        k: black[k] for k in ("id", "ruleset", "source", "locator", "quote", "statement", "status")
    } == {
        "id": "enc-black-trumps",
        "ruleset": "quadrille",
        "source": "enc-q",
        "locator": "QUADRILLE (Jeu)",
        "quote": "il y a douze à-tous en rouge, & dix en noir seulement",
        "statement": "a black trump suit has 10 trumps",
        "status": "contradicted",
    }
    assert black["detail"] == "the model derives 11: As 2c Ac Kc Qc Jc 7c 6c 5c 4c 3c"


def test_claims_for_a_variant_evaluate_its_parents_claims_under_it() -> None:
    result = invoke("claims", "quadrille-four-trick-bete", "--json")
    rows = json.loads(result.stdout)  # type: ignore[attr-defined]
    assert rows and {r["ruleset"] for r in rows} == {"quadrille-four-trick-bete"}
    assert not any(r["id"].startswith("enc-mediateur") for r in rows)
    assert invoke("claims", "nosuch").exit_code == 2  # type: ignore[attr-defined]


def test_a_malformed_claim_is_located(tmp_path: Path) -> None:
    (tmp_path / "bad.yaml").write_text(
        "claims:\n  - id: x\n    ruleset: quadrille\n    source: enc-q\n    locator: L\n"
        "    quote: q\n    statement: {kind: trump-total, count: 3}\n",
        encoding="utf-8",
    )
    with pytest.raises(RuleFileError) as info:
        load_claims(tmp_path)
    problem = info.value.problems[0]
    assert problem.code == "claim/kind" and problem.line == 7


# Disagreements and the glossary.


def test_disagreements_loader_reads_the_register_format() -> None:
    register = load_disagreements(DATA / "disagreements.yaml")
    assert register is not None and len(register) == 2
    first = register[0]
    assert first.id == "black-trump-count"
    assert [r.home.kind for r in first.readings] == ["claim", "canonical"]
    assert first.where.endswith(":3")


def test_disagreements_loader_refuses_an_unknown_home() -> None:
    with pytest.raises(RuleFileError) as info:
        load_disagreements(DATA / "disagreements-bad.yaml")
    assert info.value.problems[0].code == "data/home-kind"


def test_disagreements_page_without_a_register_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # write_docs asks the module for the register each time it runs.
    monkeypatch.setattr("engine.documents.disagreements.load_disagreements", lambda path=None: None)
    write_docs(tmp_path, "md", [load_ruleset("quadrille")])
    text = (tmp_path / "disagreements.md").read_text(encoding="utf-8")
    assert "does not exist yet" in text


def test_glossary_ties_every_term_to_the_model() -> None:
    terms = load_glossary(all_rulesets())
    by = {t.term: t for t in terms}
    assert {"fr", "es", "en", "zh"} <= {t.language for t in terms}
    assert by["Spadille"].detail == "As; Qc in german-solo, german-solo-muensterland"
    assert "ombre" in by["entrada"].present_in and "quadrille" not in by["entrada"].present_in
    assert by["médiateur"].present_in[0] == "mediateur"
    assert by["talon"].present_in == ("ombre",) or "quadrille" not in by["talon"].present_in


# Deal pages and replay text.


def test_belinda_is_refereed_as_the_poem_tells_it() -> None:
    result = invoke("replay", str(BELINDA), "--json")
    assert result.exit_code == 0, result.output  # type: ignore[attr-defined]
    deal = json.loads(result.stdout)["deals"][0]  # type: ignore[attr-defined]
    assert deal["declarer"] == 1 and deal["trump"] == "spades"
    assert deal["tricks_won"] == [0, 5, 4]
    assert deal["result"] == "win"
    # Morley: "four counters from each of her antagonists for her sequence of four Matadores".
    assert deal["matadors"] == 4
    assert [t["winner"] for t in deal["tricks"]] == [1, 1, 1, 1, 2, 2, 2, 2, 1]


def test_replay_writes_html_and_markdown_pages(tmp_path: Path) -> None:
    html, md = tmp_path / "b.html", tmp_path / "b.md"
    result = invoke("replay", str(BELINDA), "--html", str(html), "--md", str(md))
    assert result.exit_code == 0, result.output  # type: ignore[attr-defined]
    page = html.read_text(encoding="utf-8")
    _html_ok(page)
    assert "<style>" in page and 'rel="stylesheet"' not in page  # self-contained
    assert "Belinda" in page and "The Rape of the Lock" in page
    text = md.read_text(encoding="utf-8")
    assert "| 9 | seat 2 | A♥ J♥ K♥ | seat 1 |" in text


def test_replay_text_shows_the_partial_trick_and_the_json_numbering(tmp_path: Path) -> None:
    lines = BELINDA.read_text(encoding="utf-8").replace("  - 0 play 3h", "  - 0 play Qs")
    record = tmp_path / "bad.yaml"
    record.write_text(lines, encoding="utf-8")
    result = invoke("replay", str(record), "--json")
    error = json.loads(result.stdout)["error"]  # type: ignore[attr-defined]
    text = invoke("replay", str(record)).stdout  # type: ignore[attr-defined]
    assert f"action [{error['index']}]" in text
    assert "trick  6: Kd  (led by seat 2, unfinished)" in text
    assert "Deal 1:" in text and "Deal 0:" not in text


def test_docs_command_writes_both_formats_and_refuses_bad_options(tmp_path: Path) -> None:
    result = invoke("docs", "--out", str(tmp_path / "h"), "--format", "html", "ombre", "--json")
    assert result.exit_code == 0, result.output  # type: ignore[attr-defined]
    document = json.loads(result.stdout)  # type: ignore[attr-defined]
    assert "books/ombre.html" in document["files"] and "style.css" in document["files"]
    assert invoke("docs", "--out", str(tmp_path / "x"), "--format", "pdf").exit_code == 2  # type: ignore[attr-defined]
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert invoke("docs", "--out", str(blocker)).exit_code == 2  # type: ignore[attr-defined]


RECORDS = [*sorted((ROOT / "tests" / "records").glob("*.yaml")), BELINDA]


@pytest.mark.parametrize("record", RECORDS, ids=lambda p: p.name)
def test_replay_text_tells_everything_the_json_has(record: Path) -> None:
    """Issue 8, item 3: the text has the payments, matadors, bête, écart, given card and
    renonces of the JSON, with the JSON's numbering."""
    document = json.loads(invoke("replay", str(record), "--json").stdout)  # type: ignore[attr-defined]
    text = invoke("replay", str(record)).stdout  # type: ignore[attr-defined]
    for k, deal in enumerate(document["deals"]):
        assert f"Deal {k + 1}: dealer seat {deal['dealer']}" in text
        for trick in deal["tricks"]:
            assert " ".join(trick["cards"]) + f"  (led by seat {trick['leader']}" in text
        if deal.get("result") is not None:
            assert f"result: {deal['result']}:" in text
            if load_ruleset(document["ruleset"]).pays_matadors:
                assert f"matadors paid for: {deal['matadors']}" in text
        for payment in deal.get("payments") or []:
            assert f" {payment['amount']}" in text
        if deal.get("bete"):
            assert f"bête: {deal['bete']}" in text
        if deal.get("given"):
            assert f"who was given {deal['given']}" in text
        for x in deal.get("exchanges") or []:
            assert (
                f"écart: seat {x['seat']} discarded {' '.join(x['discarded']) or 'nothing'}" in text
            )
        for seat in deal.get("renonces") or []:
            assert f"seat {seat}" in text.split("renonces:")[1]
        if deal.get("balances") is not None:
            shown = ", ".join(
                f"seat {i} {b:+d}" if b else f"seat {i} 0" for i, b in enumerate(deal["balances"])
            )
            assert shown in text
    if document["error"] is not None:
        assert f"action [{document['error']['index']}]" in text


# What each variant does to the game: a seeded, paired --against run, one derivation.


def test_each_variant_has_its_effect_page_linked_from_its_book_and_the_index(
    html_docs: Path,
) -> None:
    from engine.documents.effects import DEALS, SEED

    index = (html_docs / "index.html").read_text(encoding="utf-8")
    assert 'href="effects.html"' in index
    listing = (html_docs / "effects.html").read_text(encoding="utf-8")
    assert f"same {DEALS} deals (seed {SEED}" in listing
    for r in all_rulesets():
        page = html_docs / "effects" / f"{r.id}.html"
        if r.kind != "variant":
            assert not page.exists(), r.id
            continue
        assert f'href="effects/{r.id}.html"' in listing, r.id
        book = (html_docs / "books" / f"{r.id}.html").read_text(encoding="utf-8")
        assert f'href="../effects/{r.id}.html"' in book, r.id
        text = page.read_text(encoding="utf-8")
        assert text.count("<svg") == 1 and "&lt;svg" not in text, r.id
        assert f"ombre simulate {r.extends} --against {r.id} -n {DEALS} --seed {SEED}" in text


def test_the_effect_chart_is_the_simulate_svg_of_the_same_run(tmp_path: Path) -> None:
    from engine.compare import compare, render_svg
    from engine.documents.effects import DEALS, SEED

    variant = load_ruleset("quadrille-four-trick-bete")
    write_docs(tmp_path, "md", [variant])
    svg = (tmp_path / "effects" / "quadrille-four-trick-bete.svg").read_text(encoding="utf-8")
    report = compare(load_ruleset("quadrille"), variant, DEALS, seed=SEED).report()
    assert svg == render_svg(report)
    page = (tmp_path / "effects" / "quadrille-four-trick-bete.md").read_text(encoding="utf-8")
    assert "](quadrille-four-trick-bete.svg)" in page
    assert "| declarer, per deal |" in page


def test_a_diff_page_reads_as_prose_for_a_historian(tmp_path: Path) -> None:
    from engine import load_ruleset
    from engine.documents.site import write_docs

    chosen = [load_ruleset("quadrille"), load_ruleset("quadrille-four-trick-bete")]
    write_docs(tmp_path, "md", chosen)
    page = (tmp_path / "diffs" / "quadrille-four-trick-bete.md").read_text("utf-8")
    # No JSON, no escaped quotes, no JSON paths: the rule, each side, its authority, its place.
    assert '\\"' not in page and "$." not in page and '{"' not in page
    assert "## Settlement › sharing" in page
    assert "Sole liability below: quadrille *3* (`rules/quadrille.yaml`, line " in page
    assert "quadrille-four-trick-bete *4* (`variants/quadrille-four-trick-bete.yaml`, line" in page
    assert "*In quadrille:* *attested*; enc-q, QUADRILLE (Jeu): “[se paye par moitié" in page
    assert "*In quadrille-four-trick-bete:* *attested*; enc-q, QUADRILLE (Jeu): “[Il y a" in page
    # The files' names and summary are not rules: said once, not a table each.
    assert "## id" not in page and "## summary" not in page and "## name" not in page


def test_the_matrix_comes_in_parts_with_fixed_labels_and_linked_changes(tmp_path: Path) -> None:
    from engine.documents.matrix import build_matrix
    from engine.documents.site import all_rulesets, write_docs

    matrix = build_matrix(all_rulesets())
    games = matrix.games()
    assert all(r.kind != "variant" for r in games.columns) and len(games.columns) < 10
    groups = dict((g.id, part) for g, part in matrix.groups())
    quadrille = groups["quadrille"]
    assert quadrille.columns[0].id == "quadrille"
    assert {r.id for r in quadrille.columns[1:]} >= {"quadrille-renonce", "quadrille-contre"}
    # Every variant is in exactly one part.
    variants = [r.id for r in matrix.columns if r.kind == "variant"]
    shown = [r.id for _, part in matrix.groups() for r in part.columns if r.kind == "variant"]
    assert sorted(shown) == sorted(variants)
    chosen = [load_ruleset("quadrille"), load_ruleset("quadrille-four-trick-bete")]
    write_docs(tmp_path, "html", chosen)
    page = (tmp_path / "matrix.html").read_text("utf-8")
    assert '<div class="matrix">' in page and 'id="family-quadrille"' in page
    # A changed cell links to the diff that gives its basis.
    assert re.search(r"<a href=\"diffs/quadrille-four-trick-bete.html\"><mark", page)
    css = (tmp_path / "style.css").read_text("utf-8")
    assert '.matrix th[scope="row"]' in css and "position: sticky" in css


def test_the_matrix_has_a_picker_of_rule_sets_that_needs_no_script(tmp_path: Path) -> None:
    from engine.documents.site import write_docs

    ids = ["quadrille", "quadrille-four-trick-bete", "quadrille-contre", "ombre"]
    write_docs(tmp_path, "html", [load_ruleset(i) for i in ids])
    page = (tmp_path / "matrix.html").read_text("utf-8")
    _html_ok(page)
    assert "<script" not in page  # a static page: nothing to run
    picker = page.split('<form class="picker"')[1].split("</form>")[0]
    # A tick box per rule set, each ticked: the page as written shows every column.
    boxes = re.findall(r'<input type="checkbox" id="show-([a-z0-9-]+)" checked>', picker)
    assert sorted(boxes) == sorted(ids)
    assert '<button type="reset">' in picker
    # Every cell of a column carries its rule set's class, and one CSS rule hides the class
    # when its box is unticked, in every table of the page.
    tables = page.split('<div class="matrix">')[1:]
    assert len(tables) == 2  # the games, then Quadrille and its variants
    for ident in ids:
        assert f"body:has(#show-{ident}:not(:checked)) .c-{ident} {{ display: none; }}" in page
    quadrille_family = tables[1].split("</table>")[0]
    rows = re.findall(r"<tr>(.*?)</tr>", quadrille_family, re.S)
    for row in rows:
        cells = re.findall(r'<t[dh] (?:scope="col" )?class="c-([a-z0-9-]+)"', row)
        assert sorted(cells) == ["quadrille", "quadrille-contre", "quadrille-four-trick-bete"], row
    # Where CSS cannot hide a column the picker is not shown (every column stays).
    css = (tmp_path / "style.css").read_text("utf-8")
    assert ".picker { display: none; }" in css and "@supports selector(body:has(a))" in css
    # The Markdown matrix is unchanged: no picker there.
    write_docs(tmp_path / "md", "md", [load_ruleset(i) for i in ids])
    assert "picker" not in (tmp_path / "md" / "matrix.md").read_text("utf-8")


def test_a_points_game_replay_tells_no_matadors(tmp_path: Path) -> None:
    """A game scored in points pays nothing per matador: its replay does not count them."""
    rules = load_ruleset("dansk-lhombre")
    assert rules.in_points and not rules.pays_matadors
    assert load_ruleset("quadrille").pays_matadors
    record = tmp_path / "dansk.yaml"
    played = invoke("play", "dansk-lhombre", "--auto", "--seed", "3", "--record", str(record))
    assert played.exit_code == 0, played.output  # type: ignore[attr-defined]
    text = invoke("replay", str(record)).stdout  # type: ignore[attr-defined]
    assert "result: " in text and "matador" not in text
