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

import contextlib
import functools
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, ParamSpec

import typer

from engine.errors import (
    IllegalActionError,
    NotationError,
    Problem,
    RecordError,
    RequestError,
    RuleFileError,
)

if TYPE_CHECKING:
    from engine.rules.model import RuleSet
    from engine.simulate import Blocks
    from engine.table import PlayRequest
    from engine.tournament import Tournament

__all__ = ["EXIT_INVALID", "EXIT_OK", "EXIT_USAGE", "CliError", "app", "main"]

EXIT_OK = 0
"""Success."""
EXIT_INVALID = 1
"""The input was read but is invalid: rule-file problems, an illegal action in a record."""
EXIT_USAGE = 2
"""A usage error: an unknown option or ruleset, a missing file, a malformed argument."""
# ``ombre play`` adds engine.table.EXIT_UNFINISHED (3): the input ended before the game was
# over, the record kept; and 130 when interrupted.

app = typer.Typer(
    name="ombre",
    help=(
        "Rules workbench for the Ombre family: Ombre, Quadrille, Quadrille à trois and "
        "Médiateur. A ruleset is named by id, alias or path to a YAML file."
    ),
    add_completion=True,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
    context_settings={"help_option_names": ["-h", "--help"]},
)

P = ParamSpec("P")


def _help_without_python_types() -> None:
    """Makes the help show each value's metavar (``N``, ``FILE``, ``RULESET``) and no Python
    type (``<list[str]>``, ``<int range>``, ``<bool>``): every option that takes a value names
    it with ``metavar``, and the help text says what it may be. The usage line writes an
    argument as ``RULESET`` when required, ``[RULESET]`` when not."""
    from typer.core import TyperArgument, TyperOption

    def argument_type(self: TyperArgument, ctx: Any) -> str | None:
        return None

    def option_type(self: TyperOption, ctx: Any) -> str | None:
        return None if self.is_flag else self.metavar

    def no_range(self: Any) -> str | None:
        return None

    def usage_name(self: TyperArgument) -> str:
        # The usage line: a required argument by its metavar alone (typer writes ``{RULESET}``),
        # an optional one in brackets, once.
        name = str(self.metavar or self.name or "").upper()
        name = name if self.required else f"[{name}]"
        return name + ("..." if self.nargs != 1 else "")

    TyperArgument.display_type_rich = argument_type  # type: ignore[method-assign,assignment]
    TyperOption.display_type_rich = option_type  # type: ignore[method-assign]
    TyperArgument._get_number_range_help_str = no_range  # type: ignore[method-assign]
    TyperOption._get_number_range_help_str = no_range  # type: ignore[method-assign]
    TyperArgument._usage_display_name = usage_name  # type: ignore[method-assign]


_help_without_python_types()


def _examples(*commands: str) -> str:
    """Returns a command's help epilog: examples to copy, one a paragraph."""
    return "Examples:\n\n" + "\n\n".join(f"  $ {c}" for c in commands)


def _complete_ruleset(incomplete: str) -> list[str]:
    """Returns the ruleset and variant ids that begin with ``incomplete``, for the shell's tab
    completion (``ombre --install-completion``); never an error, only fewer names."""
    from engine.rules.loader import default_registry

    try:
        ids = {e.id for e in default_registry().found() if e.id is not None}
    except Exception:  # a completion must never break the shell
        return []
    return sorted(i for i in ids if i.startswith(incomplete))


OutputForce = Annotated[
    bool,
    typer.Option(
        "--force", help="Write through a symbolic link, a device or a FIFO at an output path."
    ),
]


def _output_checked(*paths: Path | None, force: bool, folder_ok: bool = False) -> None:
    """Refuses an output path that is a symbolic link, a device, a FIFO or a socket unless
    ``--force`` (as ``--record`` does): a page is never written into a link's target, a
    device, or a FIFO no one reads (where it would wait for ever)."""
    from engine.files import not_regular

    for path in paths:
        if path is not None and not force:
            kind = not_regular(path, folder_ok=folder_ok)
            if kind is not None:
                raise CliError(_words("output-not-regular", path=path, kind=kind))


