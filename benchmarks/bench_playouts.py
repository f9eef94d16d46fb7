"""Benchmark: issue 17's playout figures in one run (prints figures, asserts nothing).

* the checked API: ``bench_referee.py``'s loop on Quadrille (random legal actions through
  ``Deal.legal_actions``/``Deal.apply``, the settlement included), deals per second;
* a minimal hand-written Quadrille card-play loop: 40 cards dealt ten each, trumps drawn,
  ten tricks of random legal cards (follow suit if you can, else anything), each trick won by
  the trump order Spadille, Manille, Basto, then the trump suit, else the highest of the suit
  led. No auction, écart or settlement: the floor any rule engine stands on;
* the OpenSpiel adapter's random playouts (``ombre_workbench(ruleset=quadrille)``, the deal's
  chance nodes included) and OpenSpiel's own C++ ``oh_hell`` (4 players, 10 tricks) driven
  from Python the same way, when ``open-spiel`` is installed;
* the same playouts through :class:`engine.spiel.pystate.PythonGame`, the game whose states
  are Python alone (no C++ history, no trampolines: the states OpenSpiel's Python algorithms
  take), when the checkout has it;
* two floors under that driver, registered Python games that do nothing but count 40 chance
  nodes and 45 moves (a Quadrille deal's), answering in Python what the adapter answers in
  Python: the first with OpenSpiel's ``apply_action`` (C++: it keeps the history and calls
  back into Python twice, for the current player and for ``_apply_action``), as the adapter
  does; the second with ``apply_action`` overridden in Python, which never reaches C++ and so
  leaves OpenSpiel's history empty. That second design is not shippable (below); it is
  measured to show that even it gains little over ``oh_hell``.

    python benchmarks/bench_playouts.py [--seconds S] [--rounds R] [--root DIR]... [--compiled]
    python benchmarks/bench_playouts.py --split [--rounds R]
    python benchmarks/bench_playouts.py --parts [--rounds R]

Every figure is CPU time (``time.process_time``: the machine is shared, and wall time counts
the others' work), the best of ``R`` rounds (2) of about ``S`` seconds (2) each, the figures
alternated within a round. ``--root DIR`` (repeatable) measures another checkout of the engine
as well, e.g. the commit before a change (``git worktree add /tmp/base main``): each round runs
this script once per root in a child process whose ``engine`` is imported from that root, the
roots alternated, so before and after come from one run on one machine. ``--compiled`` adds
a column for the compiled referee: a copy of this checkout in a temporary folder, built with
``tools/build_fast.py`` (what ``make fast`` does; a minute or two first) and measured as
another root, beside the interpreted figures. The header says which referee each column ran. ``--split`` prints instead where a deal
of the adapter's playouts goes: 300 recorded playouts replayed through the referee alone, the
state's own ``_apply_action``, OpenSpiel's ``apply_action`` and the driver. ``--parts`` prints
where a deal of the checked API goes (dealing, the auction and declarations, the card play,
the settlement, and the loop's own calls), each as a share of the hand-written deal: what
the 0.8 x target leaves for the card play once the rest of a deal is paid for.

Issue 17's targets: checked API at least 0.8 x the hand-written loop; adapter at least 0.5 x
the checked API and faster than ``oh_hell``. Issue 32's: the pure-Python state at least 0.65 x
the checked API.

Why no Python game can beat ``oh_hell`` this way, and why the adapter keeps OpenSpiel's
``apply_action`` (open_spiel 2.0, ``python/pybind11/python_games.cc`` and ``spiel.cc``):
``State::ApplyAction`` asks ``CurrentPlayer()`` and calls ``DoApplyAction``, both answered by
Python through pybind11's trampolines, then appends to ``history_`` and counts
``move_number_``. Those two C++ fields are what ``history()``, ``history_str()``,
``full_history()``, ``move_number()``, ``is_initial_state()``, ``clone()``/``child()`` (which
copy them), ``serialize()`` and ``pyspiel.serialize_game_and_state`` (which write them) and
what C++ code handed the state sees (``random_sim_test`` checks them after every move); they
are protected members with no Python binding, and the only bound calls that write them are
``apply_action`` (the two trampolines), ``apply_actions`` (simultaneous moves: it records every
action as player 0, 1, ... and counts one move), and deserializing a whole state. So a Python
``apply_action`` that skips C++ leaves the history empty for every C++ reader (a state so
advanced and passed to ``pyspiel.serialize_game_and_state`` writes ``history=`` with nothing
after it); overriding the Python-bound readers cannot reach the C++ ones; replaying the moves
into C++ on demand costs the same two trampolines a move, and no Python code learns when a C++
reader comes. The adapter therefore pays the trampolines, and the second floor shows the most
any design could gain by not paying them. The floor alone runs slower than ``oh_hell``, and
the referee's own work for a deal takes about as long as a whole ``oh_hell`` playout
(docs/openspiel.md, "Speed", has the figures).
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_referee import run as referee_run

FIGURES = ("api", "hand", "adapter", "python", "oh_hell", "floor", "floor_python")


def rate(step: Callable[[random.Random], None], seconds: float) -> float:
    """Returns how many ``step`` calls a CPU second are made in about ``seconds`` of CPU."""
    rng = random.Random(1)
    step(rng)  # warm up (first calls load and compile)
    n = 0
    clock = time.process_time
    start = clock()
    while True:
        step(rng)
        n += 1
        elapsed = clock() - start
        if elapsed >= seconds:
            return n / elapsed


def api_rate(seconds: float) -> float:
    """Returns the checked API's deals a CPU second (``bench_referee.run`` on Quadrille, 400
    deals a seed, as many seeds as fill ``seconds``)."""
    referee_run("quadrille", 1, 0)  # warm up: load and compile the ruleset
    deals = 0
    seed = 0
    clock = time.process_time
    start = clock()
    while True:
        seed += 1
        referee_run("quadrille", 400, seed)
        deals += 400
        elapsed = clock() - start
        if elapsed >= seconds:
            return deals / elapsed


# Cards: suit * 10 + rank, the ranks of the 40-card pack A 2 3 4 5 6 7 J Q K (0..9).
_RANKS = "A234567JQK"
_SUITS = "sdch"


def _strength(card: int, trump: int, led: int) -> int:
    """A card's strength in a trick (higher wins): Spadille, Manille, Basto, the trumps, the
    suit led; 0 for any other card."""
    suit, rank = divmod(card, 10)
    red = suit in (1, 3)
    if card == 0:  # As, Spadille
        return 100
    manille = trump * 10 + (1 if red else 6)  # the 2 of a red trump, the 7 of a black one
    if card == manille:
        return 99
    if card == 20:  # Ac, Basto
        return 98
    if suit == trump:
        order = "KQJA34567"[::-1] if red else "KQJ65432"[::-1]  # weakest first
        return 50 + (order.index(_RANKS[rank]) if _RANKS[rank] in order else 0)
    if suit == led:
        plain = "A234567JQK" if red else "234567JQKA"
        return 1 + plain.index(_RANKS[rank])
    return 0


def hand_written_deal(rng: random.Random) -> None:
    cards = list(range(40))
    rng.shuffle(cards)
    hands = [cards[k * 10 : k * 10 + 10] for k in range(4)]
    trump = rng.randrange(4)
    leader = rng.randrange(4)
    won = [0, 0, 0, 0]
    for _ in range(10):
        trick: list[int] = []
        led = -1
        for k in range(4):
            seat = (leader + k) % 4
            hand = hands[seat]
            if led >= 0:
                follow = [c for c in hand if c // 10 == led]
                legal = follow or hand
            else:
                legal = hand
            card = legal[rng.randrange(len(legal))]
            hand.remove(card)
            if led < 0:
                led = card // 10
            trick.append(card)
        best = max(range(4), key=lambda k: _strength(trick[k], trump, led))
        leader = (leader + best) % 4
        won[leader] += 1


def spiel_playout(game: object) -> Callable[[random.Random], None]:
    def step(rng: random.Random) -> None:
        state = game.new_initial_state()  # type: ignore[attr-defined]
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])

    return step


_FLOORS: dict[bool, Any] = {}


def floor_game(pyspiel: Any, python_apply: bool = False) -> Any:
    """Registers (once) and loads a Python game that does nothing: 40 chance nodes of 40
    outcomes, then 45 moves of 5 legal actions each, over 4 players. ``python_apply``: its
    ``apply_action`` is Python's own, never reaching C++ (OpenSpiel's history stays empty)."""
    if python_apply in _FLOORS:
        return _FLOORS[python_apply]
    chance, moves = 40, 45
    name = "bench_python_floor" + ("_unrecorded" if python_apply else "")
    game_type = pyspiel.GameType(
        short_name=name,
        long_name="bench_playouts: a Python game that does nothing",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=4,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        parameter_specification={},
    )
    outcomes = [(c, 1 / chance) for c in range(chance)]
    dealt = list(range(chance))
    legal = list(range(5))

    class State(pyspiel.State):  # type: ignore[misc]
        def __init__(self, game: Any) -> None:
            super().__init__(game)
            self.n = 0

        def current_player(self) -> int:
            n = self.n
            return -1 if n < chance else -4 if n >= chance + moves else n % 4

        def is_chance_node(self) -> bool:
            return self.n < chance

        def legal_actions(self, player: int | None = None) -> list[int]:
            return list(dealt if self.n < chance else legal)

        def _legal_actions(self, player: int) -> list[int]:
            return list(legal)

        def chance_outcomes(self) -> list[tuple[int, float]]:
            return list(outcomes)

        def _apply_action(self, action: int) -> None:
            self.n += 1

        def is_terminal(self) -> bool:
            return self.n >= chance + moves

        def returns(self) -> list[float]:
            return [0.0] * 4

    class Unrecorded(State):
        def apply_action(self, action: int) -> None:
            self.n += 1

    state_class = Unrecorded if python_apply else State

    class Game(pyspiel.Game):  # type: ignore[misc]
        def __init__(self, params: Any = None) -> None:
            info = pyspiel.GameInfo(
                num_distinct_actions=chance,
                max_chance_outcomes=chance,
                num_players=4,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=None,
                max_game_length=chance + moves,
            )
            super().__init__(game_type, info, params or {})

        def new_initial_state(self) -> State:
            return state_class(self)

    pyspiel.register_game(game_type, Game)
    game = _FLOORS[python_apply] = pyspiel.load_game(name)
    return game


def python_game() -> dict[str, Any]:
    """Returns ``{"python": the game}``: Quadrille with states in Python alone
    (:class:`engine.spiel.pystate.PythonGame`), or nothing in a checkout without it."""
    try:
        from engine.spiel.pystate import PythonGame
    except ImportError:
        return {}
    return {"python": PythonGame({"ruleset": "quadrille"})}


def measure(seconds: float) -> dict[str, float]:
    """Returns one round of the figures (deals a CPU second), alternated; the OpenSpiel ones
    only where ``open-spiel`` is installed."""
    out = {"api": api_rate(seconds), "hand": rate(hand_written_deal, seconds)}
    try:
        import pyspiel

        import engine.spiel  # noqa: F401  (registers ombre_workbench)
    except ImportError:
        return out
    games = {
        "adapter": pyspiel.load_game("ombre_workbench(ruleset=quadrille)"),
        **python_game(),
        "oh_hell": pyspiel.load_game("oh_hell(players=4,num_tricks_fixed=10)"),
        "floor": floor_game(pyspiel),
        "floor_python": floor_game(pyspiel, python_apply=True),
    }
    for key, game in games.items():
        out[key] = rate(spiel_playout(game), seconds)
    return out


def _best_of(runs: dict[str, Callable[[], None]], rounds: int, deals: int) -> dict[str, float]:
    """Returns each run's best CPU cost a deal in µs over ``rounds`` rounds, the runs
    alternated within a round (each run plays ``deals`` deals)."""
    best: dict[str, float] = {}
    clock = time.process_time
    for _ in range(rounds):
        for key, run in runs.items():
            start = clock()
            run()
            cost = (clock() - start) / deals * 1e6
            best[key] = min(cost, best.get(key, cost))
    return best


def split(rounds: int, deals: int = 300) -> list[tuple[str, float]]:
    """Returns where a deal of the adapter's random playouts goes, in CPU microseconds a deal:
    ``deals`` playouts of Quadrille recorded, then replayed (best of ``rounds``) through the
    referee alone (``Deal`` from the dealt hands, ``Deal.apply`` of each of its actions, the
    settlement), through the state's own ``_apply_action`` (Python only: no history), through
    OpenSpiel's ``apply_action`` (the same, the C++ history and its two trampolines a move),
    and played out again by the driver (its calls to ``legal_actions``, ``chance_outcomes``,
    ``is_terminal``, ``is_chance_node`` and its random draws besides)."""
    import pyspiel

    import engine.spiel  # noqa: F401  (registers ombre_workbench)
    from engine.cards import ALL_CARDS
    from engine.referee import Deal

    game = pyspiel.load_game("ombre_workbench(ruleset=quadrille)")
    spec = game.spec
    rng = random.Random(5)
    step = spiel_playout(game)
    played = []
    for _ in range(deals):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
        deal = state.core.deal
        hands = [[ALL_CARDS[c] for c in hand] for hand in deal.dealt]
        talon = [ALL_CARDS[c] for c in deal.talon]
        played.append((hands, talon, [a for _, a in deal.history], list(state.core.moves)))

    def referee() -> None:
        for hands, talon, actions, _ in played:
            deal = Deal(
                spec.rules, dealer=spec.dealer, hands=hands, talon=talon, options=spec.options
            )
            for action in actions:
                deal.apply(action)
            assert deal.settlement is not None

    def replay(cpp: bool) -> None:
        for _, _, _, moves in played:
            state = game.new_initial_state()
            apply = state.apply_action if cpp else state._apply_action
            for move in moves:
                apply(move)
            state.returns()

    def playouts() -> None:
        rng = random.Random(5)
        for _ in range(deals):
            step(rng)

    runs: dict[str, Callable[[], None]] = {
        "referee": referee,
        "python": lambda: replay(False),
        "cpp": lambda: replay(True),
        "playout": playouts,
    }
    best = _best_of(runs, rounds, deals)
    return [
        ("the referee (Deal, Deal.apply, the settlement)", best["referee"]),
        ("the state's _apply_action around it", best["python"] - best["referee"]),
        ("OpenSpiel's apply_action: history, 2 trampolines", best["cpp"] - best["python"]),
        ("the driver's calls (legal_actions, chance_outcomes, ...)", best["playout"] - best["cpp"]),
        ("a whole random playout", best["playout"]),
    ]


class _IdleDeal:
    """The checked loop's own shape and nothing else: 45 actions (a Quadrille deal's) of 8
    choices each, listed and applied by doing nothing, for :func:`parts`' floor."""

    __slots__ = ("is_over", "listed", "moves", "settlement", "table")

    def __init__(self, table: object) -> None:
        self.moves = 0
        self.is_over = False
        self.listed: list[int] | None = None
        self.settlement = self
        self.table = table

    def legal_actions(self) -> list[int]:
        listed = self.listed
        if listed is None:
            listed = self.listed = [1, 2, 3, 4, 5, 6, 7, 8]
        return listed

    def apply(self, action: int) -> None:
        self.listed = None
        self.moves += 1
        if self.moves == 45:
            self.is_over = True


