"""Golden records and the record format: replayed to the reference's results and payments.

The deals in tests/records/ were dealt from seeds and played by the heuristic bots
(tools/find_golden.py picked deals that illustrate each worked settlement); the figures
asserted here come from the rules reference (§4 and §4.1), not from the referee's own output.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine import load_ruleset
from engine.cli import app
from engine.errors import NotationError, RecordError
from engine.records import parse_record, read_record, replay, write_record

RECORDS = Path(__file__).parent / "records"
runner = CliRunner()


def replayed(name: str) -> dict:
    record = read_record(RECORDS / name)
    report = replay(record, load_ruleset(record.ruleset))
    assert report.complete and report.error is None, report.located
    return report.as_json()


def test_every_golden_record_round_trips() -> None:
    """parse(write(r)) == r for every committed record."""
    files = sorted(RECORDS.glob("*.yaml"))
    assert len(files) >= 10
    for path in files:
        record = read_record(path)
        assert parse_record(write_record(record)) == record, path.name


def test_quadrille_win() -> None:
    """4.1 (a): P2 calls, P2 and P4 win: P1 -14, P2 +9, P3 -4, P4 +9. [ENC-Q; inferred jeu 1 and consolation 2]"""
    deal = replayed("quadrille-ask-win.yaml")["deals"][0]
    assert deal["contract"] == "ask" and deal["declarer"] == 1 and deal["partners"] == [3]
    assert deal["result"] == "win" and deal["tricks_won"][1] + deal["tricks_won"][3] >= 6
    assert deal["balances"] == [-14, 9, -4, 9]
    assert deal["pot_before"] == 0 and deal["pot_after"] == 0


def test_quadrille_remise() -> None:
    """4.1 (b): remise: the 14 stay, a bête of 14, the consolation to each defender. [ENC-Q; inferred consolation]"""
    deal = replayed("quadrille-ask-remise.yaml")["deals"][0]
    assert deal["result"] == "remise" and deal["bete"] == 14
    assert deal["balances"] == [-9, -10, 1, -10] and deal["pot_after"] == 28


def test_quadrille_codille() -> None:
    """4.1 (c): codille: the defenders share the 14 and are paid jeu and consolation; bête of 14. [ENC-Q; inferred]"""
    deal = replayed("quadrille-ask-codille.yaml")["deals"][0]
    assert deal["result"] == "codille"
    assert deal["balances"] == [-1, -11, 9, -11] and deal["pot_after"] == 14


def test_mediateur_win_and_codille() -> None:
    """4.1 (d): médiateur won: 13 from each and the pot; lost by codille: 13 to each, 4 each of the pot, 2 kept. [ENC-Q]"""
    won = replayed("mediateur-win.yaml")["deals"][0]
    assert won["contract"] == "mediateur" and won["partners"] == []
    assert won["balances"] == [-24, 52, -14, -14]
    lost = replayed("mediateur-codille.yaml")["deals"][0]
    assert lost["balances"] == [6, -54, 16, 16] and lost["pot_after"] == 16


def test_quadrille_a_trois_remise() -> None:
    """4.1 (f): à trois, 13 on the table, remise makes a bête of 14. [ENC-Q; CG-EN PA46]"""
    deal = replayed("quadrille-a-trois-remise.yaml")["deals"][0]
    assert deal["given"] is not None and deal["demanded_from"] in (0, 2)
    assert deal["bete"] == 14 and deal["pot_after"] == 13 + 14
    assert deal["balances"] == [-11 + 2, -1 - 14 - 4, -1 + 2]


def test_ombre_four_three_two_wins() -> None:
    """Ombre: 4-3-2 wins; the Hombre takes the 9 staked. [ENC-HOM; CG-EN PA27]"""
    deal = replayed("ombre-entrada-win.yaml")["deals"][0]
    assert sorted(deal["tricks_won"]) == [2, 3, 4] and deal["tricks_won"][1] == 4
    assert deal["result"] == "win" and deal["balances"] == [-3, 6, -3]
    assert [e["seat"] for e in deal["exchanges"]] == [1, 2, 0]


def test_ombre_codille() -> None:
    """Ombre: an opponent beats the Hombre and takes the stake; the Hombre makes a bête of it. [CG-EN PA27]"""
    deal = replayed("ombre-codille.yaml")["deals"][0]
    assert deal["result"] == "codille" and deal["tricks_won"] == [5, 1, 3]
    assert deal["balances"] == [6, -12, -3] and deal["pot_after"] == 9


def test_tresillo_bola_made() -> None:
    """Tresillo: a bola (the vole announced with the bid) made sweeps the table and is paid the
    solo, nine matadors and the vole (the 12 staked, a third from each other seat, the alcalde
    included): 3 + 9 + 4 from each. [NHF: the alcalde "cobra y paga como los demás"; amounts
    conjecture, docs/decisions.md]"""
    deal = replayed("tresillo-bola-made.yaml")["deals"][0]
    assert deal["contract"] == "bola" and deal["result"] == "vole"
    assert deal["tricks_won"] == [0, 9, 0, 0]
    assert deal["balances"] == [-19, 57, -19, -19] and deal["pot_after"] == 0


def test_tresillo_bola_failed_but_game_won() -> None:
    """Tresillo: a bola that takes eight tricks wins the game (the 12 staked, the solo and
    eight matadors from each) and pays each other seat the vole (4). [conjecture]"""
    deal = replayed("tresillo-bola-failed.yaml")["deals"][0]
    assert deal["contract"] == "bola" and deal["result"] == "vole-failed"
    assert deal["tricks_won"][1] == 8
    assert deal["balances"] == [-10, 30, -10, -10] and deal["bete"] == 0


def test_tresillo_bola_lost_by_codillo() -> None:
    """Tresillo: a bola lost by codillo: the winner of codillo takes the stake; the Jugador pays
    each the solo and the vole (3 + 4) and makes a bête of 12. [conjecture]"""
    deal = replayed("tresillo-bola-codille.yaml")["deals"][0]
    assert deal["contract"] == "bola" and deal["result"] == "bola-codille"
    assert deal["balances"] == [4, -36, 16, 4] and deal["bete"] == 12
    assert deal["pot_after"] == 12


def test_party_of_remises_grows_the_betes() -> None:
    """37: three remises make bêtes of 14, 42 and 56. The fourth deal is won for the devant
    (42 + 14) and the largest bête (56) only: the bêtes of 42 and 14 wait their turn. [ENC-Q
    "Les plus grosses bêtes passent toujours les premieres"]"""
    report = replayed("quadrille-party-remises.yaml")
    assert [d["bete"] for d in report["deals"][:3]] == [14, 42, 56]
    assert [d["pot_before"] for d in report["deals"]] == [0, 28, 84, 154]
    last = report["deals"][-1]
    assert last["result"] == "win" and last["pot_after"] == 42 + 14
    assert sum(p["amount"] for p in last["payments"] if p["item"] == "pot") == 42 + 14 + 56
    assert sum(report["totals"]) == -(42 + 14)  # what still lies on the table


def test_party_after_codille() -> None:
    """37: a codille first: bêtes of 14 then 28. [ENC-Q]"""
    report = replayed("quadrille-party-codille.yaml")
    assert [d["bete"] for d in report["deals"][:2]] == [14, 28]
    assert sum(report["totals"]) == 0


# Illegal and malformed records.


def _mutated(tmp_path: Path, name: str, old: str, new: str) -> Path:
    text = (RECORDS / name).read_text(encoding="utf-8")
    assert old in text
    out = tmp_path / name
    out.write_text(text.replace(old, new, 1), encoding="utf-8")
    return out


def test_revoke_is_reported_with_its_rule(tmp_path: Path) -> None:
    """A revoke is reported with its index, a stable code and the rule's source; the replay stops there. [ENC-Q]"""
    from engine.records import record_of
    from tests.referee_helpers import deal_with, into_play

    deal = deal_with(
        "quadrille", {1: "Ks 7s 6s Kd Qd Jd Ad 3d 4d 5d", 2: "2s Kc Qc Jc 7c 6c 5c 4c 3c 2c"}
    )
    into_play(deal, "sans-prendre", "diamonds")
    deal.apply("1 play 6s")
    text = write_record(record_of([deal], "quadrille")).replace(
        "  - 1 play 6s\n", "  - 1 play 6s\n  - 2 play Kc\n  - 3 play 7h\n"
    )
    path = tmp_path / "revoke.yaml"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["replay", "--json", str(path)])
    assert result.exit_code == 1, result.output
    document = json.loads(result.stdout)
    assert document["complete"] is False
    error = document["error"]
    assert error["index"] == 6 and error["action"] == "2 play Kc"
    assert error["code"] == "play/must-follow-suit"
    assert "enc-q" in error["message"]
    assert document["deals"][0]["contract"] == "sans-prendre"