JsonFlag = Annotated[
    bool, typer.Option("--json", help="Print one JSON document on stdout instead of text.")
]
RulesetArg = Annotated[
    str,
    typer.Argument(
        metavar="RULESET",
        autocompletion=_complete_ruleset,
        help="A ruleset or variant: id, alias or path.",
    ),
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


def _colour(stream: Any) -> bool:
    """Checks if ``stream`` is a terminal that may be coloured (not piped, no ``NO_COLOR``,
    not ``TERM=dumb``)."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


_PREFIX_COLOURS = {"ombre: error:": "red", "ombre: warning:": "yellow"}


def _err(text: str) -> None:
    """Prints on stderr; on a terminal the ``ombre: error:``/``warning:`` prefixes in colour."""
    if _colour(sys.stderr):
        for prefix, colour in _PREFIX_COLOURS.items():
            if text.startswith(prefix):
                text = typer.style(prefix, fg=colour, bold=True) + text[len(prefix) :]
                break
    typer.echo(text, err=True, color=_colour(sys.stderr))


def _problems_text(
    problems: Sequence[Problem],
    files_checked: int = 0,
    *,
    summary: bool = True,
    warnings: Sequence[Problem] = (),
) -> str:
    """Returns the problems, one ``FILE:LINE:COLUMN: $.path: message [code]`` a line, the
    warnings likewise, and (with ``summary``) a line that counts them. With no problem and no
    warning, the text rendered before for the same count is reused (``render_cached``)."""
    from engine.render import render, render_cached

    if not problems and not warnings:
        key = [b"problems", str(files_checked).encode(), bytes([summary])]
        return render_cached(
            "cli/problems.txt.j2",
            key,
            lambda: {"problems": [], "warnings": [], "checked": files_checked, "summary": summary},
        )
    return render(
        "cli/problems.txt.j2",
        "text",
        problems=problems,
        warnings=warnings,
        checked=files_checked,
        summary=summary,
    )


def _words(what: str, **context: Any) -> str:
    """Returns one of the commands' errors or warnings (``templates/cli/errors.txt.j2``)."""
    from engine.render import render

    return render("cli/errors.txt.j2", "text", what=what, **context)


def _line(kind: str, message: object) -> str:
    """Returns ``ombre: KIND: message``, as every error and warning is printed on stderr."""
    return _words("line", kind=kind, message=message)


def _message(what: str, **context: Any) -> None:
    """Prints one of the commands' short messages (``templates/cli/messages.txt.j2``)."""
    from engine.render import render

    typer.echo(render("cli/messages.txt.j2", "text", what=what, **context), nl=False)


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
        except (CliError, RequestError) as exc:
            _err(_line("error", exc))
            fail(exc.status, "usage" if exc.status == EXIT_USAGE else "invalid", str(exc))
        except RuleFileError as exc:
            text = _problems_text(exc.problems)
            _err(text.rstrip("\n"))
            fail(EXIT_INVALID, "rule-file", text.splitlines()[-1], exc.problems)
        except RecordError as exc:
            _err(_problems_text(exc.problems, summary=False).rstrip("\n"))
            fail(EXIT_INVALID, "record", _words("record-malformed"), exc.problems)
        except IllegalActionError as exc:
            _err(_words("illegal-line", message=exc, code=exc.code))
            fail(EXIT_INVALID, exc.code, str(exc))
        except NotationError as exc:
            # Raised for what the user typed: a ruleset name, a suit, a card, an option.
            _err(_line("error", exc))
            fail(EXIT_USAGE, "usage", str(exc))
        except BrokenPipeError:
            # The reader went away (`ombre show quadrille | head -1`): not an error.
            _quiet_stdout()
            raise typer.Exit(EXIT_OK) from None
        except OSError as exc:
            message = _words("os-error", filename=exc.filename, reason=exc.strerror or exc)
            _err(_line("error", message))
            fail(EXIT_USAGE, "usage", message)

    return wrapper


# Shared helpers for commands.


def _emit_json(document: Any) -> None:
    """Prints one JSON document on stdout."""
    import json

    typer.echo(json.dumps(document, ensure_ascii=False, indent=2))


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
    from engine.rules import load_ruleset

    if name.endswith((".yaml", ".yml", ".json")) and not Path(name).is_file():
        raise CliError(_words("no-such-file", name=name), EXIT_USAGE)
    return load_ruleset(name)


def _option_pairs(items: Sequence[str] | None) -> dict[str, str]:
    """Parses ``KEY=VALUE`` setup options (their syntax only)."""
    options: dict[str, str] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise CliError(_words("option-syntax", item=item))
        options[key.strip()] = value.strip()
    return options


def _parse_options(ruleset: RuleSet, items: Sequence[str] | None) -> dict[str, str]:
    """Parses ``KEY=VALUE`` setup options and checks them against the ruleset."""
    options = _option_pairs(items)
    ruleset.resolve_options(options)  # raises NotationError for an unknown key or choice
    return options


# ombre list


@app.command("list", epilog=_examples("ombre list", "ombre list --json"))
@_boundary
def list_(json_out: JsonFlag = False) -> None:
    """List the rulesets and variants found: id, name, what it extends, file."""
    from engine.rules.loader import default_registry

    rows: list[dict[str, Any]] = []
    for entry in default_registry().found():
        if entry.doc is None or entry.id is None:
            _err(_line("warning", _words("unreadable-rule-file", shown=entry.shown)))
            continue
        rows.append(
            {
                "id": entry.id,
                "name": entry.name,
                "kind": entry.kind,
                "extends": entry.extends,
                "path": _shown(entry.path),
            }
        )
    rows.sort(key=lambda r: (r["kind"] != "ruleset", r["id"]))
    if json_out:
        _emit_json(rows)
        return
    import json

    from engine.render import render_cached

    key = [json.dumps(rows, sort_keys=True).encode()]
    typer.echo(render_cached("list.txt.j2", key, lambda: {"rows": rows}), nl=False)


# ombre validate


@app.command(epilog=_examples("ombre validate", "ombre validate variants/my-house-rule.yaml"))
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
    from engine.rules.loader import default_registry, validate_paths

    names = list(paths or [])
    missing = [n for n in names if not os.path.lexists(n) and default_registry().find(n) is None]
    if missing:
        raise CliError(_words("no-such-input", names=missing), EXIT_USAGE)
    warnings: list[Problem] = []
    problems, checked = validate_paths(names, warnings)
    if json_out:
        document: dict[str, Any] = {
            "valid": not problems,
            "errors": [p.as_json() for p in problems],
        }
        if warnings:  # the spec's two keys, and a third only when there is a warning
            document["warnings"] = [w.as_json() for w in warnings]
        _emit_json(document)
    else:
        typer.echo(_problems_text(problems, checked, warnings=warnings), nl=False)
    if problems:
        raise typer.Exit(EXIT_INVALID)


# ombre show


def _show_json(r: RuleSet) -> dict[str, Any]:
    from engine.rules.reader import json_path

    data: dict[str, Any] = r.plain()
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


@app.command(epilog=_examples("ombre show quadrille", "ombre show hombre --json"))
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


@app.command(
    epilog=_examples(
        "ombre cards ombre --trump hearts",
        "ombre cards quadrille -t spades",
    ),
)
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
    from engine.cards import Suit

    trump_suit = Suit.parse(trump)
    options = _parse_options(r, option)
    from engine.referee import trump_suits

    present = trump_suits(r, options)  # the referee's one derivation of the trump choices
    if trump_suit not in present:
        raise CliError(
            _words(
                "trump-not-in-deck",
                suit=trump_suit,
                rules=r,
                setup=r.resolve_options(options),
                present=present,
            ),
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
    """Finds the rules a record names (by id, then by its ruleset_file); warns on stderr when
    they are not those it was played under."""
    from engine.records import resolve_ruleset

    rules, warnings = resolve_ruleset(record, record_path, override)
    for warning in warnings:
        _err(_line("warning", _words("record-warning", path=record_path, warning=warning)))
    return rules


def _record_file(record: str) -> Path:
    """Returns the path of a record file to read, or a usage error saying what is wrong."""
    path = Path(record)
    if path.is_dir():
        raise CliError(_words("record-is-a-directory", path=record))
    if not path.exists():  # a FIFO or a device is refused by read_record, before reading
        raise CliError(_words("no-such-file", name=record), EXIT_USAGE)
    return path


@app.command(
    epilog=_examples(
        "ombre replay docs/examples/belinda.yaml",
        "ombre replay game.yaml --ruleset quadrille-renonce",
        "ombre replay game.yaml --html game.html",
    ),
)
@_boundary
def replay(
    record: Annotated[str, typer.Argument(metavar="RECORD", help="A record file (YAML or JSON).")],
    ruleset: Annotated[
        str | None,
        typer.Option(
            "--ruleset",
            metavar="RULESET",
            autocompletion=_complete_ruleset,
            help="Referee under this ruleset too, side by side with the record's own.",
        ),
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
    force: OutputForce = False,
) -> None:
    """Referee a record: legal or not, tricks, result and payments."""
    _output_checked(html, md, force=force)
    from engine.records import ReplayReport, read_record
    from engine.records import replay as run_replay

    path = _record_file(record)
    try:
        rec = read_record(path)
        if ruleset is not None:
            _replay_against(rec, path, ruleset, json_out, html, md)
            return
        rules = _record_ruleset(rec, path, None)
        if json_out and html is None and md is None:
            report = run_replay(rec, rules)
        else:
            from engine.documents.deal_page import replay_story

            story = replay_story(rec, rules, record)
            report = story.report
    except RecordError as exc:
        if not json_out:
            raise
        # With --json a malformed record is still one report on stdout, its problems on stderr.
        _err(_problems_text(exc.problems, summary=False).rstrip("\n"))
        report = ReplayReport.malformed(exc)
        html = md = None
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


def _replay_against(
    rec: Any, path: Path, other: str, json_out: bool, html: Path | None, md: Path | None
) -> None:
    """``ombre replay RECORD --ruleset OTHER``: the record under its own ruleset and OTHER;
    ``--html``/``--md`` write the deal page of the record refereed under OTHER."""
    from engine.sidebyside import render_text, replay_against

    own = _record_ruleset(rec, path, None)
    rules_other = _record_ruleset(rec, path, other)
    compared = replay_against(rec, own, rules_other)
    if html is not None or md is not None:
        from engine.documents.deal_page import replay_story
        from engine.documents.site import write_deal_page

        story = replay_story(rec, rules_other, str(path))
        if html is not None:
            write_deal_page(story, html, "html")
        if md is not None:
            write_deal_page(story, md, "md")
    if json_out:
        _emit_json(compared.as_json())
    else:
        typer.echo(render_text(compared), nl=False)
    # Refused under OTHER is a finding; refused under the record's own ruleset, an error.
    if compared.a.error is not None:
        raise typer.Exit(EXIT_INVALID)


# ombre docs, diff, claims


@app.command(
    epilog=_examples(
        "ombre docs --out site --format html",
        "ombre docs --out notes quadrille",
    ),
)
@_boundary
def docs(
    out: Annotated[
        Path, typer.Option("--out", metavar="DIR", help="The folder to write (made if missing).")
    ],
    rulesets: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="RULESET",
            autocompletion=_complete_ruleset,
            help="Only these (default: every ruleset).",
            show_default=False,
        ),
    ] = None,
    fmt: Annotated[
        str, typer.Option("--format", metavar="md|html", help="Markdown or HTML.")
    ] = "md",
    json_out: JsonFlag = False,
    force: OutputForce = False,
) -> None:
    """Write the rule books, matrix, diffs, claims, disagreements and glossary."""
    _output_checked(out, force=force, folder_ok=True)
    from engine.documents.site import write_docs
    from engine.render import render

    if fmt not in ("md", "html"):
        raise CliError(_words("docs-format", value=fmt))
    if out.exists() and not out.is_dir():
        raise CliError(_words("docs-out", path=out))
    from engine.simulate import progress_bar

    chosen = [_load(n) for n in rulesets or []]
    with progress_bar(1, str(out), enabled=sys.stderr.isatty(), verb="writing") as bar:
        written = write_docs(out, "html" if fmt == "html" else "md", chosen, progress=bar)
    if json_out:
        _emit_json({"format": fmt, **written.as_json()})
        return
    typer.echo(render("docs.txt.j2", "text", written=written, format=fmt), nl=False)


@app.command(epilog=_examples("ombre diff quadrille quadrille-four-trick-bete"))
@_boundary
def diff(
    a: Annotated[
        str,
        typer.Argument(metavar="A", autocompletion=_complete_ruleset, help="A ruleset or variant."),
    ],
    b: Annotated[
        str,
        typer.Argument(
            metavar="B", autocompletion=_complete_ruleset, help="Another, compared with A."
        ),
    ],
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


@app.command(epilog=_examples("ombre claims", "ombre claims ombre"))
@_boundary
def claims(
    ruleset: Annotated[
        str | None,
        typer.Argument(
            metavar="RULESET",
            autocompletion=_complete_ruleset,
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


@app.command("sources")
@_boundary
def sources_(
    source: Annotated[
        str | None,
        typer.Argument(
            metavar="SOURCE",
            help="A stored source (enc-q, enc-qui, cg-en, acad, acad-2, hoyle-ie, hoyle-gb).",
            show_default=False,
        ),
    ] = None,
    json_out: JsonFlag = False,
) -> None:
    """Read a stored source sentence by sentence: what the model encodes, and why not."""
    from engine.documents.concordance import SOURCES, build_concordances
    from engine.render import render

    if source is not None and source.lower() not in SOURCES:
        raise CliError(_words("no-such-source", name=source, known=SOURCES), EXIT_USAGE)
    chosen = [source.lower()] if source is not None else list(SOURCES)
    found = build_concordances(chosen)
    if json_out:
        _emit_json(found[0].as_json() if source is not None else [c.as_json() for c in found])
        return
    context = {"concordance": found[0]} if source is not None else {"concordances": found}
    typer.echo(render("concordance.txt.j2", "text", **context), nl=False)


# ombre play


BotsOption = Annotated[
    str,
    typer.Option("--bots", metavar="random|heuristic|search", help="How the bots play."),
]


def _load_for_bots(
    ruleset: str, option: Sequence[str] | None, bots: str
) -> tuple[RuleSet, dict[str, str]]:
    """Loads a ruleset and its setup options, and checks the kind of bot named."""
    from engine.bots import BOTS

    r = _load(ruleset)
    options = _parse_options(r, option)
    if bots not in BOTS:
        raise CliError(_words("bots", kinds=BOTS, value=bots))
    return r, options


@app.command(
    epilog=_examples(
        "ombre play quadrille",
        "ombre play ombre --seat 1 --record game.yaml",
        "ombre play --from game.yaml",
    ),
)
@_boundary
def play(
    ruleset: Annotated[
        str | None,
        typer.Argument(
            metavar="RULESET",
            autocompletion=_complete_ruleset,
            help="A ruleset or variant: id, alias or path. With --from it may be left out.",
            show_default=False,
        ),
    ] = None,
    seat: Annotated[
        int | None,
        typer.Option("--seat", metavar="K", help="Your seat (0 is the first dealer). Default: 0."),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            metavar="N",
            help="Seed of the game (default: a fresh one from the system, told when the party is over).",
        ),
    ] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots",
            metavar="KIND",
            help="How the bots play: heuristic (the default), random or search.",
        ),
    ] = None,
    record: Annotated[
        Path | None, typer.Option("--record", metavar="FILE", help="Write the record here.")
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Overwrite the --record file if it exists.")
    ] = False,
    from_: Annotated[
        Path | None,
        typer.Option(
            "--from",
            metavar="RECORD",
            help="Go on with a recorded game: resume its unfinished deal, or deal the next.",
        ),
    ] = None,
    auto: Annotated[
        bool, typer.Option("--auto", help="Bots take every seat; print the deal as it goes.")
    ] = False,
    deals: Annotated[
        int | None,
        typer.Option(
            "--deals",
            min=1,
            metavar="N",
            help="How many deals the party has. Default: at a terminal, deal after deal until "
            "you stop; with piped input or --auto, one.",
        ),
    ] = None,
    option: OptionList = None,
) -> None:
    """Play at the table against bots (answers on stdin: an action, a card, or a number)."""
    from engine.table import PlayRequest

    request = PlayRequest(
        ruleset=ruleset,
        seat=seat,
        seed=seed,
        bots=bots,
        record=record,
        force=force,
        start=from_,
        auto=auto,
        deals=deals,
        options=_option_pairs(option),
        option_given=bool(option),
        interactive=sys.stdin.isatty(),
    )
    status = _sit_at_table(request)
    if status:
        raise typer.Exit(status)


def _sit_at_table(request: PlayRequest) -> int:
    """Opens the table ``request`` asks for, warns about its record's rules, readies the
    standard input and plays the party on it; returns the party's exit status."""
    import io

    from engine.seeds import fresh_seed
    from engine.table import open_table

    game, warnings = open_table(request, _load, fresh_seed)
    for warning in warnings:
        _err(_line("warning", _words("record-warning", path=request.start, warning=warning)))
    if isinstance(sys.stdin, io.TextIOWrapper):
        # Bytes that are not text in the locale's encoding become U+FFFD (and so an answer
        # the table does not understand), not a UnicodeDecodeError.
        sys.stdin.reconfigure(errors="replace")
    if request.interactive:
        _fit_terminal()
        _line_editing(game.completions)
    return game.run(_stdin_reader(request.interactive), typer.echo, colour=_colour(sys.stdout))


def _stdin_reader(interactive: bool) -> Callable[[str], str | None]:
    """Returns the table's way of asking: a prompt answered on the standard input, through
    line editing at a terminal, else echoed with the answer read (None at the end)."""

    def read(prompt: str) -> str | None:
        if interactive:
            try:
                return input(prompt)
            except EOFError:
                sys.stdout.write("\n")
                return None
        sys.stdout.write(prompt)
        sys.stdout.flush()
        line = sys.stdin.readline()
        if not line:
            sys.stdout.write("\n")
            return None
        sys.stdout.write(line if line.endswith("\n") else line + "\n")
        return line

    return read


def _line_editing(words: Callable[[], list[str]]) -> None:
    """Turns on line editing, history and Tab completion where the terminal has readline."""
    try:
        import readline
    except ImportError:  # pragma: no cover - e.g. Windows without pyreadline
        return

    def complete(text: str, state: int) -> str | None:
        options = [w for w in words() if w.lower().startswith(text.lower())]
        return options[state] if state < len(options) else None

    readline.set_completer(complete)
    readline.set_completer_delims(" ")
    readline.parse_and_bind("tab: complete")


# ombre simulate

RayAddress = Annotated[
    str | None,
    typer.Option(
        "--ray",
        metavar="ADDRESS",
        help=(
            "Play on a Ray cluster (the \\[ray] extra): its head's host:port, auto (the "
            "cluster this machine belongs to, else a Ray instance started here for the run) "
            "or local (one started here, with --jobs cores). The same results as --jobs."
        ),
    ),
]


@app.command(
    epilog=_examples(
        "ombre simulate quadrille -n 2000",
        "ombre simulate ombre --against ombre-spadille-force -n 2000 --html effect.html",
    ),
)
@_boundary
def simulate(
    ruleset: RulesetArg,
    deals: Annotated[
        int, typer.Option("-n", "--deals", min=1, metavar="N", help="How many deals (at least 1).")
    ] = 1000,
    seed: Annotated[int, typer.Option("--seed", metavar="S", help="Seed of the run.")] = 1,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            metavar="KIND[,KIND…]",
            help=(
                "random, heuristic or search (or, with the \\[openspiel] extra, OpenSpiel's "
                "ismcts:simulations=N:uct_c=C or a bot it registers): one for every seat, "
                "or one per seat."
            ),
        ),
    ] = "heuristic",
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs", "-j", min=1, metavar="K", help="Processes that play (default: every core)."
        ),
    ] = None,
    ray: RayAddress = None,
    option: OptionList = None,
    against: Annotated[
        str | None,
        typer.Option(
            "--against",
            metavar="RULESET",
            autocompletion=_complete_ruleset,
            help="Compare with this ruleset on the same deals (paired), with 95% intervals.",
        ),
    ] = None,
    svg: Annotated[
        Path | None,
        typer.Option("--svg", metavar="FILE", help="With --against: also write the chart."),
    ] = None,
    html: Annotated[
        Path | None,
        typer.Option(
            "--html", metavar="FILE", help="With --against: also write a page, table and chart."
        ),
    ] = None,
    json_out: JsonFlag = False,
    force: OutputForce = False,
) -> None:
    """Play N deals with bots in every seat, the pot carrying over, and summarise."""
    _output_checked(svg, html, force=force)
    from engine.bots import BOTS
    from engine.simulate import Setup, default_jobs, parse_bots, progress_bar, run, summary_text

    if ray is not None and jobs is not None and ray != "local":
        raise CliError(_words("ray-and-jobs", address=ray))
    k = jobs or default_jobs()
    if against is not None:
        with _blocks(ray, jobs) as blocks:
            _simulate_against(
                ruleset, against, deals, seed, bots, option, svg, html, json_out, k, blocks
            )
        return
    if svg is not None or html is not None:
        raise CliError(_words("svg-needs-against"))
    r = _load(ruleset)
    options = _parse_options(r, option)
    try:
        kinds = parse_bots(bots, r.players, BOTS)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    setup = Setup(r, kinds, seed, options)
    with (
        _blocks(ray, jobs) as blocks,
        progress_bar(deals, f"{r.id}", enabled=sys.stderr.isatty()) as progress,
    ):
        tally = run(setup, deals, jobs=k, progress=progress, blocks=blocks)
    if json_out:
        _emit_json(tally.as_json())
        return
    typer.echo(summary_text(tally, r), nl=False)