def parts(rounds: int, deals: int = 1500) -> tuple[float, list[tuple[str, float]]]:
    """Returns the hand-written deal's CPU microseconds and where a deal of the checked API's
    loop (``bench_referee.run`` on Quadrille) goes, in CPU microseconds a deal: ``deals`` deals
    played once to record the table each was dealt on, then (best of ``rounds``, alternated with
    the hand-written loop) the same deals dealt only, played to the first card, played out, and
    settled, each figure the difference from the one before; and the loop's own calls, 45
    actions on a deal that does nothing."""
    from engine import load_ruleset
    from engine.referee import Deal
    from engine.referee.settlement import TableState
    from engine.referee.state import PLAY

    rules = load_ruleset("quadrille")
    rules.tables()
    tables = []
    table = TableState()
    rng = random.Random(1)
    for i in range(deals):
        tables.append(table)
        deal = Deal(rules, seed=100_003 + i, dealer=i % rules.players, table=table)
        while not deal.is_over:
            legal = deal.legal_actions()
            deal.apply(legal[int(rng.random() * len(legal))])
        assert deal.settlement is not None
        table = deal.settlement.table

    def stage(upto: int) -> None:
        rng = random.Random(1)
        for i in range(deals):
            deal = Deal(rules, seed=100_003 + i, dealer=i % rules.players, table=tables[i])
            if upto == 0:
                continue
            while not deal.is_over:
                if upto == 1 and deal.phase is PLAY:
                    break
                legal = deal.legal_actions()
                deal.apply(legal[int(rng.random() * len(legal))])
            if upto == 3:
                assert deal.settlement is not None

    def hand() -> None:
        rng = random.Random(1)
        for _ in range(deals):
            hand_written_deal(rng)

    def idle() -> None:
        rng = random.Random(1)
        for i in range(deals):
            deal = _IdleDeal(tables[i])
            while not deal.is_over:
                legal = deal.legal_actions()
                deal.apply(legal[int(rng.random() * len(legal))])
            deal.settlement.table  # noqa: B018  (read as the checked loop reads it)

    runs: dict[str, Callable[[], None]] = {
        "hand": hand,
        **{f"upto{k}": (lambda k=k: stage(k)) for k in range(4)},
        "idle": idle,
    }
    best = _best_of(runs, rounds, deals)
    return best["hand"], [
        ("dealing (Deal(rules, seed, dealer, table))", best["upto0"]),
        ("the auction, trumps and the call", best["upto1"] - best["upto0"]),
        ("the card play and the result", best["upto2"] - best["upto1"]),
        ("the settlement", best["upto3"] - best["upto2"]),
        ("a whole deal", best["upto3"]),
        ("  of it, the loop's own 45 calls (a deal doing nothing)", best["idle"]),
    ]


