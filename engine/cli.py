"""The ``ombre`` command line: a thin layer over the engine.

Each command makes one engine call and prints the result, readably or (``--json``) as one JSON
document on stdout and nothing else there. The engine's errors are caught once, at the boundary
(:func:`_boundary`), printed to stderr and turned into an exit status (``docs/cli.md``):

* 0 -- success;
* 1 -- the input was read but is invalid (rule-file problems, an illegal action in a record);
* 2 -- a usage error (unknown option or ruleset, a missing file, a malformed argument).

A traceback for bad input is a bug. Heavy imports (the loader, jsonschema, jinja2) happen
inside the commands, so that ``ombre --help`` stays fast.

Commands are plain functions registered on :data:`app`; a new command is one more function
decorated with ``@app.command()`` and ``@_boundary``, using the helpers below (:func:`_load`,
:func:`_parse_options`, :func:`_emit_json`, :class:`CliError`).
"""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, ParamSpec

import typer

from engine.cards import Suit
from engine.errors import (
    IllegalActionError,
    NotationError,
    Problem,
    RecordError,
    RuleFileError,
)

if TYPE_CHECKING:
    from engine.model import RuleSet

__all__ = ["EXIT_INVALID", "EXIT_OK", "EXIT_USAGE", "CliError", "app", "main"]

EXIT_OK = 0
"""Success."""
EXIT_INVALID = 1
"""The input was read but is invalid: rule-file problems, an illegal action in a record."""
EXIT_USAGE = 2
"""A usage error: an unknown option or ruleset, a missing file, a malformed argument."""

app = typer.Typer(
    name="ombre",
    help=(
        "Rules workbench for the Ombre family: Ombre, Quadrille, Quadrille à trois and "
        "Médiateur. A ruleset is named by id, alias or path to a YAML file."
    ),
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)

P = ParamSpec("P")

JsonFlag = Annotated[
    bool, typer.Option("--json", help="Print one JSON document on stdout instead of text.")
]
RulesetArg = Annotated[
    str, typer.Argument(metavar="RULESET", help="A ruleset or variant: id, alias or path.")
]
OptionList = Annotated[
    list[str] | None,
    typer.Option(
        "--option",
        "-o",
        metavar="KEY=VALUE",
        help="A setup option the ruleset declares, e.g. removed-suit=hearts (repeatable).",
    ),
]


