"""The OpenSpiel game (engine/spiel): OpenSpiel's own conformance test on every rule file, the
golden playthroughs, and what a seat is shown.

These need the extra ``[openspiel]``, which ``make test`` installs.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the [openspiel] extra is not installed")

import engine.spiel  # noqa: E402, F401  (registers the game)
from engine import load_ruleset  # noqa: E402
from engine.rules.loader import default_registry  # noqa: E402
from engine.spiel import game_string  # noqa: E402
from engine.spiel.codec import DRAW_ID, Codec  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ALL = [e.id for e in default_registry().entries()]
# Every setup option value, beside each file's defaults.
OPTIONED = [
    (rid, {oid: suit.value})
    for rid in ALL
    for oid, option in load_ruleset(rid).options.items()
    for suit in option.choices
    if suit is not option.default
]


def _random_terminal(game: object, rng: random.Random) -> object:
    state = game.new_initial_state()  # type: ignore[attr-defined]
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choice(outcomes)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("ruleset", ALL)
def test_random_sim_test_with_serialization(ruleset: str) -> None:
    # OpenSpiel's conformance test: random plays, every observation, clone and serialize.
    game = pyspiel.load_game(game_string(ruleset))
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize(("ruleset", "options"), OPTIONED, ids=lambda v: str(v))
def test_random_sim_test_every_option(ruleset: str, options: dict[str, str]) -> None:
    game = pyspiel.load_game(game_string(ruleset, options, dealer=1))
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_parameters_are_declared_with_their_defaults() -> None:
    game_type = pyspiel.load_game("ombre_workbench").get_type()
    assert game_type.parameter_specification == {
        "ruleset": "quadrille",
        "options": "",
        "dealer": 0,
        "deals": 0,
        "deal_seed": 0,
    }
    assert game_type.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert game_type.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    game = pyspiel.load_game("ombre_workbench(ruleset=hombre,dealer=2)")
    assert game.num_players() == 3
    assert game.get_parameters()["dealer"] == 2


@pytest.mark.parametrize(
    "text",
    [
        "ombre_workbench(ruleset=no-such-game)",
        "ombre_workbench(ruleset=quadrille,dealer=4)",
        "ombre_workbench(ruleset=quadrille,options=removed-suit:hearts)",
        "ombre_workbench(ruleset=quadrille-a-trois,options=removed-suit:spades)",
        "ombre_workbench(ruleset=quadrille-a-trois,options=removed-suit)",
        "ombre_workbench(ruleset=quadrille-small,deals=-1)",
        "ombre_workbench(ruleset=quadrille-small,deals=400000)",
    ],
)
def test_bad_parameters_are_refused_with_a_message(text: str) -> None:
    with pytest.raises((pyspiel.SpielError, ValueError), match="ombre_workbench"):
        pyspiel.load_game(text)


def test_returns_are_the_settlement() -> None:
    rng = random.Random(3)
    game = pyspiel.load_game(game_string("quadrille"))
    seen_remise = False
    for _ in range(40):
        state = _random_terminal(game, rng)
        deal = state.core.deal
        s = deal.settlement
        assert state.returns() == [float(b) for b in s.balances]
        assert sum(s.balances) + s.pot_after - s.pot_before == 0
        seen_remise |= s.pot_after != 0
        assert all(game.min_utility() <= r <= game.max_utility() for r in state.returns())
    # A remise keeps counters in the pot: the returns do not sum to zero (general-sum).
    assert seen_remise


def test_illegal_action_is_refused() -> None:
    game = pyspiel.load_game(game_string("quadrille"))
    state = game.new_initial_state()
    state.apply_action(0)
    with pytest.raises(pyspiel.SpielError):
        state.apply_action(0)  # the same card again


def test_the_ecart_is_single_cards_the_referee_checks() -> None:
    rng = random.Random(5)
    game = pyspiel.load_game(game_string("ombre"))
    codec = Codec(load_ruleset("ombre"), {}, 0)
    checked = 0
    for _ in range(30):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            deal = state.core.deal
            legal = state.legal_actions()
            if deal.phase == "exchange":
                assert DRAW_ID in legal
                picks = [a - codec.pick_base for a in legal if a != DRAW_ID]
                # Only cards of the hand, above the last one picked, within the limit.
                assert all(deal.hands[deal.to_move] >> c & 1 for c in picks)
                if len(state.core.picks) >= deal.exchange_limit():
                    assert legal == [DRAW_ID]
                before = len(deal.exchanges)
                action = rng.choice(legal)
                state.apply_action(action)
                if action == DRAW_ID:
                    assert len(deal.exchanges) == before + 1
                    checked += 1
            else:
                state.apply_action(rng.choice(legal))
    assert checked > 10


@pytest.mark.parametrize("ruleset", ["quadrille", "ombre", "mediateur", "tresillo"])
def test_a_seat_is_shown_nothing_it_may_not_see(ruleset: str) -> None:
    # Dealing the unseen cards anew changes nothing the seat observes: its information state,
    # observation and their tensors depend only on its own cards and the public play.
    rng = random.Random(11)
    game = pyspiel.load_game(game_string(ruleset))
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    compared = 0
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            seat = state.current_player()
            for p in range(game.num_players()) if rng.random() < 0.5 else ():
                other = state.resample_from_infostate(p, sampler)
                assert other.information_state_string(p) == state.information_state_string(p)
                assert other.information_state_tensor(p) == state.information_state_tensor(p)
                assert other.observation_tensor(p) == state.observation_tensor(p)
                assert other.current_player() == seat
                compared += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert compared > 30


def test_resampled_worlds_differ_from_the_truth() -> None:
    rng = random.Random(2)
    game = pyspiel.load_game(game_string("quadrille"))
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    seat = state.current_player()
    truth = list(state.core.deal.hands)
    worlds = [state.resample_from_infostate(seat, sampler).core.deal.hands for _ in range(5)]
    assert all(w[seat] == truth[seat] for w in worlds)
    assert any(w[(seat + 1) % 4] != truth[(seat + 1) % 4] for w in worlds)


def test_private_observation_shows_no_other_hand() -> None:
    rng = random.Random(7)
    game = pyspiel.load_game(game_string("quadrille"))
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    deal = state.core.deal
    for p in range(4):
        text = state.information_state_string(p)
        for other in range(4):
            if other != p:
                for card in deal.hand(other):
                    assert not re.search(rf"\b{card}\b", text)
    # Only the perfect-information observer, asked for by its type, shows them
    # (tests/test_spiel_small.py).
    everything = game.make_py_observer(
        pyspiel.IIGObservationType(
            perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
        )
    )
    text = everything.string_from(state, 0)
    assert all(re.search(rf"\b{card}\b", text) for s in range(4) for card in deal.hand(s))


def test_the_partner_is_public_once_the_called_card_appears() -> None:
    """Before the called king appears, a public observation names no partner (string and
    tensor); from the trick it lies in, both name its holder, for every seat alike."""
    rng = random.Random(3)
    game = pyspiel.load_game(game_string("quadrille"))
    public = game.make_py_observer(
        pyspiel.IIGObservationType(
            perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
        )
    )
    for _ in range(40):
        state = game.new_initial_state()
        seen_before = seen_after = False
        while not state.is_terminal():
            if not state.is_chance_node():
                deal = state.core.deal
                called = deal.called
                shown = called is not None and deal.partner_public()
                for p in range(4):
                    public.set_from(state, p)
                    piece = public.dict["public_partner"]
                    text = public.string_from(state, p)
                    if shown:
                        holder = 4 if deal.partner is None else deal.partner
                        assert piece[holder] == 1 and piece.sum() == 1
                        assert (
                            f"public_partner={'none' if deal.partner is None else holder}" in text
                        )
                        seen_after = True
                    else:
                        assert piece.sum() == 0 and "public_partner" not in text
                        seen_before = seen_before or called is not None
            actions = state.chance_outcomes() if state.is_chance_node() else None
            if actions:
                state.apply_action(rng.choice(actions)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        if seen_before and seen_after:
            return
    raise AssertionError("no deal called a king and played it")


@pytest.mark.parametrize(
    "ruleset", ["dansk-lhombre", "tresillo-rocambor", "mediateur", "quadrille"]
)
@pytest.mark.parametrize("recall", [False, True])
def test_two_states_a_seat_tells_apart_by_string_never_share_a_tensor(
    ruleset: str, recall: bool
) -> None:
    """Every fact the observation and information-state strings show is in the tensors: the
    open declarer's hand (Danish nolo ouvert), the seat a card was demanded of (Médiateur),
    the moves offered, the suit a bid names (Rocambor's solo), the public partner."""
    rng = random.Random(11)
    game = pyspiel.load_game(game_string(ruleset))
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=recall))
    seen: dict[tuple[int, bytes], str] = {}
    for _ in range(12):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            for p in range(game.num_players()):
                observer.set_from(state, p)
                text = observer.string_from(state, p)
                assert seen.setdefault((p, observer.tensor.tobytes()), text) == text
            state.apply_action(rng.choice(state.legal_actions()))
    assert len(seen) > 100