@contextlib.contextmanager
def _blocks(address: str | None, jobs: int | None) -> Iterator[Blocks | None]:
    """The cluster ``--ray`` names, joined for the run (nothing without ``--ray``)."""
    if address is None:
        yield None
        return
    from engine import cluster

    if not cluster.available():
        raise CliError(_words("ray-needs-extra", extra=cluster.EXTRA))
    with cluster.connect(address, cpus=jobs) as blocks:
        yield blocks


def _simulate_against(
    a_name: str,
    b_name: str,
    deals: int,
    seed: int,
    bots: str,
    option: Sequence[str] | None,
    svg: Path | None,
    html: Path | None,
    json_out: bool,
    jobs: int,
    blocks: Blocks | None = None,
) -> None:
    """``ombre simulate A --against B``: the paired comparison (engine.compare)."""
    from engine.compare import compare, render_html, render_svg, render_text

    a, options = _load_for_bots(a_name, option, bots)
    b = _load(b_name)
    # A setup option applies to each rule set that declares it.
    options_b = {k: v for k, v in options.items() if k in b.options}
    b.resolve_options(options_b)
    report = compare(
        a,
        b,
        deals,
        seed=seed,
        bots=bots,
        options_a=options,
        options_b=options_b,
        jobs=jobs,
        blocks=blocks,
    ).report()
    if svg is not None:
        svg.write_text(render_svg(report), encoding="utf-8")
    if html is not None:
        html.write_text(render_html(report), encoding="utf-8")
    if json_out:
        _emit_json(report.as_json())
    else:
        typer.echo(render_text(report), nl=False)
        written = [("chart", svg), ("page", html)]
        _message("written", files=[(label, _shown(p)) for label, p in written if p is not None])


