"""One schema of a deal's ``score:`` (engine/schema/score.schema.json), for every scorekeeper.

The evening's file, a tournament's tables, the terminal's answers and the web's form are all
read by :func:`engine.scoresheet.parse_entry`, which checks the fields and their types against
this one schema; the web's form fields are the schema's (``x-form``). A new field is added
there once.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import pytest

from engine import load_ruleset
from engine.actions import FAULTS
from engine.errors import IllegalActionError, NotationError, RecordError
from engine.referee.laws import SCORED_LAWS
from engine.rules.schema_pass import schema
from engine.scoresheet import (
    Entry,
    Evening,
    parse_entry,
    read_evening,
    score_fields,
    score_form_fields,
)
from tests.scorekeeper_helpers import quadrille_entry

FIELDS = score_fields()


def test_the_schema_states_every_field_an_entry_writes() -> None:
    # Every key Entry.as_score can write is a field of the schema, and nothing else is.
    full = Entry(
        dealer=0,
        contract="ask",
        declarer=1,
        trump="clubs",
        called="Kd",
        holder=3,
        tricks=(1, 3, 3, 3),
        vole=True,
        vole_by=2,
        latest_of_tied=1,
        highest_trump=0,
        trump_holders=(0, 1),
        renonces=(2,),
        surrendered=True,
        held=(("Ad", 2),),
        penalties=((1, "x"),),
        unclaimed=("spadille",),
    ).as_score()
    void = {**Entry(dealer=0, misdeal="faced").as_score(), **Entry(0, extra_card=1).as_score()}
    written = set(full) | set(void) | {"passed", "irregularities"}
    assert written == set(FIELDS)


def test_the_schemas_words_are_the_referees() -> None:
    score = schema("score")["properties"]
    laws = score["irregularities"]["items"]["properties"]["law"]["enum"]
    assert laws == list(SCORED_LAWS)
    assert all(f in score["misdeal"]["x-messages"]["type"] for f in FAULTS)
    # The evening's deals refer to it: one statement of a score:.
    deal = schema("evening")["$defs"]["deal"]["properties"]["score"]
    assert deal["$ref"] == "score.schema.json"


def test_the_web_form_fields_are_the_schemas() -> None:
    from engine.web.app import IRREGULARITY_ROWS, SCORE_FIELDS

    form = score_form_fields(6, IRREGULARITY_ROWS)
    assert form | {"version", "count", "dealer"} == SCORE_FIELDS
    for name in ("contract", "tricks0", "tricks5", "renonces3", "irr2_law", "penalty_fault"):
        assert name in form
    assert {"surrendered", "held_Ad", "held_Ah"} <= form
    # Every field of the schema has its form fields.
    assert all(schema("score")["properties"][f].get("x-form") for f in FIELDS)


def test_an_unknown_field_is_named_with_the_fields() -> None:
    with pytest.raises(NotationError, match="unknown score field 'colour'") as error:
        parse_entry({**quadrille_entry(), "colour": "red"}, dealer=0, n=4)
    assert all(f in str(error.value) for f in FIELDS)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"passed": "yes"}, "passed must be true or false, not 'yes'"),
        ({"matadors": -1}, "matadors must be a whole number, not -1"),
        ({"matadors": 2.0}, "matadors must be a whole number, not 2.0"),
        ({"vole": 1}, "vole must be true or false, not 1"),
        ({"tricks": "1 3 3 3"}, "tricks must list the tricks of each seat"),
        ({"tricks": [1, 3, "3", 3]}, "a seat's tricks must be a whole number, not '3'"),
        ({"declarer": "1"}, "declarer must be a seat number, not '1'"),
        ({"renonces": 2}, "renonces must list the offending seats"),
        ({"held": ["Ad"]}, "held maps each card paid for to the seat that held it"),
        ({"held": {"Ad": "two"}}, "the holder of a card paid for must be a seat number"),
        ({"penalties": [{"seat": 1}]}, r"penalty 1: each penalty is \{seat: N, fault: ID\}"),
        ({"penalties": [{"seat": 1, "fault": ""}]}, "penalty 1: a penalty's fault is the id"),
        ({"unclaimed": [3]}, "unclaimed lists the payment items"),
        ({"surrendered": "no"}, "surrendered must be true or false"),
        ({"contract": 3}, "contract is missing"),
    ],
)
def test_a_field_of_the_wrong_type_is_refused_naming_it(
    changes: dict[str, Any], message: str
) -> None:
    with pytest.raises(NotationError, match=message):
        parse_entry(quadrille_entry(**changes), dealer=0, n=4)


def test_what_depends_on_the_table_is_still_checked() -> None:
    with pytest.raises(NotationError, match="declarer must be a seat from 0 to 3, not 7"):
        parse_entry(quadrille_entry(declarer=7), dealer=0, n=4)
    with pytest.raises(NotationError, match="tricks of each of the 4 seats"):
        parse_entry(quadrille_entry(tricks=[1, 3, 6]), dealer=0, n=4)
    with pytest.raises(NotationError, match="misdeal names the fault"):
        parse_entry({"misdeal": "wet"}, dealer=0, n=4)


HOSTILE: list[Any] = [None, "", "x", "<script>", -1, 0, 7, 2.5, True, [], [None], {}, {"a": 1}]


@pytest.mark.parametrize("field", FIELDS)
def test_no_value_of_any_field_makes_a_traceback(field: str) -> None:
    # Each field given each hostile value: an Entry, or a NotationError; then the referee's
    # settlement or its refusal. Never another exception.
    rules = load_ruleset("quadrille")
    for value in HOSTILE:
        for base in (quadrille_entry(), {"passed": True}, {"misdeal": "faced"}):
            try:
                entry = parse_entry({**base, field: value}, dealer=0, n=4)
            except NotationError:
                continue
            with contextlib.suppress(IllegalActionError, NotationError):
                Evening(rules).score(entry)


def test_a_wrong_type_in_an_evenings_file_is_located(tmp_path: Path) -> None:
    text = (
        "ruleset: quadrille\n"
        "deals:\n"
        "  - dealer: 0\n"
        "    score: {contract: ask, declarer: 1, trump: clubs, called: Kd, holder: 3,\n"
        "            tricks: [1, 3, 3, x], matadors: lots, vole: false, colour: red}\n"
    )
    with pytest.raises(RecordError) as error:
        read_evening(text, "bad.yaml", load_ruleset)
    found = {(p.path, p.line, p.code) for p in error.value.problems}
    assert found == {
        ("$.deals[0].score.tricks[3]", 5, "record/score"),
        ("$.deals[0].score.matadors", 5, "record/score"),
        ("$.deals[0].score.colour", 5, "record/score"),
    }
    messages = " ".join(p.message for p in error.value.problems)
    assert "matadors must be a whole number, not 'lots'" in messages
    assert "unknown score field 'colour'" in messages


def test_what_depends_on_the_table_is_located_at_its_field() -> None:
    # A seat past the table's, a card that is none, an item of a list: at the field itself.
    text = (
        "ruleset: quadrille\n"
        "deals:\n"
        "  - dealer: 0\n"
        "    score:\n"
        "      contract: ask\n"
        "      declarer: 1\n"
        "      trump: clubs\n"
        "      called: Kd\n"
        "      holder: {holder}\n"
        "      tricks: [1, 3, 3, 3]\n"
        "      irregularities: [{{seat: 0, law: turned_hand, hand: {hand}}}]\n"
    )
    for holder, hand, where in (
        ("7", "2", (9, 7, "$.deals[0].score.holder")),
        ("3", "9", (11, 52, "$.deals[0].score.irregularities[0].hand")),
    ):
        with pytest.raises(RecordError) as error:
            read_evening(text.format(holder=holder, hand=hand), "bad.yaml", load_ruleset)
        [problem] = error.value.problems
        assert (problem.line, problem.column, problem.path) == where
        assert problem.code == "record/score" and "seat from 0 to 3" in problem.message