class CliError(Exception):
    """A failure to report in words, with the exit status it stands for."""

    def __init__(self, message: str, status: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.status = status


# The boundary: engine errors become messages on stderr and an exit status, once.


def _err(text: str) -> None:
    typer.echo(text, err=True)


def _problem_line(problem: Problem) -> str:
    """Returns ``FILE:LINE:COLUMN: $.path: message [code]``."""
    return f"{problem} [{problem.code}]"


def _summary(problems: Sequence[Problem], files_checked: int) -> str:
    if not problems:
        return f"{files_checked} file{'' if files_checked == 1 else 's'} valid"
    files = len({p.file for p in problems})
    n = len(problems)
    return f"{n} problem{'' if n == 1 else 's'} in {files} file{'' if files == 1 else 's'}"


def _boundary(func: Callable[P, None]) -> Callable[P, None]:
    """Runs a command, turning the engine's errors into messages and exit statuses."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> None:
        json_out = bool(kwargs.get("json_out"))

        def fail(status: int, code: str, message: str, problems: Sequence[Problem] = ()) -> None:
            # With --json, stdout still holds one JSON document: the error.
            if json_out:
                error: dict[str, Any] = {"code": code, "message": message}
                if problems:
                    error["problems"] = [p.as_json() for p in problems]
                _emit_json({"error": error})
            raise typer.Exit(status)

        try:
            func(*args, **kwargs)
        except CliError as exc:
            _err(f"ombre: error: {exc}")
            fail(exc.status, "usage" if exc.status == EXIT_USAGE else "invalid", str(exc))
        except RuleFileError as exc:
            for problem in exc.problems:
                _err(_problem_line(problem))
            _err(_summary(exc.problems, 0))
            fail(EXIT_INVALID, "rule-file", _summary(exc.problems, 0), exc.problems)
        except RecordError as exc:
            for problem in exc.problems:
                _err(_problem_line(problem))
            fail(EXIT_INVALID, "record", "the record is malformed", exc.problems)
        except IllegalActionError as exc:
            _err(f"ombre: illegal: {exc} [{exc.code}]")
            fail(EXIT_INVALID, exc.code, str(exc))
        except NotationError as exc:
            # Raised for what the user typed: a ruleset name, a suit, a card, an option.
            _err(f"ombre: error: {exc}")
            fail(EXIT_USAGE, "usage", str(exc))
        except BrokenPipeError:
            raise
        except OSError as exc:
            name = f"{exc.filename}: " if exc.filename is not None else ""
            _err(f"ombre: error: {name}{exc.strerror or exc}")
            fail(EXIT_USAGE, "usage", f"{name}{exc.strerror or exc}")

    return wrapper


# Shared helpers for commands.


def _emit_json(document: Any) -> None:
    """Prints one JSON document on stdout."""
    typer.echo(json.dumps(document, ensure_ascii=False, indent=2))


def _plain(value: Any) -> Any:
    """Returns a JSON-ready copy of a (possibly read-only) mapping/list tree."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _shown(path: Path | str) -> str:
    """Returns a path relative to the working directory when it is below it, else absolute."""
    p = Path(path).resolve()
    try:
        return p.relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(p)


def _load(name: str) -> RuleSet:
    """Loads a ruleset or variant by id, alias or path.

    :raises NotationError: for an unknown name (a usage error);
    :raises RuleFileError: when the file or a parent is invalid.
    """
    from engine import load_ruleset

    if name.endswith((".yaml", ".yml", ".json")) and not Path(name).is_file():
        raise CliError(f"no such file: {name}", EXIT_USAGE)
    return load_ruleset(name)


def _parse_options(ruleset: RuleSet, items: Sequence[str] | None) -> dict[str, str]:
    """Parses ``KEY=VALUE`` setup options and checks them against the ruleset."""
    options: dict[str, str] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise CliError(f"--option takes KEY=VALUE, not {item!r}")
        options[key.strip()] = value.strip()
    ruleset.resolve_options(options)  # raises NotationError for an unknown key or choice
    return options


# ombre list


@app.command("list")
@_boundary
def list_(json_out: JsonFlag = False) -> None:
    """List the rulesets and variants found: id, name, what it extends, file."""
    from engine.loader import default_registry

    rows: list[dict[str, Any]] = []
    for entry in default_registry().entries():
        if entry.doc is None or entry.id is None:
            _err(f"ombre: warning: {entry.shown} cannot be read (see `ombre validate`)")
            continue
        data = entry.doc.data
        extends = data.get("extends")
        rows.append(
            {
                "id": entry.id,
                "name": data.get("name") if isinstance(data.get("name"), str) else None,
                "kind": entry.kind,
                "extends": extends if isinstance(extends, str) else None,
                "path": _shown(entry.path),
            }
        )
    rows.sort(key=lambda r: (r["kind"] != "ruleset", r["id"]))
    if json_out:
        _emit_json(rows)
        return
    from engine.render import render_cached

    key = [json.dumps(rows, sort_keys=True).encode()]
    typer.echo(render_cached("list.txt.j2", key, lambda: {"rows": rows}), nl=False)


# ombre validate


@app.command()
@_boundary
def validate(
    paths: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="PATH",
            help="Rule files or folders (or ruleset ids). Default: all of rules/ and variants/.",
            show_default=False,
        ),
    ] = None,
    json_out: JsonFlag = False,
) -> None:
    """Check rule files against the schema and the semantic rules; report every problem."""
    from engine.loader import default_registry, validate_paths

    names = list(paths or [])
    missing = [n for n in names if not Path(n).exists() and default_registry().find(n) is None]
    if missing:
        listed = ", ".join(missing)
        raise CliError(f"no such file, folder or ruleset: {listed}", EXIT_USAGE)
    problems, checked = validate_paths(names)
    if json_out:
        _emit_json({"valid": not problems, "errors": [p.as_json() for p in problems]})
    else:
        for problem in problems:
            typer.echo(_problem_line(problem))
        typer.echo(_summary(problems, checked))
    if problems:
        raise typer.Exit(EXIT_INVALID)


# ombre show