# ombre new


@app.command(epilog=_examples("ombre new my-house-rule --extends quadrille"))
@_boundary
def new(
    name: Annotated[str, typer.Argument(metavar="NAME", help="The new variant's id.")],
    extends: Annotated[
        str,
        typer.Option(
            "--extends",
            metavar="PARENT",
            autocompletion=_complete_ruleset,
            help="The ruleset or variant it extends.",
        ),
    ],
    out: Annotated[
        Path | None,
        typer.Option("--out", metavar="FILE", help="Where to write (default: variants/NAME.yaml)."),
    ] = None,
    json_out: JsonFlag = False,
) -> None:
    """Write a commented starter variant of PARENT, schema line included; never overwrites."""
    from engine.rules.loader import default_registry, schema_path
    from engine.starter import check_name, starter_path, write_starter

    check_name(name)
    existing = default_registry().find(name)
    if existing is not None and existing.kind in ("ruleset", "variant"):
        raise CliError(_words("new-exists", name=name))
    parent = _load(extends)
    target = starter_path(name, out, default_registry().variants_dir)
    try:
        write_starter(name, parent, target, schema_path())
    except FileExistsError:
        raise CliError(_words("new-file-exists", path=_shown(target))) from None
    if json_out:
        _emit_json({"id": name, "extends": parent.id, "path": _shown(target)})
    else:
        _message("new", path=_shown(target), parent=parent.id)