def _referee_of(root: Path | None) -> str:
    """Returns which referee a root's engine runs: ``compiled`` or ``interpreted``."""
    code = "import engine.referee as r; print('compiled' if r.compiled() else 'interpreted')"
    if root is None:
        from engine.referee import compiled

        return "compiled" if compiled() else "interpreted"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")])),
    }
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=root
    )
    return done.stdout.strip() or "unknown (an engine without compiled())"


def _compiled_copy() -> Path:
    """Returns a copy of this checkout, in a temporary folder, with its referee compiled."""
    here = Path(__file__).resolve().parent.parent
    folder = tempfile.mkdtemp(prefix="bench-compiled-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    copy = Path(folder) / "checkout"
    skip = {".git", ".venv", "build", "__pycache__", ".mypy_cache", ".pytest_cache", "out"}
    shutil.copytree(
        here,
        copy,
        ignore=lambda _, names: {n for n in names if n in skip or n.endswith((".so", ".pyc"))},
    )
    print(f"building the compiled referee in {copy} ...", file=sys.stderr)
    subprocess.run(
        [sys.executable, "tools/build_fast.py"], cwd=copy, check=True, stdout=subprocess.DEVNULL
    )
    return copy


def _child(root: Path, seconds: float) -> dict[str, float]:
    """Returns one round of the figures measured in a child process whose engine is root's."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")])),
    }
    done = subprocess.run(
        [sys.executable, __file__, "--child", "--seconds", str(seconds)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=root,
    )
    figures: dict[str, float] = json.loads(done.stdout.splitlines()[-1])
    return figures


LINES = (
    ("api", "checked API, Quadrille (bench_referee loop)", None),
    ("hand", "hand-written card-play loop, Quadrille", None),
    (("api", "hand"), "  checked API / hand-written", "target >= 0.8"),
    ("adapter", "OpenSpiel adapter, Quadrille random playouts", None),
    (("adapter", "api"), "  adapter / checked API", "target >= 0.5"),
    ("python", "pure-Python state (PythonGame), Quadrille", None),
    (("python", "api"), "  pure-Python state / checked API", "target >= 0.65"),
    ("oh_hell", "OpenSpiel oh_hell (C++, 4 players, 10 tricks)", None),
    (("adapter", "oh_hell"), "  adapter / oh_hell", "target > 1"),
    ("floor", "Python game doing nothing (85 moves)", None),
    (("floor", "oh_hell"), "  floor / oh_hell", None),
    ("floor_python", "the same, apply_action in Python (no history)", None),
    (("floor_python", "oh_hell"), "  floor, Python apply_action / oh_hell", None),
)


def report(columns: list[tuple[str, dict[str, float]]]) -> None:
    """Prints the figures, one column per checkout."""
    width = max(10, *(len(label) for label, _ in columns))
    print(f"{'':48s}" + "".join(f"{label:>{width}s}" for label, _ in columns))
    for key, text, target in LINES:
        cells = []
        for _, figures in columns:
            if isinstance(key, tuple):
                top, bottom = key
                cell = (
                    f"{figures[top] / figures[bottom]:.2f}"
                    if top in figures and bottom in figures
                    else "-"
                )
            else:
                cell = f"{figures[key]:.0f}" if key in figures else "-"
            cells.append(f"{cell:>{width}s}")
        unit = "x" if isinstance(key, tuple) else "deals/s"
        tail = f"  {unit}" + (f"  ({target})" if target else "")
        print(f"{text:48s}" + "".join(cells) + tail)
    if not any("adapter" in figures for _, figures in columns):
        print("open-spiel is not installed: no adapter or oh_hell figures")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--root", type=Path, action="append", default=None)
    parser.add_argument(
        "--split",
        action="store_true",
        help="print instead where a deal of the adapter's playouts goes (this checkout)",
    )
    parser.add_argument(
        "--parts",
        action="store_true",
        help="print instead where a deal of the checked API goes, against the hand-written deal",
    )
    parser.add_argument(
        "--compiled",
        action="store_true",
        help="measure also a compiled copy of this checkout (tools/build_fast.py, in a temporary folder)",
    )
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.seconds)))
        return 0
    if args.split:
        print(f"a deal of the adapter's random playouts, CPU us, best of {args.rounds} replays")
        for text, cost in split(args.rounds):
            print(f"  {text:58s}{cost:7.0f}")
        return 0
    if args.parts:
        hand, costs = parts(args.rounds)
        print(
            f"a deal of the checked API (Quadrille), CPU us, best of {args.rounds} rounds; "
            f"the hand-written deal takes {hand:.1f} us"
        )
        for text, cost in costs:
            print(f"  {text:58s}{cost:7.1f}  = {cost / hand:.2f} x the hand-written deal")
        print(f"  {'for 0.8 x, a whole deal within':58s}{hand / 0.8:7.1f}  = 1.25 x")
        return 0
    roots: list[Path | None] = list(args.root) if args.root else [None]
    if args.compiled:
        roots.append(_compiled_copy())
    best: list[dict[str, float]] = [{} for _ in roots]
    for _ in range(args.rounds):
        for k, root in enumerate(roots):
            figures = measure(args.seconds) if root is None else _child(root, args.seconds)
            for key, value in figures.items():
                best[k][key] = max(value, best[k].get(key, 0.0))
    print(f"deals a CPU second, best of {args.rounds} rounds of about {args.seconds:g} s a figure")
    for root in roots:
        print(f"  {'this' if root is None else root}: {_referee_of(root)} referee")
    report(
        [("this" if root is None else str(root), b) for root, b in zip(roots, best, strict=True)]
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