def _show_json(r: RuleSet) -> dict[str, Any]:
    from engine._yaml import json_path

    data: dict[str, Any] = _plain(r.data)
    document: dict[str, Any] = {
        "id": r.id,
        "name": r.name,
        "kind": r.kind,
        "file": _shown(r.file),
        "extends": r.extends,
        "chain": list(r.chain),
    }
    document.update((k, v) for k, v in data.items() if k not in document)
    document["overrides"] = [
        {"path": json_path(path), "file": _shown(file), "line": line, "column": column}
        for path, (file, line, column) in r.overrides
    ]
    return document


@app.command()
@_boundary
def show(ruleset: RulesetArg, json_out: JsonFlag = False) -> None:
    """Show the resolved rules, each with its evidence and first citation."""
    r = _load(ruleset)
    if json_out:
        _emit_json(_show_json(r))
        return
    from engine.documents.book import show_text

    typer.echo(show_text(r), nl=False)


# ombre cards


@app.command()
@_boundary
def cards(
    ruleset: RulesetArg,
    trump: Annotated[
        str,
        typer.Option("--trump", "-t", metavar="SUIT", help="The trump suit: spades, clubs ..."),
    ],
    option: OptionList = None,
    json_out: JsonFlag = False,
) -> None:
    """Rank every card, highest first, with SUIT as trumps."""
    r = _load(ruleset)
    trump_suit = Suit.parse(trump)
    options = _parse_options(r, option)
    from engine.referee import trump_suits

    present = trump_suits(r, options)  # the referee's one derivation of the trump choices
    if trump_suit not in present:
        chosen = r.resolve_options(options)
        setup = ", ".join(f"{k}: {v.value}" for k, v in chosen.items())
        raise CliError(
            f"{trump_suit.value} cannot be trumps in {r.id}: no {trump_suit.value} are in its "
            f"deck{f' ({setup})' if setup else ''}; trumps may be "
            + ", ".join(s.value for s in present),
            EXIT_INVALID,
        )
    trumps = r.trump_order(trump_suit, options)
    plain = {s.value: r.plain_order(s, trump_suit, options) for s in present if s is not trump_suit}
    if json_out:
        _emit_json(
            {
                "ruleset": r.id,
                "trump": trump_suit.value,
                "trumps": [str(c) for c in trumps],
                "plain": {s: [str(c) for c in order] for s, order in plain.items()},
            }
        )
        return
    from engine.documents.book import trump_table
    from engine.render import render

    table = trump_table(r, trump_suit, options)
    chosen = r.resolve_options(options)
    typer.echo(render("cards.txt.j2", "text", rules=r, table=table, setup=chosen), nl=False)


# ombre replay


def _record_ruleset(record: Any, record_path: Path, override: str | None) -> RuleSet:
    """Loads the ruleset a record names (a path is taken relative to the record's folder)."""
    from engine import load_ruleset

    name = override or record.ruleset
    if override is None and name.endswith((".yaml", ".yml")):
        beside = record_path.parent / name
        if beside.is_file():
            name = str(beside)
    try:
        return load_ruleset(name)
    except NotationError as exc:
        if override is not None:
            raise
        line, column = record.locate(("ruleset",))
        raise RecordError(
            [
                Problem(
                    str(record_path), line, column, "$.ruleset", "record/unknown-ruleset", str(exc)
                )
            ]
        ) from None