# ombre serve and ombre score (engine/web/, engine/scoresheet.py, engine/scoreterm.py)


@app.command(epilog=_examples("ombre serve", "ombre serve --port 8080 --folder ~/evenings"))
@_boundary
def serve(
    port: Annotated[
        int, typer.Option("--port", min=1, max=65535, metavar="N", help="The port (1 to 65535).")
    ] = 8000,
    host: Annotated[
        str,
        typer.Option(
            "--host", metavar="ADDRESS", help="The address to bind (default: this machine only)."
        ),
    ] = "127.0.0.1",
    folder: Annotated[
        Path | None,
        typer.Option(
            "--folder",
            metavar="DIR",
            help="Where tables and evenings are saved (default: $OMBRE_HOME or ~/ombre-workbench).",
        ),
    ] = None,
    allow_host: Annotated[
        list[str] | None,
        typer.Option(
            "--allow-host",
            metavar="NAME",
            help="A name or address the other machines reach this one by (repeatable); "
            "with --host 0.0.0.0, the server answers requests addressed to these only.",
        ),
    ] = None,
    per_client: Annotated[
        int,
        typer.Option(
            "--per-client",
            min=1,
            max=512,
            metavar="N",
            help="The most connections one address may hold at once (a browser opens about 6).",
        ),
    ] = 64,
) -> None:
    """Play in the browser, and keep score of evenings with real cards (needs the web extra)."""
    try:
        import uvicorn

        from engine.web.app import create_app
        from engine.web.server import config
    except ImportError:
        raise CliError(_words("serve-needs-web")) from None
    from engine.web.store import FolderInUse, Store, default_folder

    where = (folder or default_folder()).expanduser()
    local = ["127.0.0.1", "localhost", "::1"]
    named = [h.strip().strip("[]").lower() for h in allow_host or [] if h.strip()]
    wildcard = host in ("0.0.0.0", "::", "")
    if wildcard and not named:
        raise CliError(_words("serve-needs-names", host=host))
    hosts = [*local, *named] + ([] if wildcard or host in local else [host.strip("[]")])
    try:
        lock = Store(where).lock()  # one server per folder, held until this process ends
    except FolderInUse as exc:
        raise CliError(str(exc)) from None
    application = create_app(where, allowed_hosts=hosts, warm_books=True)
    shown = "localhost" if host in local else (named or [host.strip("[]")])[0]
    _message(
        "serve",
        url=f"http://{shown}:{port}/",
        folder=where,
        names=[h for h in hosts if h not in local],
    )
    try:
        uvicorn.Server(config(application, host, port, per_client=per_client)).run()
    finally:
        lock.close()