def test_illegal_action_located_in_text_mode(tmp_path: Path) -> None:
    """Text mode names FILE:LINE:COLUMN of the offending action and exits 1, without a traceback."""
    path = _mutated(tmp_path, "quadrille-ask-win.yaml", "  - 2 pass", "  - 2 bid forced-spadille")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1
    assert "bid/not-biddable" in result.output and f"{path}:" in result.output
    assert "Traceback" not in result.output


def test_record_that_stops_early_is_incomplete_not_an_error(tmp_path: Path) -> None:
    record = read_record(RECORDS / "quadrille-ask-win.yaml")
    deal = record.deals[0]
    short = type(record)(
        record.ruleset,
        (type(deal)(deal.dealer, deal.hands, deal.talon, None, deal.actions[:9]),),
        record.options,
    )
    path = tmp_path / "short.yaml"
    path.write_text(write_record(short), encoding="utf-8")
    result = runner.invoke(app, ["replay", "--json", str(path)])
    assert result.exit_code == 0
    document = json.loads(result.stdout)
    assert document["complete"] is False and document["error"] is None


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("ruleset: quadrille\ndealer: 0\nhands: [[As]]\nactions: []\n", "record/deal"),
        (
            "ruleset: quadrille\ndealer: 0\nseed: 1\nactions: [1 bid ask]\nplayer: 2\n",
            "record/unknown-key",
        ),
        ("ruleset: quadrille\ndealer: 0\nhands: [[Xx]]\n", "record/card"),
        ("dealer: 0\nseed: 4\n", "record/no-ruleset"),
        ("ruleset: nosuchgame\nseed: 4\n", "record/unknown-ruleset"),
        ("- 1 pass\n", "record/not-a-mapping"),
        ("ruleset: quadrille\nseed: 1\nactions: [5]\n", "record/type"),
        ("ruleset: [quadrille\n", "yaml/syntax"),
    ],
)
def test_malformed_records(tmp_path: Path, text: str, code: str) -> None:
    """A malformed record gets a located message and exit 1, never a traceback."""
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1, result.output
    assert code in result.output and "Traceback" not in result.output
    assert f"{path}:" in result.output