@app.command()
@_boundary
def replay(
    record: Annotated[str, typer.Argument(metavar="RECORD", help="A record file (YAML or JSON).")],
    ruleset: Annotated[
        str | None,
        typer.Option("--ruleset", metavar="RULESET", help="Referee under this ruleset instead."),
    ] = None,
    html: Annotated[
        Path | None,
        typer.Option("--html", metavar="FILE", help="Also write the deal as an HTML page."),
    ] = None,
    md: Annotated[
        Path | None,
        typer.Option("--md", metavar="FILE", help="Also write the deal as a Markdown page."),
    ] = None,
    json_out: JsonFlag = False,
) -> None:
    """Referee a record: legal or not, tricks, result and payments."""
    from engine.records import read_record
    from engine.records import replay as run_replay

    path = Path(record)
    if not path.is_file():
        raise CliError(f"no such file: {record}", EXIT_USAGE)
    try:
        rec = read_record(path)
        rules = _record_ruleset(rec, path, ruleset)
        if json_out and html is None and md is None:
            report = run_replay(rec, rules)
        else:
            from engine.documents.deal_page import replay_story

            story = replay_story(rec, rules, record)
            report = story.report
    except RecordError as exc:
        if not json_out:
            raise
        # With --json a malformed record is still one JSON document on stdout.
        first = exc.problems[0] if exc.problems else None
        _emit_json(
            {
                "ruleset": None,
                "complete": False,
                "error": {
                    "code": first.code if first else "record/invalid",
                    "message": str(first) if first else str(exc),
                    "problems": [p.as_json() for p in exc.problems],
                },
                "deals": [],
                "totals": [],
            }
        )
        for problem in exc.problems:
            _err(_problem_line(problem))
        raise typer.Exit(EXIT_INVALID) from None
    if html is not None or md is not None:
        from engine.documents.site import write_deal_page

        for fmt, target in (("html", html), ("md", md)):
            if target is not None:
                write_deal_page(story, target, "html" if fmt == "html" else "md")
    if json_out:
        _emit_json(report.as_json())
    else:
        from engine.render import render

        typer.echo(render("replay.txt.j2", "text", story=story), nl=False)
    if report.error is not None:
        if not json_out:
            _err(f"{report.located}")
        raise typer.Exit(EXIT_INVALID)


# ombre docs, diff, claims


@app.command()
@_boundary
def docs(
    out: Annotated[
        Path, typer.Option("--out", metavar="DIR", help="The folder to write (made if missing).")
    ],
    rulesets: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="[RULESET]...", help="Only these (default: every ruleset).", show_default=False
        ),
    ] = None,
    fmt: Annotated[
        str, typer.Option("--format", metavar="md|html", help="Markdown or HTML.")
    ] = "md",
    json_out: JsonFlag = False,
) -> None:
    """Write the rule books, matrix, diffs, claims, disagreements and glossary."""
    from engine.documents.site import write_docs
    from engine.render import render

    if fmt not in ("md", "html"):
        raise CliError(f"--format must be md or html, not {fmt!r}")
    if out.exists() and not out.is_dir():
        raise CliError(f"--out must be a folder: {out} is a file")
    written = write_docs(out, "html" if fmt == "html" else "md", [_load(n) for n in rulesets or []])
    if json_out:
        _emit_json({"format": fmt, **written.as_json()})
        return
    typer.echo(render("docs.txt.j2", "text", written=written, format=fmt), nl=False)


@app.command()
@_boundary
def diff(
    a: Annotated[str, typer.Argument(metavar="A", help="A ruleset or variant.")],
    b: Annotated[str, typer.Argument(metavar="B", help="Another, compared with A.")],
    json_out: JsonFlag = False,
) -> None:
    """Show the structural differences between two rulesets, with the file and line of each."""
    from engine.documents.diff import diff_rulesets
    from engine.render import render

    result = diff_rulesets(_load(a), _load(b))
    if json_out:
        _emit_json(result.as_json())
        return
    typer.echo(render("diff.txt.j2", "text", diff=result), nl=False)


@app.command()
@_boundary
def claims(
    ruleset: Annotated[
        str | None,
        typer.Argument(
            metavar="[RULESET]",
            help="Only the claims about it (and its parents).",
            show_default=False,
        ),
    ] = None,
    json_out: JsonFlag = False,
) -> None:
    """Check the sources' claims against the model: confirmed, contradicted or unverifiable."""
    from engine.documents.claims import evaluate, load_claims
    from engine.render import render

    rules = _load(ruleset) if ruleset is not None else None
    evaluations = evaluate(load_claims(), rules)
    if json_out:
        _emit_json([e.as_json() for e in evaluations])
        return
    typer.echo(render("claims.txt.j2", "text", evaluations=evaluations), nl=False)


# ombre play


BotsOption = Annotated[
    str,
    typer.Option("--bots", metavar="random|heuristic", help="How the bots play."),
]


def _load_for_bots(
    ruleset: str, option: Sequence[str] | None, bots: str
) -> tuple[RuleSet, dict[str, str]]:
    """Loads a ruleset and its setup options, and checks the kind of bot named."""
    from engine.bots import BOTS

    r = _load(ruleset)
    options = _parse_options(r, option)
    if bots not in BOTS:
        raise CliError(f"--bots must be one of {', '.join(BOTS)}, not {bots!r}")
    return r, options


