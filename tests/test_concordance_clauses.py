"""The concordance read to the clause (engine/documents/concordance.py, sources/concordance.yaml):
a sentence whose parts the model treats differently is split into its clauses, each with its
own status, so that a link to one clause never shows the whole sentence as encoded."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.documents.concordance import SOURCES, load_entries
from engine.documents.sources import load_library
from engine.errors import RuleFileError
from tests.documents_helpers import concordances

LIBRARY = load_library()


def _sentence(words: str):  # type: ignore[no-untyped-def]
    return next(s for s in concordances()["enc-q"].sentences if words in s.text)


def test_the_deal_sentence_shows_its_unmodelled_clauses() -> None:
    """ENC-Q ¶20: the deal is encoded, but drawing for places and the first dealer, and the
    value of the game, are not: the sentence is read clause by clause and is not shown
    encoded."""
    s = _sentence("tiré les places")
    assert s.status == "not modelled"
    statuses = {c.text: c.status for c in s.clauses}
    assert statuses["Après que l'on a tiré les places, & vu à qui à mêler"] == "not modelled"
    assert statuses["convenu de la valeur du jeu"] == "not modelled"
    assert any(link.path == "deal" and not link.against for link in s.links)


def test_the_friend_s_vole_clause_is_not_hidden() -> None:
    """ENC-Q ¶61: the forced player's vole is encoded; nothing may be said to urge the friend's
    vole is a law of conduct, not modelled; waiting for the player on lead is the vole rule."""
    s = _sentence("engager l’ami")
    assert s.status == "not modelled"
    by_status = {c.status for c in s.clauses}
    assert by_status == {"not modelled", "encoded"}
    assert any(link.path == "auction.contracts.forced-spadille" for link in s.links)


def test_the_revoke_made_is_encoded() -> None:
    """ENC-Q: "Il faut pour avoir renoncé que la levée soit pliée": the referee applies it (a
    revoke is pointed out only once its trick is complete; `notice/nothing` before)."""
    assert _sentence("pour avoir renoncé").status == "encoded"


def test_the_tours_clause_is_the_party_variant_s() -> None:
    """ENC-Q ¶20: "réglé les tours ... au nombre de dix" is read apart: the party of ten tours
    is the variant quadrille-last-tour-double's, linked to that clause and not to the whole
    sentence, whose deal alone rules/quadrille.yaml encodes."""
    s = _sentence("tiré les places")
    tours = next(c for c in s.clauses if "réglé les tours" in c.text)
    assert tours.status == "encoded"
    assert {(x.ruleset, x.path) for x in tours.links} == {("quadrille-last-tour-double", "party")}
    assert all(x.ruleset != "quadrille-last-tour-double" for x in s.links)


def test_the_betes_agreed_apart_are_not_modelled() -> None:
    """ENC-Q ¶55: the bêtes of one deal go together (encoded), "à-moins que l'on ne convienne
    autrement" is not offered: the sentence is not shown encoded."""
    s = _sentence("Plusieurs bêtes faites sur le même coup")
    assert s.status == "not modelled"
    statuses = {c.text: c.status for c in s.clauses}
    assert statuses["Plusieurs bêtes faites sur le même coup doivent aller ensemble"] == "encoded"
    assert statuses["à-moins que l'on ne convienne autrement avant que de commencer le coup"] == (
        "not modelled"
    )


