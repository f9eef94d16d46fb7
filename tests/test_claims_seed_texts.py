"""The checkable statements of the two seed texts (the Encyclopédie's QUADRILLE and the modern
Chinese summary), each a claim with its verdict against the model."""

from __future__ import annotations

from engine.documents.claims import evaluate, load_claims

EXPECTED = {
    # The Chinese summary: the matadors' positions, the plain orders, the deal.
    "zh-spadille-first-black": "confirmed",
    "zh-spadille-first-red": "confirmed",
    "zh-manille-black": "confirmed",
    "zh-manille-red": "confirmed",
    "zh-basta-third-black": "confirmed",
    "zh-basta-third-red": "confirmed",
    "zh-plain-black": "confirmed",
    "zh-plain-red": "confirmed",
    "zh-deal-counter-clockwise": "confirmed",
    "zh-dealer-four-stakes": "confirmed",
    "zh-matador-bonus": "confirmed",
    # Its history and advice: nothing in the model to check them against.
    "zh-origin-court": "unverifiable",
    "zh-austen": "unverifiable",
    "zh-vernon-1776": "unverifiable",
    "zh-woodforde": "unverifiable",
    "zh-dublin-1736": "unverifiable",
    "zh-calling-advice": "unverifiable",
    # The Encyclopédie: à trois's bêtes "comme au quadrille", the sans-prendre's remise, the
    # failed vole read literally.
    "enc-a-trois-bete-chain": "confirmed",
    "enc-a-trois-bete-chain-codille": "confirmed",
    "enc-sans-prendre-remise-consolation": "confirmed",
    "enc-failed-vole-pays-the-vole": "contradicted",
    # "la vole ne gagne que ce que l'on est convenu": the model fixes the vole's worth.
    "enc-vole-as-agreed": "contradicted",
    "enc-vole-no-waiting-betes": "confirmed",
}


def test_seed_text_claims_have_their_verdicts() -> None:
    result = {e.claim.id: e.status for e in evaluate(load_claims())}
    assert {c: result.get(c) for c in EXPECTED} == EXPECTED


def test_the_summary_and_the_counter_clockwise_deal_disagree() -> None:
    # The summary's gloss puts the eldest at the dealer's left; its counter-clockwise deal puts
    # him at the right: the model confirms the one and contradicts the other.
    result = {e.claim.id: e.status for e in evaluate(load_claims())}
    assert (result["zh-eldest-left"], result["zh-deal-counter-clockwise"]) == (
        "contradicted",
        "confirmed",
    )


def test_new_claims_cite_sources_entries() -> None:
    claims = {c.id: c for c in load_claims()}
    for cid in EXPECTED:
        assert claims[cid].source in ("zh", "enc-q"), cid


def test_an_agreed_amount_is_told_from_a_fixed_one() -> None:
    evaluation = next(e for e in evaluate(load_claims()) if e.claim.id == "enc-vole-as-agreed")
    assert evaluation.claim.statement.describe() == (
        "vole wins what the table agrees under ask, no fixed amount"
    )
    assert "fixes vole at 10 per opponent" in evaluation.detail