@app.command(
    epilog=_examples(
        "ombre score quadrille --evening tuesday.yaml --players Ann,Bob,Cy,Di",
        "ombre score --evening tuesday.yaml --report",
        'ombre score dansk-lhombre --tournament club.yaml --tables "Ann,Bo,Cy;Di,Ed,Flo" --deals 8',
        "ombre score --tournament club.yaml --report",
    ),
)
@_boundary
def score(
    ruleset: Annotated[
        str | None,
        typer.Argument(
            metavar="RULESET",
            autocompletion=_complete_ruleset,
            help="The game (not needed to go on with --evening or --tournament).",
        ),
    ] = None,
    evening: Annotated[
        Path | None,
        typer.Option(
            "--evening", metavar="FILE", help="The evening's file: read if it exists, then kept."
        ),
    ] = None,
    dealer: Annotated[
        int, typer.Option("--dealer", metavar="K", help="The first dealer's seat.")
    ] = 0,
    players: Annotated[
        str | None,
        typer.Option(
            "--players", metavar="NAMES", help="The players' names, seat 0 first: A,B,C,D."
        ),
    ] = None,
    report: Annotated[
        bool,
        typer.Option(
            "--report", help="Print the evening (or tournament) in FILE and stop (no questions)."
        ),
    ] = False,
    tournament: Annotated[
        Path | None,
        typer.Option(
            "--tournament",
            metavar="FILE",
            help="A tournament of several tables (not with --evening): read if it exists, then kept.",
        ),
    ] = None,
    tables: Annotated[
        str | None,
        typer.Option(
            "--tables",
            metavar="TABLES",
            help="A new tournament's players: seats by commas, tables by semicolons: A,B,C;D,E,F.",
        ),
    ] = None,
    deals: Annotated[
        int | None,
        typer.Option(
            "--deals",
            metavar="N",
            help="A new tournament's deals a table (where the rule file sets no party length).",
        ),
    ] = None,
    csv_out: Annotated[
        bool,
        typer.Option("--csv", help="Print the tournament's standings in FILE as CSV and stop."),
    ] = False,
    option: OptionList = None,
    json_out: JsonFlag = False,
) -> None:
    """Keep score of an evening played with real cards: payments, pot, bêtes, totals."""
    if tournament is not None or tables is not None or deals is not None or csv_out:
        _tournament_usage(evening, tournament, players, report, json_out, csv_out)
        assert tournament is not None
        setup = _TournamentSetup(ruleset, tables, deals, dealer, option)
        if report or json_out or csv_out:
            _tournament_out(tournament, report, json_out, setup)
            return
        _with_lock(tournament, lambda: _keep_tournament(tournament, setup))
        return
    if evening is not None and not (report or json_out):
        _with_lock(
            evening,
            lambda: _keep_score(ruleset, evening, report, json_out, dealer, players, option),
        )
        return
    _keep_score(ruleset, evening, report, json_out, dealer, players, option)


