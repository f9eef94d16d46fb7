"""The living family (issue 16): the rule data the format can already express, and the sources
the rest will be built from.

- ``variants/tresillo-espada-obligatoria.yaml``: Rocambor's espada obligatoria as played online
  today (the modern source ``roc-online``: "If all players pass, the holder of the Spadille
  (Ace of Espadas) must bid Entrada. If the Spadille is in the talon, the deal passes.").
- ``docs/living-family.md``: every quote it gives, written ``“…” (`SOURCE`, locator)``, is found
  verbatim in that source under ``sources/``, as ``tests/test_citations.py`` checks the rule
  files' quotes.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine import load_ruleset
from engine.cards import Card
from engine.documents.sources import load_library, pieces
from engine.referee import Phase
from tests.referee_helpers import run, tresillo

ROOT = Path(__file__).resolve().parent.parent
RULES = load_ruleset("tresillo-espada-obligatoria")
PARENT = load_ruleset("tresillo")
ALL_PASS = ["1 pass", "2 pass", "3 pass"]


WEAK_WITH_ESPADA = "As 3h 4h 5h 6h 3d 4d 5d 6d"


def test_when_all_pass_the_holder_of_the_espada_must_play_an_entrada() -> None:
    deal = tresillo(RULES, {3: WEAK_WITH_ESPADA})
    run(deal, ALL_PASS)
    assert deal.declarer == 3 and deal.contract is not None
    assert deal.contract.id == "entrada" and deal.forced
    assert deal.phase is Phase.TRUMP and deal.to_move == 3
    # The entrada's own rules: any trump but the palo de favor (clubs by default), which is the
    # higher contract entrada-favor.
    assert sorted(str(a) for a in deal.legal_actions()) == [
        "trump diamonds",
        "trump hearts",
        "trump spades",
    ]
    run(deal, ["3 trump hearts"])
    assert deal.phase is Phase.EXCHANGE and deal.to_move == 3  # he takes in first


def test_the_same_deal_is_passed_out_in_tresillo() -> None:
    deal = tresillo(PARENT, {3: WEAK_WITH_ESPADA})
    run(deal, ALL_PASS)
    assert deal.result == "redeal" and deal.declarer is None


def test_with_the_espada_in_the_talon_the_deal_passes() -> None:
    deal = tresillo(RULES, {}, talon="As")
    assert not any(deal.hands[s] >> Card.parse("As").index & 1 for s in range(4))
    run(deal, ALL_PASS)
    assert deal.result == "redeal" and deal.declarer is None and not deal.forced
    # Passed out as Tresillo passes a deal out: two more jetons each for the new deal.
    assert RULES.all_pass_stakes == PARENT.all_pass_stakes == (("each", 2),)


def test_a_bid_is_not_overruled_by_the_espada() -> None:
    deal = tresillo(RULES, {3: WEAK_WITH_ESPADA})
    run(deal, ["1 bid entrada", "2 pass", "3 pass"])
    assert deal.declarer == 1 and not deal.forced


def test_the_holder_of_the_espada_may_pass_in_his_turn() -> None:
    deal = tresillo(RULES, {1: WEAK_WITH_ESPADA})
    run(deal, ["1 pass"])
    assert deal.phase is Phase.AUCTION and deal.to_move == 2


def test_the_rule_cites_a_source_named_as_modern() -> None:
    lib = load_library(ROOT / "sources")
    assert lib.sources["roc-online"].kind == "modern"
    assert lib.find("roc-online", "If the Spadille is in the talon, the deal passes.") is not None


# The quotes of docs/living-family.md.

DOC = ROOT / "docs" / "living-family.md"
LIBRARY = load_library(ROOT / "sources")
QUOTE = re.compile(r"“(.+?)”(?=[\s).,;:]|$)", re.S)
SOURCE_ID = re.compile(r"`([a-z0-9-]+)`")


def _doc_quotes() -> list[tuple[str, str]]:
    """Every quote of the page with the source it names: the first source id (a backticked id
    of ``sources/``) after it in the same paragraph or table row ("“A” and “B” (`dlu`)" cites
    both from ``dlu``). A quote with no source after it is returned with source "" and fails."""
    # A quote inside a Markdown table writes its "|" as "\\|".
    text = DOC.read_text(encoding="utf-8").replace("\\|", "|")
    out = []
    for block in re.split(r"\n\s*\n|\n(?=\|)", text):
        for m in QUOTE.finditer(block):
            after = [s for s in SOURCE_ID.findall(block[m.end() :]) if s in LIBRARY.sources]
            out.append((after[0] if after else "", m.group(1)))
    return out


def test_the_family_page_quotes_its_sources() -> None:
    quotes = _doc_quotes()
    assert len(quotes) >= 30
    assert {"dlu", "netlh", "jhp", "hom", "roc-online"} <= {s for s, _ in quotes}


@pytest.mark.parametrize(("source", "quote"), _doc_quotes() if DOC.exists() else [])
def test_each_quote_of_the_family_page_is_verbatim(source: str, quote: str) -> None:
    found = LIBRARY.sources.get(source)
    assert found is not None, f"no source named after the quote {quote!r}"
    missing = [p for p in pieces(quote) if found.find(p) is None]
    assert not missing, f"not in sources/{source}.yaml: {missing}"


# Golden records: a forced entrada played to the end (the deals were dealt from seeds, the
# auction passed out and the play made by the heuristic bots; the figures below are worked
# from rules/tresillo.yaml's amounts, not read from the referee).


def _replayed(name: str) -> dict:
    from engine.records import read_record, replay

    record = read_record(ROOT / "tests" / "records" / name)
    report = replay(record, load_ruleset(record.ruleset))
    assert report.complete and report.error is None, report.located
    out: dict = report.as_json()["deals"][0]
    return out


def test_a_forced_entrada_won_takes_the_pot() -> None:
    """Four stake 3 (the alcalde too): the forced Jugador, seat 3, wins 5-3-1 without matadors
    and takes the 12: +9, the others -3."""
    deal = _replayed("tresillo-espada-obligatoria-win.yaml")
    assert deal["contract"] == "entrada" and deal["declarer"] == 3 and deal["forced"]
    assert deal["result"] == "win"
    assert deal["balances"] == [-3, -3, -3, 9] and deal["pot_after"] == 0


def test_a_forced_entrada_lost_by_puesta_makes_a_bete() -> None:
    """The forced Jugador, seat 1, ties 4-4 with seat 3: puesta; the 12 stay and he makes a bête
    of the 12 in play: -15, the others -3, 24 on the table."""
    deal = _replayed("tresillo-espada-obligatoria-puesta.yaml")
    assert deal["declarer"] == 1 and deal["forced"] and deal["result"] == "remise"
    assert deal["bete"] == 12
    assert deal["balances"] == [-3, -15, -3, -3] and deal["pot_after"] == 24
