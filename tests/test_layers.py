"""The pipeline is the layout: each module of engine/ imports only what stands below it.

Every import counts -- at the top of a module, inside a function, and under ``if
TYPE_CHECKING:`` -- so that no circle hides behind an import made only for the type checker
(the phase modules once imported the deal that imports them). Two modules in one layer may
import each other's way only once: the whole graph has no circle.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "engine"

# Lowest first. A name ending in ".*" places every module of that package not placed itself.
_LAYERS: list[set[str]] = [
    {"engine.errors", "engine.enums", "engine.seeds", "engine.files"},
    {"engine.cards"},
    {"engine.actions"},
    # The load stage.
    {"engine.rules.reader", "engine.rules.emitter", "engine.rules.cache", "engine.rules.inputs"},
    {"engine.rules.schema_pass"},
    {"engine.rules.values"},
    {"engine.rules.ruleset"},
    {"engine.rules.build"},
    {"engine.rules.model"},  # names the three above for their readers
    {"engine.rules.checks"},
    {"engine.rules.authoring"},
    {"engine.rules.loader"},
    {"engine.rules"},  # load_ruleset: the load stage's front door
    {"engine.render"},
    # The referee: the small shared pieces, the deal's state, the phases, the deal, the party.
    {"engine.referee.outcome"},  # what a finished deal leaves to settle
    {"engine.referee.state", "engine.referee.tricks", "engine.referee.settlement"},
    {"engine.referee.irregular"},
    {"engine.referee.seating"},
    {"engine.referee.dealstate"},
    {"engine.referee.deal_laws"},
    {"engine.referee.remedies"},
    {"engine.referee.view"},  # what one seat may see, typed
    {"engine.referee.held"},
    {"engine.referee.result"},
    {"engine.referee.play"},
    {"engine.referee.exchange"},
    {"engine.referee.declarations"},
    {"engine.referee.auction"},
    {"engine.referee.laws"},
    {"engine.referee.summary"},  # a deal written down: its check and outcome
    {"engine.referee.deal"},
    {"engine.referee.party"},
    {"engine.referee"},
    # Past the referee.
    {"engine.bots.base"},
    {"engine.bots.heuristic"},
    {"engine.bots.search"},
    {"engine.bots"},
    {"engine.records", "engine.spiel.codec"},
    {"engine.spiel.game"},
    {"engine.spiel.bots", "engine.spiel.pystate"},
    {"engine.spiel"},
    {"engine.scoresheet"},
    {"engine.tournament"},
    {"engine.simulate"},
    {"engine.cluster"},  # the optional extra [ray]: a run's blocks on a cluster
    {"engine.compare"},
    {"engine.documents.*", "engine.documents"},
    {"engine.sidebyside", "engine.starter", "engine.scoreterm", "engine.table"},
    {"engine.web.store", "engine.web.server"},
    {"engine.web.tables"},
    {"engine.web.app"},
    {"engine.web"},
    {"engine.cli"},
    {"engine.startup"},  # the console script: a help screen seen before, or the CLI
    {"engine", "engine.__main__"},
]


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(ENGINE.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _layer(module: str) -> int | None:
    for i, names in enumerate(_LAYERS):
        if module in names:
            return i
    package = module.rpartition(".")[0]
    while package:
        for i, names in enumerate(_LAYERS):
            if f"{package}.*" in names:
                return i
        package = package.rpartition(".")[0]
    return None


def imports_of(path: Path, modules: dict[str, Path]) -> set[str]:
    """The engine modules a file imports anywhere in it (TYPE_CHECKING blocks and function
    bodies included): ``from engine.x import y`` names ``engine.x.y`` where that is a module."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.split(".")[0] != "engine":
                continue
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                out.add(sub if sub in modules else node.module)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.split(".")[0] == "engine")
    return out


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {m: imports_of(p, modules) - {m} for m, p in modules.items()}


def test_every_module_has_a_place_in_the_pipeline() -> None:
    unplaced = [m for m in _modules() if _layer(m) is None]
    assert unplaced == [], f"place these in tests/test_layers.py _LAYERS: {unplaced}"