def test_unparseable_action_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "bad-action.yaml"
    path.write_text(
        "ruleset: quadrille\ndealer: 0\nseed: 9\nactions: [1 dance]\n", encoding="utf-8"
    )
    result = runner.invoke(app, ["replay", "--json", str(path)])
    assert result.exit_code == 1
    assert json.loads(result.stdout)["error"]["code"] == "notation/invalid"


def test_missing_record_is_a_usage_error() -> None:
    result = runner.invoke(app, ["replay", "no/such/record.yaml"])
    assert result.exit_code == 2 and "no such file" in result.output


def test_record_parse_problems_are_collected() -> None:
    with pytest.raises(RecordError) as caught:
        parse_record("ruleset: quadrille\ndealer: x\nhands: [[Zz, As]]\nactions: [3]\n", "r.yaml")
    codes = {p.code for p in caught.value.problems}
    assert {"record/type", "record/card"} <= codes
    assert all(p.line is not None for p in caught.value.problems)


def test_seed_record_deals_like_the_referee() -> None:
    """A record may give `seed: N` for the referee's own (deterministic) shuffle."""
    record = parse_record(
        "ruleset: ombre\ndealer: 2\nseed: 12\nactions: [0 pass, 1 pass, 2 pass]\n"
    )
    report = replay(record, load_ruleset("ombre"))
    assert report.complete and report.deals[0]["result"] == "redeal"
    assert report.deals[0]["balances"] == [-3, -3, -3]


def test_malformed_record_with_json_is_still_one_document(tmp_path: Path) -> None:
    """--json prints one JSON document on stdout even for a malformed record; exit 1."""
    path = tmp_path / "bad.yaml"
    path.write_text("ruleset: quadrille\ndealer: 0\nhands: [[Zz]]\n", encoding="utf-8")
    result = runner.invoke(app, ["replay", "--json", str(path)])
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    assert document["complete"] is False and document["error"]["code"] == "record/card"
    assert document["error"]["problems"][0]["line"] == 3


def test_unknown_option_in_a_record_is_located(tmp_path: Path) -> None:
    path = tmp_path / "opt.yaml"
    path.write_text(
        "ruleset: quadrille-a-trois\noptions: {removed-suit: spades}\nseed: 3\n", encoding="utf-8"
    )
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1 and "record/options" in result.output and ":2:" in result.output