@pytest.mark.parametrize(
    ("words", "path"),
    [
        # ¶44: the sans-prendre lost by remise or codille is Quadrille's own rule (only the
        # Médiateur departs from it).
        ("S’il la perd remise, il fait la bête", "settlement.outcomes.remise"),
        ("S’il la perd remise, il fait la bête", "settlement.outcomes.codille"),
        # ¶31: under spadille forcé the Ombre never makes the bête alone.
        ("lorsqu’on joue avec spadille forcé", "auction.contracts.forced-spadille"),
        # ¶46: the self-caller neither pays nor is paid the sans appeller.
        ("appelle un roi qu’il a, il gagne ou perd seul", "settlement.items.sans-prendre"),
        # ¶24: speech goes from the eldest, each in turn; ¶30: the codille's winners share the pot.
        ("& ainsi du second, du troisieme & du dernier", "auction"),
        (
            "Ceux qui gagnent codille partagent entr’eux ce qui est au jeu",
            "settlement.outcomes.codille",
        ),
        # ¶26: the eldest leads the first trick.
        ("le coup commence à être joué par celui qui est à jouer le premier", "play"),
    ],
)
def test_quadrille_s_own_rule_is_linked(words: str, path: str) -> None:
    """A sentence rules/quadrille.yaml follows is linked to the entry that encodes it, so it
    is shown encoded, not read otherwise (¶44) or only checked (¶46)."""
    s = _sentence(words)
    assert s.status == "encoded"
    found = [(x.ruleset, x.path) for x in s.links if not x.against]
    assert ("quadrille", path) in found, found


def test_the_codille_of_five_is_read_otherwise() -> None:
    """ENC-Q ¶29: the remise of five and the codille's payment are encoded, but "cinq mains, ou
    moins, ils perdroient codille" is read as four (the Académie): that clause is read
    otherwise, its link a departure, and the sentence is not shown encoded."""
    s = _sentence("ils perdroient codille")
    assert s.status == "read otherwise"
    codille = next(c for c in s.clauses if c.text.startswith("s'ils ne faisoient"))
    assert codille.status == "read otherwise"
    assert codille.links and all(x.against for x in codille.links)
    others = [c.status for c in s.clauses if c is not codille]
    assert others == ["encoded", "encoded"]


@pytest.mark.parametrize(
    ("words", "ruleset"),
    [
        ("ils perdroient codille", "quadrille-seed-summary"),
        ("S’il la perd remise, il fait la bête", "mediateur"),
        ("Le jeu est marqué par celui qui mêle", "quadrille-dealer-stakes-four"),
        ("la premiere bête étant de quatorze", "quadrille-doubling-bete"),
        ("peut appeller un des rois qu’il a", "quadrille-no-self-call"),
        (
            "Il faudroit aussi refaire s’il y avoit une carte retournée",
            "quadrille-hoyle-faced-last-card",
        ),
    ],
)
def test_a_departure_is_linked_as_contrary(words: str, ruleset: str) -> None:
    """The entries that quote ENC-Q against their own rule are linked as departures (to the
    sentence, or to the clause the quote lies in)."""
    s = _sentence(words)
    every = [*s.links, *(x for c in s.clauses for x in c.links)]
    links = [link for link in every if link.ruleset == ruleset]
    assert links and all(link.against for link in links)


def test_no_clause_entry_is_stale() -> None:
    """A clause the data says is not modelled (or bears no rule) while a rule file quotes it in
    support is stale."""
    stale = [
        f"{c.entry.where}: {c.text!r}"
        for sid in SOURCES
        for s in concordances()[sid].sentences
        for c in s.clauses
        if c.entry.status in ("not-modelled", "no-rule") and any(not x.against for x in c.links)
    ]
    assert stale == []


def test_a_clause_that_is_not_in_its_sentence_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "concordance.yaml"
    path.write_text(
        "sentences:\n  - {source: enc-q, match: 'Le jeu de quadrille.', clause: 'nowhere at all',"
        " status: no-rule, why: x}\n",
        encoding="utf-8",
    )
    with pytest.raises(RuleFileError) as raised:
        load_entries(path, library=LIBRARY)
    assert "concordance/clause" in str(raised.value.problems[0].code)


def test_the_clauses_are_in_the_json() -> None:
    s = _sentence("tiré les places")
    shown = s.as_json()["clauses"]
    assert [c["status"] for c in shown] == ["not modelled", "not modelled", "encoded"]


def _of(source: str, words: str):  # type: ignore[no-untyped-def]
    return next(s for s in concordances()[source].sentences if words in s.text)