def test_no_module_imports_one_above_it() -> None:
    offenders = []
    for module, targets in _graph().items():
        mine = _layer(module)
        for target in sorted(targets):
            theirs = _layer(target)
            if mine is not None and theirs is not None and theirs > mine:
                offenders.append(f"{module} imports {target}")
    assert offenders == []


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """A circle of imports, if there is one (else [])."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return []

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return []


def test_no_import_circle_not_even_for_the_type_checker() -> None:
    assert _cycle(_graph()) == []


def _private_imports(path: Path, root: Path = ROOT) -> list[str]:
    """The private names (``_x``) a module imports from another engine module."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("engine"):
            found += [
                f"{path.relative_to(root)}:{node.lineno} {a.name} from {node.module}"
                for a in node.names
                if a.name.startswith("_") and not a.name.startswith("__")
            ]
    return found


def test_no_module_borrows_another_modules_private_names() -> None:
    """What one module needs of another is public there (named without the underscore)."""
    borrowed = [line for path in _modules().values() for line in _private_imports(path)]
    assert borrowed == []


def test_the_private_name_check_sees_a_borrowed_name(tmp_path: Path) -> None:
    module = tmp_path / "x.py"
    module.write_text("from engine.rules.loader import _secret, public as _alias\n")
    assert [line.split(" ", 1)[1] for line in _private_imports(module, tmp_path)] == [
        "_secret from engine.rules.loader"
    ]


def test_the_checks_see_imports_made_only_for_the_type_checker(tmp_path: Path) -> None:
    """The scan finds an import under ``if TYPE_CHECKING:`` and inside a function, and the
    circle check finds the circle it makes."""
    module = tmp_path / "m.py"
    module.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from engine.referee.deal import Deal\n"
        "def f():\n"
        "    from engine.rules import loader\n",
        encoding="utf-8",
    )
    modules = _modules()
    assert imports_of(module, modules) == {"engine.referee.deal", "engine.rules.loader"}
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}}
    assert _cycle(graph) == ["a", "b", "c", "a"]
    assert _layer("engine.referee.play") < _layer("engine.referee.deal")  # type: ignore[operator]


def test_the_phases_never_import_the_deal() -> None:
    graph = _graph()
    phases = ["auction", "declarations", "exchange", "play", "result", "held", "settlement"]
    assert [p for p in phases if "engine.referee.deal" in graph[f"engine.referee.{p}"]] == []