@app.command()
@_boundary
def play(
    ruleset: RulesetArg,
    seat: Annotated[int, typer.Option("--seat", help="Your seat (0 is the first dealer).")] = 0,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed of the deal (default: a fresh one).")
    ] = None,
    bots: BotsOption = "heuristic",
    record: Annotated[
        Path | None, typer.Option("--record", metavar="FILE", help="Write the record here.")
    ] = None,
    auto: Annotated[
        bool, typer.Option("--auto", help="Bots take every seat; print the deal as it goes.")
    ] = False,
    deals: Annotated[int, typer.Option("--deals", min=1, help="How many deals to play.")] = 1,
    option: OptionList = None,
) -> None:
    """Play at the table against bots (answers on stdin: an action, a card, or a number)."""
    import secrets

    from engine.table import TableGame

    r, options = _load_for_bots(ruleset, option, bots)
    if not auto and not 0 <= seat < r.players:
        raise CliError(f"--seat must be a seat from 0 to {r.players - 1} in {r.id}")
    if seed is None:
        seed = secrets.randbelow(1_000_000)
    interactive = sys.stdin.isatty()

    def read(prompt: str) -> str | None:
        sys.stdout.write(prompt)
        sys.stdout.flush()
        line = sys.stdin.readline()
        if not line:
            sys.stdout.write("\n")
            return None
        if not interactive:
            sys.stdout.write(line if line.endswith("\n") else line + "\n")
        return line

    game = TableGame(
        r,
        human=None if auto else seat,
        seed=seed,
        bots=bots,
        deals=deals,
        options=options,
        record_path=record,
    )
    typer.echo(f"{r.name}: you are seat {seat}" if not auto else f"{r.name}: bots in every seat")
    typer.echo(f"seed {seed} (replay this game with --seed {seed})")
    status = game.run(read, typer.echo)
    if status:
        raise typer.Exit(status)


# ombre simulate


@app.command()
@_boundary
def simulate(
    ruleset: RulesetArg,
    deals: Annotated[int, typer.Option("-n", "--deals", min=1, help="How many deals.")] = 1000,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the first deal.")] = 1,
    bots: BotsOption = "heuristic",
    option: OptionList = None,
    json_out: JsonFlag = False,
) -> None:
    """Play N deals with bots in every seat, the pot carrying over, and summarise."""
    from engine.bots import simulate as run_simulation

    r, options = _load_for_bots(ruleset, option, bots)
    show_progress = sys.stderr.isatty()
    step = max(1, deals // 100)

    def progress(done: int) -> None:
        if show_progress and (done % step == 0 or done == deals):
            sys.stderr.write(f"\rsimulating {r.id}: {done}/{deals}")
            if done == deals:
                sys.stderr.write("\n")
            sys.stderr.flush()

    summary = run_simulation(
        r, deals, seed=seed, bots=bots, options=options or None, progress=progress
    )
    if json_out:
        _emit_json(summary.as_json())
        return
    data = summary.as_json()
    typer.echo(f"{r.name}: {deals} deals with {bots} bots (seed {seed}) in {data['seconds']} s")
    typer.echo("results:   " + ", ".join(f"{k} {v}" for k, v in data["results"].items()))
    typer.echo("contracts: " + ", ".join(f"{k} {v}" for k, v in data["contracts"].items()))
    typer.echo("totals:    " + ", ".join(f"seat {k} {t:+d}" for k, t in enumerate(data["totals"])))
    typer.echo(f"on the table at the end: {data['pot']}")


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            typer.echo(f"ombre-workbench {version('ombre-workbench')}")
        except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
            typer.echo("ombre-workbench (not installed)")
        raise typer.Exit(EXIT_OK)


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Show the version and exit."
        ),
    ] = False,
) -> None:
    """Rules workbench for the Ombre family: Ombre, Quadrille, Quadrille à trois, Médiateur."""


def main() -> None:
    """Runs the ``ombre`` command (the console-script entry point)."""
    try:
        app(prog_name="ombre")
    except BrokenPipeError:  # pragma: no cover - e.g. `ombre show quadrille | head`
        # Python flushes stdout again at exit: point it at devnull so that stays quiet.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(EXIT_OK)


if __name__ == "__main__":  # pragma: no cover
    main()
