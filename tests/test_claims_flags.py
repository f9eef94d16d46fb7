"""The claims' two flags (claims/README.md): `fitted` (the model was chosen so the claim holds)
and `transcription` (the claim reads back a parameter set from its own sentence)."""

from __future__ import annotations

from engine.documents.claims import load_claims
from engine.documents.concordance import _rule_citations
from engine.documents.sources import normalise
from engine.rules import load_ruleset

CLAIMS = {c.id: c for c in load_claims()}


def test_the_circular_claims_are_flagged_fitted() -> None:
    """The double game's 28 is the variant's own reading of "à-proportion", and the sans-prendre
    codille paid as a win is the twin of the Quadrille codille claim the model was fitted to."""
    for cid in ("enc-double-game", "enc-sans-prendre-codille-as-win", "enc-codille-pays-as-win"):
        assert CLAIMS[cid].fitted, cid


def test_a_transcription_claim_quotes_a_sentence_its_ruleset_cites() -> None:
    """Each claim marked transcription quotes a sentence that its ruleset's own rule entries
    cite (or inherit): it reads the parameter back."""
    marked = [c for c in CLAIMS.values() if c.transcription]
    assert len(marked) >= 13
    for c in marked:
        rules = load_ruleset(c.ruleset)
        chain = [rules]
        while chain[-1].extends:
            chain.append(load_ruleset(chain[-1].extends))
        quotes = [normalise(str(n["quote"])) for _, _, n in _rule_citations(chain)]
        q = normalise(c.quote)
        assert any(q in k or k in q for k in quotes), c.id
        assert not c.fitted, c.id


def test_a_reading_claim_is_not_marked_transcription() -> None:
    """The bête chain is derived (14, 42, 56), not a parameter read back."""
    assert not CLAIMS["enc-bete-chain-remise"].transcription