def test_importing_the_model_does_not_import_the_referee() -> None:
    code = "import engine.rules.model, sys; print('engine.referee' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def _document_reads(source: str) -> list[tuple[int, str]]:
    """The reads of a rule file's raw document in ``source``: ``X.value_at(...)`` and ``X.data``,
    except ``doc.data`` / ``self.doc.data`` (a module reading its own data file: a record, an
    evening, the claims, the sources, the glossary)."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in ("data", "value_at"):
            base = ast.unparse(node.value)
            if node.attr == "data" and base in ("doc", "self.doc"):
                continue
            out.append((node.lineno, ast.unparse(node)))
    return sorted(out)


def test_past_the_load_stage_no_module_reads_the_raw_rule_document() -> None:
    """Readers ask the typed frozen model (its fields, and plain()/states()/setting()/
    basis_of() for the readers about the document itself), never its raw ``data`` or
    ``value_at``: only the load stage (engine/rules/) reads the document."""
    found = []
    for path in sorted(ENGINE.rglob("*.py")):
        if path.relative_to(ENGINE).parts[0] == "rules":
            continue
        for line, text in _document_reads(path.read_text(encoding="utf-8")):
            found.append(f"{path.relative_to(ROOT)}:{line}: {text}")
    assert found == []


def test_the_raw_read_check_sees_each_form() -> None:
    code = "a = rules.data['x']\nb = rules.value_at(('x',))\nc = entry.doc.data\nd = doc.data\n"
    assert [t for _, t in _document_reads(code)] == [
        "rules.data",
        "rules.value_at",
        "entry.doc.data",
    ]


# Past the load stage engine/ reads the referee's typed values, never their text: a verb is
# ``Action.verb``, a card ``Action.cards``, a suit ``Action.suit``; the speech is the view's
# (``Deal.auction``'s) pairs; a payment's payer and payee are ``Payment``'s typed fields; what a
# seat sees is ``Deal.view``'s typed ``View``. Two checks: these forms anywhere (a record line
# taken apart), and any text method, or ``int``, on the text of an action, a payment, a view,
# a JSON answer or a record's lines, or on an exception's message.
_TEXT_READ = re.compile(r"\.split\(\)\[\d\]|\.partition\(\" \"\)|\.startswith\(\"[a-z-]+ \"\)")
_TEXT_METHODS = frozenset(
    (
        *("split", "rsplit", "partition", "rpartition", "isdigit", "isdecimal", "isnumeric"),
        *("startswith", "endswith", "removeprefix", "removesuffix"),
    )
)
_TYPED_NAMES = frozenset(("action", "actions", "payment", "payments", "view", "auction", "legal"))
"""The names that hold an action, a payment or a view (and their lists) in engine/."""
_AS_TEXT = frozenset(("as_json", "report", "record_actions", "notation", "unicode"))
"""The methods that write a typed value as text or JSON."""
_SAME_TEXT = frozenset(("lower", "upper", "casefold", "strip", "lstrip", "rstrip"))


_JSON_NAMES = frozenset(("report",))
"""The names that hold a JSON answer (``Deal.report``'s): its items are text and numbers."""


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else None


def _renders(node: ast.expr, caught: set[str]) -> bool:
    """Checks if an expression is a typed value written as text (not the value itself)."""
    while isinstance(node, ast.Subscript):
        node = node.value
        if _name(node) in _JSON_NAMES:
            return True
    return not isinstance(node, ast.Name | ast.Attribute) and _is_typed_text(node, caught)


def _is_typed_text(node: ast.expr, caught: set[str]) -> bool:
    """Checks if an expression is the text of a typed value, or of an exception caught (the
    names in ``caught``: the exceptions caught, the loop variables over such text)."""
    while isinstance(node, ast.Subscript):
        node = node.value
        if _name(node) in _JSON_NAMES:
            return True
    if isinstance(node, ast.Name):
        return node.id in _TYPED_NAMES or node.id in caught
    if isinstance(node, ast.Attribute):
        return node.attr in _TYPED_NAMES
    if isinstance(node, ast.JoinedStr):
        return any(
            isinstance(v, ast.FormattedValue) and _is_typed_text(v.value, caught)
            for v in node.values
        )
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    if isinstance(func, ast.Name) and func.id in ("str", "repr", "format") and node.args:
        arg = node.args[0]
        return (isinstance(arg, ast.Name) and arg.id in caught) or _is_typed_text(arg, caught)
    if isinstance(func, ast.Attribute):
        if func.attr in _AS_TEXT:
            return True
        if func.attr in _SAME_TEXT:
            return _is_typed_text(func.value, caught)
    return False


def _typed_text_reads(code: str) -> list[tuple[int, str]]:
    """Returns (line, expression) for each reading back of a typed value's text in ``code``."""
    tree = ast.parse(code)
    caught = {h.name for h in ast.walk(tree) if isinstance(h, ast.ExceptHandler) and h.name}
    for loop in ast.walk(tree):
        if isinstance(loop, ast.For | ast.comprehension) and _renders(loop.iter, caught):
            caught |= {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)}
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in _TEXT_METHODS:
            read = _is_typed_text(func.value, caught)
        elif isinstance(func, ast.Name) and func.id == "int" and node.args:
            read = _is_typed_text(node.args[0], caught)
        else:
            read = False
        if read:
            found.append((node.lineno, ast.unparse(node)))
    return sorted(found)


def _text_reads(code: str) -> list[str]:
    return [m.group(0) for m in _TEXT_READ.finditer(code)]


# The notation's own readers: what a person or a file wrote is parsed here, once, into types
# (the rule files' under engine/rules/).
_NOTATION_READERS = {"actions.py", "cards.py", "records.py"}
# In a template, any splitting of text or reading a number out of it is text read back.
_TEMPLATE_READ = re.compile(
    r"\.(?:split|rsplit|partition|rpartition)\(|\|\s*(?:int|float)\b"
    r"|\.(?:isdigit|isdecimal|isnumeric)\(\)"
)


def _past_the_load_stage() -> list[Path]:
    """Returns the modules of engine/ past the load stage: all but the notation's readers and
    the rule files' loader (engine/rules/)."""
    return [
        path
        for path in sorted(ENGINE.rglob("*.py"))
        if path.name not in _NOTATION_READERS and path.relative_to(ENGINE).parts[0] != "rules"
    ]