def test_the_danish_auction_s_end_is_encoded_its_nolos_not() -> None:
    """JHP: the auction ends when two have passed (encoded, `speech: duel`); the nolos
    several may play at once are not modelled: the sentence is read clause by clause, not
    shown wholly unmodelled."""
    s = _of("jhp", "Der fortsættes med at melde")
    assert s.status == "not modelled"
    statuses = [c.status for c in s.clauses]
    assert statuses == ["encoded", "not modelled"]


def test_the_online_sacada_of_nine_is_read_otherwise() -> None:
    """ROC-ONLINE's "Sacada (9 tricks) | Ombre +4" is knowingly scored as a bola made (6) by
    variants/tresillo-rocambor.yaml: read otherwise, not "not modelled"."""
    s = _of("roc-online", "Sacada (9 tricks)")
    assert s.status == "read otherwise"
    assert s.entry is not None and s.entry.by == (
        ("tresillo-rocambor", "settlement.points.entrada"),
    )


@pytest.mark.parametrize(
    ("source", "words"), [("lh35", "spilles bedst af 4"), ("vort-hjem", "sidder over")]
)
def test_the_fourth_who_sits_out_is_not_shown_encoded(source: str, words: str) -> None:
    """LH35 and Vort Hjem: three play each deal (encoded), but the fourth at the table who sits
    out is seated by no rule file (rules/dansk-lhombre.yaml has three players, no `sits_out`):
    the sentence is not modelled, its three players' clause encoded."""
    from engine import load_ruleset

    assert load_ruleset("dansk-lhombre").sits_out is None
    s = _of(source, words)
    assert s.status == "not modelled"
    assert "encoded" in {c.status for c in s.clauses}


def test_a_quote_that_is_a_whole_passage_links_that_passage_only() -> None:
    """DLU: "Spil | 1 | 2" is the spil's row; it is words of "Bedre spil | 1 | 2" too, but a
    quote that is a whole stored passage links that passage, so the bedre spil's row is not
    shown encoded by the spil's points."""
    spil = _of("dlu", "Spil | 1 | 2")
    assert spil.text == "Spil | 1 | 2"
    assert ("dansk-lhombre", "settlement.points.spil") in {(x.ruleset, x.path) for x in spil.links}
    bedre = _of("dlu", "Bedre spil | 1 | 2")
    assert {(x.ruleset, x.path) for x in bedre.links if x.ruleset == "dansk-lhombre"} == {
        ("dansk-lhombre", "settlement.points.bedre-spil")
    }


def test_the_academie_s_exception_for_claims_is_not_hidden() -> None:
    """ACAD PA25: items not claimed before the cut are lost (encoded), "excepté dans le cas
    expliqué aux Décisions", a case no stored page gives, is not modelled: the sentence is
    not shown encoded."""
    s = _of("acad", "ne sont dûs qu'autant qu'ils sont demandez")
    assert s.status == "not modelled"
    assert [c.status for c in s.clauses] == ["not modelled"]
    assert any(x.path == "laws.claims_before_next_deal" and not x.against for x in s.links)


@pytest.mark.parametrize(
    ("source", "words", "clause"),
    [
        # A Couleur that follows the first game won (German Solo sets it for the party).
        ("casino", "ein für allemal Treff", "entweder die, in der das erste Spiel gewonnen wurde"),
        ("pierer", "höhern Farbe (Couleur)", "welches gewöhnlich diejenige ist"),
        # The loser's other custom: leaving the stake to the opponents.
        ("casino", "Verliert er", "oder den Einsatz den Gegnern zu überlassen"),
        # Drawing lots for places or for the first dealer.
        ("jxci", "tirage au sort", "le donneur, désigné par tirage au sort"),
        ("pierer", "um die Plätze gezogen", "Wenn um die Plätze gezogen"),
    ],
)
def test_an_unencoded_alternative_is_its_own_clause(source: str, words: str, clause: str) -> None:
    """A sentence whose one alternative or step the model leaves out is read clause by clause:
    the clause is not modelled, so the sentence is not shown encoded by the citations of the
    rest."""
    s = _of(source, words)
    assert s.status == "not modelled"
    found = next(c for c in s.clauses if c.text.startswith(clause))
    assert found.status == "not modelled" and not found.links