def test_a_malformed_records_json_report_is_the_engines_own(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from engine.cli import app
    from engine.errors import RecordError
    from engine.records import ReplayReport, read_record

    path = tmp_path / "bad.yaml"
    path.write_text("ruleset: quadrille\nseed: one\n", encoding="utf-8")
    with pytest.raises(RecordError) as info:
        read_record(path)
    result = CliRunner().invoke(app, ["replay", "--json", str(path)])
    assert result.exit_code == 1
    assert json.loads(result.stdout) == ReplayReport.malformed(info.value).as_json()
    assert json.loads(result.stdout)["ruleset"] is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Both were read without a word: the options as none, the party's seed ignored.
        (
            "ruleset: quadrille\noptions: []\nseed: 1\n",
            (2, "record/type", "options must be a mapping"),
        ),
        (
            "ruleset: quadrille\nseed: x\ndeals: [{dealer: 0, seed: 1}]\n",
            (2, "record/type", "seed must be a whole number"),
        ),
        (
            "ruleset: quadrille\ndeals: [{dealer: 0}]\ndealer: 1\n",
            (3, "record/unknown-key", "'dealer' belongs inside each deal of a party"),
        ),
        (
            "ruleset: quadrille\ndealr: 0\nseed: 1\n",
            (2, "record/unknown-key", "unknown key 'dealr'; did you mean 'dealer'?"),
        ),
    ],
)
def test_the_record_schema_refuses_with_the_records_own_codes(
    text: str, expected: tuple[int, str, str]
) -> None:
    """Records are checked as rule files are: engine/schema/record.schema.json, every problem
    located, with the record/* codes and wording."""
    with pytest.raises(RecordError) as caught:
        parse_record(text, "r.yaml")
    assert expected in [(p.line, p.code, p.message) for p in caught.value.problems]


def test_a_records_problems_come_in_the_order_of_the_file() -> None:
    with pytest.raises(RecordError) as caught:
        parse_record(
            "ruleset: quadrille\ntitle: 5\ndealer: x\nhands: [[Zz]]\nactions: [x pass]\n", "r.yaml"
        )
    assert [(p.line, p.code) for p in caught.value.problems] == [
        (2, "record/type"),
        (3, "record/type"),
        (4, "record/card"),
        (5, "record/seat"),
    ]


def test_the_record_schema_is_valid_and_names_every_key_the_format_has() -> None:
    import json

    from jsonschema import Draft202012Validator

    from engine.rules.schema_pass import schema_file

    schema = json.loads(schema_file("record").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    single = set(schema["else"]["properties"])
    assert {"ruleset", "options", "dealer", "hands", "talon", "seed", "actions", "table"} <= single
    assert set(schema["$defs"]["deal"]["properties"]) == {
        "dealer",
        "hands",
        "talon",
        "seed",
        "actions",
        "note",
        "cut",
        "packets",
        "unclaimed",
    }


def test_garbled_records_never_escape_as_other_errors() -> None:
    """Random damage to a valid record gives a RecordError or a report, never a traceback."""
    text = (Path(__file__).parent / "records" / "ombre-entrada-win.yaml").read_text(
        encoding="utf-8"
    )
    rules = load_ruleset("ombre")
    rng = random.Random(7)
    alphabet = "\n :-[]{},#&*!|>'\"0123456789abcdefghijklmnopqrstuvwxyzAKQJ"
    for _ in range(300):
        chars = list(text)
        for _ in range(rng.randint(1, 6)):
            i = rng.randrange(len(chars))
            chars[i] = rng.choice(alphabet)
        try:
            record = parse_record("".join(chars))
            replay(record, rules)
        except (RecordError, NotationError):
            pass


def test_danish_duel_the_overcalled_forehand_answers() -> None:
    """Dansk l'hombre's duel auction (lh35: "Afgiver mellemhånden en melding der er højere end
    forhåndens melding kan forhånden enten sige Pas eller afgive en melding"): the forehand
    (seat 1) bids spil, the middlehand bedre spil, the forehand answers with a tourné before
    the rearhand (the dealer, seat 0) speaks; he wins it with 4 tricks to 3 and 2, a tourné
    won: 2 points (dlu, Pointgivning for meldinger: "Tourné | 2 | 3")."""
    record = read_record(RECORDS / "dansk-lhombre-duel-tourne.yaml")
    deal = record.deals[0]
    assert [str(a) for a in deal.actions[:5]] == [
        "1 bid spil",
        "2 bid bedre-spil",
        "1 bid tourne",
        "2 pass",
        "0 pass",
    ]
    played = replayed("dansk-lhombre-duel-tourne.yaml")["deals"][0]
    assert played["contract"] == "tourne" and played["declarer"] == 1
    assert played["result"] == "win" and played["tricks_won"] == [3, 4, 2]
    assert played["balances"] == [0, 2, 0]