def _with_lock(path: Path, keep: Callable[[], None]) -> None:
    """Runs ``keep`` holding the lock every writer of ``path`` takes (the server's folder lock
    for a file in its evenings/, else one beside the file): the last writer no longer silently
    wins over a server or a terminal."""
    from engine.files import FileInUse, NotARegularFile, hold_lock, lock_for

    try:
        held = hold_lock(lock_for(path))
    except (FileInUse, NotARegularFile) as exc:
        raise CliError(_words("score-in-use", path=path, why=str(exc))) from None
    try:
        keep()
    finally:
        os.close(held)


def _keep_score(
    ruleset: str | None,
    evening: Path | None,
    report: bool,
    json_out: bool,
    dealer: int,
    players: str | None,
    option: OptionList,
) -> None:
    from engine.rules import load_ruleset
    from engine.scoresheet import Evening, load_evening
    from engine.scoreterm import report_text, run_score

    if evening is not None and evening.is_file():
        sheet = load_evening(evening, _load)
        if ruleset is not None and _load(ruleset).id != sheet.rules.id:
            raise CliError(
                _words("score-other-game", path=evening, game=sheet.rules.id, asked=ruleset)
            )
    elif report:
        raise CliError(_words("score-report"))
    elif ruleset is None:
        raise CliError(_words("score-needs-game"))
    else:
        rules = load_ruleset(ruleset) if not ruleset.endswith((".yaml", ".yml")) else _load(ruleset)
        if not 0 <= dealer < rules.players:
            raise CliError(_words("score-dealer", rules=rules))
        names = tuple(n.strip() for n in players.split(",")) if players else ()
        if names and len(names) != rules.players:
            raise CliError(_words("score-players", count=len(names), rules=rules))
        sheet = Evening(rules, _parse_options(rules, option), dealer, players=names)
    if report or json_out:
        if json_out:
            _emit_json(sheet.as_json())
            return
        typer.echo(report_text(sheet, evening), nl=False)
        return

    _fit_terminal()
    run_score(sheet, evening, _score_reader(), typer.echo)