def test_nothing_past_the_load_stage_reads_an_action_back_from_its_text() -> None:
    found = []
    for path in _past_the_load_stage():
        code = path.read_text(encoding="utf-8")
        for number, line in enumerate(code.splitlines(), 1):
            found += [f"{path.relative_to(ROOT)}:{number}: {r}" for r in _text_reads(line)]
        found += [f"{path.relative_to(ROOT)}:{n}: {r}" for n, r in _typed_text_reads(code)]
    assert found == []


def test_the_guard_covers_all_of_engine_past_the_load_stage() -> None:
    checked = {p.relative_to(ENGINE).as_posix() for p in _past_the_load_stage()}
    every = {p.relative_to(ENGINE).as_posix() for p in ENGINE.rglob("*.py")}
    assert every - checked == {f"{n}" for n in _NOTATION_READERS} | {
        p for p in every if p.startswith("rules/")
    }
    assert {"table.py", "web/app.py", "spiel/game.py", "documents/deal_page.py"} <= checked


def test_no_template_reads_text_back() -> None:
    """The templates are given typed values (an action's verb and cards, a payment's seat, a
    place's file and line, the view's cards and suit) and never split a string or read a
    number out of one."""
    found = []
    templates = sorted((ROOT / "templates").rglob("*.j2"))
    assert {"web/table.j2", "table/turn.txt.j2", "deal.j2"} <= {
        t.relative_to(ROOT / "templates").as_posix() for t in templates
    }
    for path in templates:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            found += [
                f"{path.relative_to(ROOT)}:{number}: {m.group(0)}"
                for m in _TEMPLATE_READ.finditer(line)
            ]
    assert found == []


def test_the_template_read_check_sees_each_form() -> None:
    text = (
        '{{ a.partition(" ") }} {{ x | int }} {{ l.isdigit() }} {{ p.split(".", 1) }} {{ x|int }}'
        " {{ y | float }} {{ z.isnumeric() }}"
    )
    assert len(_TEMPLATE_READ.findall(text)) == 7
    assert not _TEMPLATE_READ.findall("{{ a.verb }} {{ n | integer_words }} {{ s.splitter }}")


def test_the_text_read_check_sees_each_form() -> None:
    code = (
        'v = a.split()[0]\nc = a.startswith("call ")\nw = e.partition(" ")\nok = s.split("/")[0]\n'
    )
    assert _text_reads(code) == [".split()[0]", '.startswith("call ")', '.partition(" ")']


def test_the_typed_text_check_sees_each_form() -> None:
    code = (
        "a = str(action).split()\n"
        "b = view.as_json()['auction'][0].partition(' ')\n"
        "c = int(payment.as_json()['payer'])\n"
        "d = [x.split(' ', 1) for x in deal.record_actions()]\n"
        "e = f'{action}'.startswith('play')\n"
        "try:\n    pass\nexcept OSError as exc:\n    f = str(exc).rsplit(' ', 1)[-1]\n"
        "g = self.legal[0].verb.startswith('re')\n"
        "h = str(card).lower().endswith('s')\n"
        "i = [int(w) for w in self.report['tricks_won']]\n"
        "j = int(deal.report()['declarer'])\n"
    )
    assert [n for n, _ in _typed_text_reads(code)] == [1, 2, 3, 4, 5, 9, 12, 13]
    fine = (
        "a = answer.split()\nb = text.isdigit()\nc = code.split('/')[0]\nd = str(value).split()\n"
    )
    assert _typed_text_reads(fine) == []


MOST_LINES = 80
"""The longest a function of engine/ may be: where rules accrete, each family of them has a
function of its own (the ruleset's build by part of the rule file, a bid by kind of contract)."""


def _long_functions(root: Path) -> list[str]:
    out = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > MOST_LINES:
                    out.append(f"{path.relative_to(root)}:{node.lineno} {node.name} ({lines})")
    return out


def test_no_engine_function_is_longer_than_80_lines() -> None:
    assert _long_functions(ENGINE) == []


def test_the_length_check_sees_a_long_function(tmp_path: Path) -> None:
    body = "".join(f"    x{k} = {k}\n" for k in range(MOST_LINES))
    (tmp_path / "m.py").write_text(f"def short():\n    pass\n\n\ndef long():\n{body}")
    assert _long_functions(tmp_path) == [f"m.py:5 long ({MOST_LINES + 1})"]