# The golden playthroughs (make playthroughs writes them).

CANONICAL = ("ombre", "quadrille", "quadrille-a-trois", "mediateur")


@pytest.mark.parametrize("ruleset", CANONICAL)
def test_golden_playthrough(ruleset: str) -> None:
    from open_spiel.python.algorithms import generate_playthrough

    path = ROOT / "tests" / "playthroughs" / f"ombre_workbench_{ruleset}.txt"
    original = path.read_text(encoding="utf-8")
    game = re.search(r"^game: (.*)$", original, re.MULTILINE)
    assert game is not None
    actions = [int(a) for a in re.findall(r"^action: (\d+)$", original, re.MULTILINE)]
    assert len(actions) > 40
    again = generate_playthrough.playthrough(game.group(1), actions)
    assert again == original, f"{path.name} is out of date: run `make playthroughs`"


# OpenSpiel's players at the workbench's table.


def test_simulate_seats_ismcts_the_same_for_any_jobs() -> None:
    from engine.simulate import Setup, parse_bots, run

    rules = load_ruleset("quadrille")
    kinds = parse_bots(
        "ismcts:simulations=4,heuristic,random,heuristic", 4, ["random", "heuristic"]
    )
    setup = Setup(rules, kinds, 3)
    one = run(setup, 10, jobs=1).as_json()
    two = run(setup, 10, jobs=2).as_json()
    assert one["digest"] == two["digest"]
    assert one["by_bot"]["ismcts:simulations=4"]["seats"] == [0]