def _fit_terminal() -> None:
    """Folds the table's and the scorekeeper's lines at the terminal's width where it is
    narrower than the usual 92 columns (a phone's terminal, a split window): for a person at a
    terminal only, so that piped output stays the same."""
    import shutil

    from engine.render import environment

    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return
    columns = shutil.get_terminal_size((92, 24)).columns
    if 40 <= columns < 93:
        for fmt in ("text", "ansi"):
            environment(fmt).globals["terminal_width"] = columns - 1


def _score_reader() -> Callable[[str], str | None]:
    """Returns the scorekeeper's way of asking: the prompt, then a line of the standard input
    (echoed when it is not a terminal), None at its end."""

    def read(prompt: str) -> str | None:
        sys.stdout.write(prompt)
        sys.stdout.flush()
        line = sys.stdin.readline()
        if not line:
            sys.stdout.write("\n")
            return None
        if not sys.stdin.isatty():
            sys.stdout.write(line if line.endswith("\n") else line + "\n")
        return line

    return read


# ombre score --tournament


@dataclass(frozen=True, slots=True)
class _TournamentSetup:
    """What the command line says of a tournament: the game, its tables, deals a table, the
    first dealer and the options (a new tournament's setup, or one to check against the
    file's)."""

    ruleset: str | None
    tables: str | None
    deals: int | None
    dealer: int
    option: OptionList


def _tournament_usage(
    evening: Path | None,
    tournament: Path | None,
    players: str | None,
    report: bool,
    json_out: bool,
    csv_out: bool,
) -> None:
    """Refuses the options that do not go with ``--tournament`` (or are nothing without it)."""
    if tournament is None:
        raise CliError(_words("score-tournament-needed"))
    if evening is not None:
        raise CliError(_words("score-tournament-evening"))
    if players is not None:
        raise CliError(_words("score-tournament-players"))
    if report + json_out + csv_out > 1:
        raise CliError(_words("score-tournament-outputs"))


def _tournament_out(path: Path, report: bool, json_out: bool, setup: _TournamentSetup) -> None:
    """Prints the tournament in ``path`` (--report, --json or --csv) and asks nothing."""
    from engine.scoreterm import tournament_report
    from engine.tournament import load_tournament

    if not path.exists():
        raise CliError(_words("score-tournament-report", path=path))
    held = load_tournament(path, _load)
    _check_setup(held, path, setup)
    if json_out:
        _emit_json(held.as_json())
    elif report:
        typer.echo(tournament_report(held, path), nl=False)
    else:
        typer.echo(held.as_csv(), nl=False)


def _keep_tournament(path: Path, setup: _TournamentSetup) -> None:
    """Starts the tournament in ``path`` (from --tables) or goes on with it, then asks for its
    deals, table by table."""
    import io

    from engine.files import write_durably
    from engine.scoreterm import run_tournament
    from engine.tournament import Tournament, load_tournament, parse_tables, write_tournament

    if path.exists():
        held = load_tournament(path, _load)
        _check_setup(held, path, setup)
    else:
        if setup.ruleset is None:
            raise CliError(_words("score-tournament-needs-game"))
        if setup.tables is None:
            raise CliError(_words("score-tournament-needs-tables"))
        rules = _load(setup.ruleset)
        if not 0 <= setup.dealer < rules.players:
            raise CliError(_words("score-dealer", rules=rules))
        held = Tournament.new(
            rules,
            parse_tables(setup.tables),
            deals=setup.deals,
            options=_parse_options(rules, setup.option),
            first_dealer=setup.dealer,
        )
        # The tables and players are entered once: kept before the first deal.
        write_durably(path, write_tournament(held))
    if isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(errors="replace")
    run_tournament(held, path, _score_reader(), typer.echo)


def _check_setup(held: Tournament, path: Path, setup: _TournamentSetup) -> None:
    """Refuses a game, tables, deals or options on the command line that differ from those of
    the tournament in ``path`` (its setup is the file's: entered once)."""
    from engine.tournament import parse_tables

    said: list[str] = []
    if setup.ruleset is not None and _load(setup.ruleset).id != held.rules.id:
        said.append(f"the game ({held.rules.id})")
    if setup.tables is not None:
        wanted = [list(t.players) for t in held.tables]
        if parse_tables(setup.tables) != wanted:
            said.append("the tables")
    if setup.deals is not None and setup.deals != held.deals_per_table:
        said.append(f"the deals a table ({held.deals_per_table})")
    if setup.option and _option_pairs(setup.option) != dict(held.options):
        said.append("the options")
    if said:
        raise CliError(_words("score-tournament-setup", path=path, said=said))


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            found: str | None = version("ombre-workbench")
        except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
            found = None
        from engine.referee import compiled

        typer.echo(_words("version", version=found, compiled=compiled()))
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
        _quiet_stdout()
        sys.exit(EXIT_OK)


def _quiet_stdout() -> None:
    """Points stdout at devnull, so that Python's flush at exit stays quiet after EPIPE."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # pragma: no cover - no file descriptor to redirect
        pass


if __name__ == "__main__":  # pragma: no cover - ``python -m engine`` keeps the help cache
    main()