def test_spiel_bot_plays_the_ecart_and_the_registered_bots() -> None:
    from engine.referee import Deal
    from engine.spiel.bots import SpielBot

    rules = load_ruleset("ombre")
    for kind in ("ismcts:simulations=3:worlds=2", "uniform_random"):
        deal = Deal(rules, seed=4)
        bots = [SpielBot(kind, k) for k in range(3)]
        while not deal.is_over:
            seat = deal.to_move
            action = bots[seat].choose(deal, seat)
            deal.apply(action)  # checked: the adapter returns only what the referee accepts
        assert deal.settlement is not None


def test_ismcts_with_the_heuristics_bidding_bids_as_the_heuristic_and_plays_its_own_cards() -> None:
    """``bidding=heuristic``: every decision before the first card is the heuristic bot's own
    (the same action, asked of a heuristic bot seeded alike); the cards are the search's, and
    with ``rollout=heuristic`` its leaves are played out by the heuristic (a finished deal)."""
    from engine.bots.heuristic import HeuristicBot
    from engine.referee import Deal, Phase
    from engine.spiel.bots import SpielBot

    for ruleset in ("quadrille", "ombre"):
        rules = load_ruleset(ruleset)
        for seed in range(3):
            deal = Deal(rules, seed=seed)
            kind = "ismcts:simulations=3:bidding=heuristic:rollout=heuristic"
            bots = [SpielBot(kind, k) for k in range(rules.players)]
            twins = [
                HeuristicBot(SpielBot(kind, k).rng.getrandbits(32)) for k in range(rules.players)
            ]
            asked_in_play = 0
            while not deal.is_over:
                seat = deal.to_move
                before_play = deal.phase not in (Phase.PLAY, Phase.VOLE)
                action = bots[seat].choose(deal, seat)
                if before_play:
                    assert action == twins[seat].choose(deal, seat)
                else:
                    asked_in_play += 1
                deal.apply(action)
            assert deal.settlement is not None
            assert asked_in_play or deal.result == "redeal"


def test_the_heuristic_rollout_values_a_leaf_by_the_deal_played_out() -> None:
    from engine.bots.heuristic import HeuristicBot
    from engine.spiel import OmbreGame
    from engine.spiel.bots import HeuristicRollout

    game = OmbreGame({"ruleset": "quadrille"})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    value = HeuristicRollout(1, 5).evaluate(state)
    bot, deal = HeuristicBot(5), state.core.deal.copy()
    while not deal.is_over:
        deal.apply(bot.choose(deal, deal.to_move))
    assert list(value) == list(deal.settlement.balances)
    assert state.core.deal.phase == "auction"  # the leaf itself is left as it was
    legal = state.legal_actions()
    prior = HeuristicRollout(1, 5).prior(state)
    assert [a for a, _ in prior] == legal and abs(sum(p for _, p in prior) - 1) < 1e-9


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("ismcts:sims=4", "no setting 'sims=4'"),
        ("ismcts:simulations=many", "simulations must be a int"),
        ("ismcts:rollout=greedy", "rollout must be random or heuristic, not 'greedy'"),
        ("ismcts:bidding=yes", "bidding must be search or heuristic, not 'yes'"),
        ("alphazero", "--bots must be one of"),
    ],
)
def test_bad_spiel_bot_kinds_are_refused(text: str, message: str) -> None:
    from engine.simulate import parse_bots

    with pytest.raises(ValueError, match=re.escape(message)):
        parse_bots(text, 4, ["random", "heuristic", "search"])


# OpenSpiel keeps a state's history in C++ (State::ApplyAction); a state driven from Python
# must show every reader, Python or C++, the same history as its moves.


@pytest.mark.parametrize("ruleset", ["quadrille", "ombre"])
def test_a_state_driven_from_python_keeps_openspiels_history(ruleset: str) -> None:
    # apply_action is OpenSpiel's own (a Python override that skipped C++ would leave the C++
    # history empty: benchmarks/bench_playouts.py), so history(), full_history(),
    # move_number(), clone(), child() and serialization agree with the moves made.
    from engine.spiel import OmbreState

    assert OmbreState.apply_action is pyspiel.State.apply_action
    rng = random.Random(12)
    game = pyspiel.load_game(game_string(ruleset))
    state = game.new_initial_state()
    players: list[int] = []
    k = 0
    while not state.is_terminal():
        legal = (
            [a for a, _ in state.chance_outcomes()]
            if state.is_chance_node()
            else state.legal_actions()
        )
        action = rng.choice(legal)
        if k % 7 == 0:
            child = state.child(action)
            assert child.history() == [*state.history(), action]
        players.append(state.current_player())
        state.apply_action(action)
        k += 1
        moves = list(state.core.moves)
        assert state.history() == moves
        assert state.history_str() == ", ".join(map(str, moves))
        assert [(h.player, h.action) for h in state.full_history()] == list(
            zip(players, moves, strict=True)
        )
        assert state.move_number() == len(moves)
        if k % 11 == 0 or state.is_terminal():
            clone = state.clone()
            assert clone.history() == moves and clone.move_number() == len(moves)
            text = pyspiel.serialize_game_and_state(game, state)
            assert (
                f"history={','.join(f'{p}:{a}' for p, a in zip(players, moves, strict=True))}\n"
                in text
            )
            _, again = pyspiel.deserialize_game_and_state(text)
            assert again.history() == moves
            assert str(again) == str(state)
            assert again.legal_actions() == state.legal_actions()
            for p in range(game.num_players()):
                assert again.information_state_string(p) == state.information_state_string(p)
                assert again.observation_tensor(p) == state.observation_tensor(p)
    assert state.returns() == again.returns()


def test_cpp_consumers_of_a_state_driven_from_python() -> None:
    # C++ consumers given a state advanced from Python: OpenSpiel's MCTS searches from it
    # (MCTSBot.mcts_search; its step releases the GIL before cloning a Python state, which
    # crashes for every Python game: docs/openspiel.md), and C++ evaluate_bots plays it out.
    rng = random.Random(4)
    game = pyspiel.load_game(game_string("quadrille"))
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    state.apply_action(rng.choice(state.legal_actions()))
    while len(state.legal_actions()) < 2:
        state.apply_action(rng.choice(state.legal_actions()))
    history = state.history()
    bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 3), 2.0, 20, 10, False, 5, False)
    root = bot.mcts_search(state)
    assert root.best_child().action in state.legal_actions()
    assert sorted(child.action for child in root.children) == state.legal_actions()
    assert root.explore_count > len(root.children)
    bots = [pyspiel.make_uniform_random_bot(p, 7) for p in range(game.num_players())]
    clone = state.clone()
    returns = pyspiel.evaluate_bots(clone, bots, 3)
    assert clone.is_terminal() and clone.history()[: len(history)] == history
    assert returns == clone.returns()
    assert state.history() == history
