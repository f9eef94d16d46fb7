"""Rendering: the one jinja2 environment every text, Markdown and HTML output goes through.

As in pdoc's ``render.py``, the environment is configured in one place and every filter is
registered here; templates live in ``templates/`` (installed as ``engine.templates_data``) and
are fed typed objects (:class:`engine.rules.model.RuleSet`, the document views of
:mod:`engine.documents`), never raw YAML.

Three document formats share the templates' wording (``_phrases.j2``):

* ``text`` -- terminal output (``ombre show``, ``cards``, ``replay``): nothing escaped;
* ``md`` -- Markdown: every value printed is escaped so that it reads as text (``|``, ``*``,
  ``[``, ``]``, ``<`` and ``>`` behind a backslash) and marked safe, through
  jinja2's autoescape machinery, so that the Markdown a macro writes is not escaped again;
* ``html`` -- HTML5 with jinja2's autoescape.

A fourth, ``svg``, draws charts (``ombre simulate --against --svg``, the effects pages): XML
with jinja2's autoescape, escaping what XML needs (``&``, ``<``, ``>`` and ``"``).

Undefined names fail loudly (:class:`jinja2.StrictUndefined`): a typo in a template is an error,
not an empty string.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Collection, Iterable
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    import jinja2

__all__ = [
    "FORMATS",
    "Format",
    "environment",
    "md_escape",
    "render",
    "render_cached",
    "site_href",
    "templates_dir",
    "visible_length",
    "xml_escape",
]

Format = Literal["text", "md", "html", "svg", "ansi"]
FORMATS: tuple[Format, ...] = ("text", "md", "html")
"""The formats documents are written in (``ombre docs --format``)."""
_ENVIRONMENTS: tuple[Format, ...] = (*FORMATS, "svg", "ansi")
"""Besides the documents' formats: SVG (the charts) and ``ansi``, the text of the terminal
table in colour (the same templates; the red suits in red, the cards a seat may play in bold)."""

_MD_SPECIAL = re.compile(r"(?<!\\)([|*\[\]<>])")


def md_escape(value: object) -> str:
    """Returns ``value`` as Markdown that reads as the same text (idempotent).

    >>> print(md_escape("<script> a|b *c*"))
    \\<script\\> a\\|b \\*c\\*
    >>> md_escape(md_escape("a|b")) == md_escape("a|b")
    True
    """
    text = "" if value is None else str(value)
    return _MD_SPECIAL.sub(r"\\\1", text)


def _md_finalize(value: Any) -> Any:
    from markupsafe import Markup

    if hasattr(value, "__html__"):
        return value
    return Markup(md_escape(value))


def xml_escape(value: object) -> str:
    """Returns ``value`` as XML text or a double-quoted attribute value.

    >>> print(xml_escape('a < b & "c" l’Hombre'))
    a &lt; b &amp; &quot;c&quot; l’Hombre
    """
    text = "" if value is None else str(value)
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )


def _svg_finalize(value: Any) -> Any:
    from markupsafe import Markup

    if hasattr(value, "__html__"):
        return value
    return Markup(xml_escape(value))


def _unsafe_for_terminal(char: str) -> bool:
    import unicodedata

    if char in "\n\t":
        return False
    return unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp")


def terminal_escape(value: object) -> str:
    r"""Returns ``value`` with the characters a terminal would act on escaped: controls (NEL,
    ESC ...), format characters (RLO and the other bidirectional overrides) and the line and
    paragraph separators, each written ``\u....``; newlines and tabs are kept.

    >>> print(terminal_escape("Ann\u202eoB\u0085"))
    Ann\u202eoB\u0085
    """
    text = "" if value is None else str(value)
    if text.isprintable():
        return text
    return "".join(f"\\u{ord(c):04x}" if _unsafe_for_terminal(c) else c for c in text)


def _text_finalize(value: Any) -> Any:
    # Every value printed into a text page (a name, a file's words) is escaped so that it
    # cannot move the cursor, reverse the line or clear the screen.
    return terminal_escape(value) if isinstance(value, str) else value


# The colours of the terminal table (``ansi``): the only escape sequences it writes, and the
# only ones its finalize lets through (a name may colour itself with them, never move the
# cursor or clear the screen).
_ANSI_RED = "\x1b[31m"
_ANSI_BOLD = "\x1b[1m"
_ANSI_RESET = "\x1b[0m"
_ANSI_SGR = re.compile("(\x1b\\[(?:31|1|0)m)")
_ANSI_ANY_SGR = re.compile("\x1b\\[[0-9;]*m")


def _ansi_finalize(value: Any) -> Any:
    # As the text's, but the colours above (from the card filter, through a macro's output)
    # are kept.
    if not isinstance(value, str) or value.isprintable():
        return value
    return "".join(
        part if _ANSI_SGR.fullmatch(part) else terminal_escape(part)
        for part in _ANSI_SGR.split(value)
    )


def visible_length(line: str) -> int:
    r"""Returns the width of ``line`` on a terminal: its length without colour sequences.

    >>> visible_length("\x1b[31mAh\x1b[0m Ks")
    5
    """
    return len(_ANSI_ANY_SGR.sub("", line)) if "\x1b" in line else len(line)


def templates_dir() -> str:
    """Returns the folder the templates are read from (the checkout's, else the installed)."""
    from engine.rules.loader import data_dir

    return str(data_dir("templates"))


# Filters. Cards and suits come in as engine.cards values or their two-letter notation.

_SUIT_CLASS = {"s": "spades", "c": "clubs", "h": "hearts", "d": "diamonds"}
_SYMBOL = {"s": "♠", "c": "♣", "h": "♥", "d": "♦"}


def _card_parts(card: Any) -> tuple[str, str]:
    # The rank as drawn with a suit symbol: the ten, ``T`` in the notation, is ``10`` here.
    text = str(card)
    rank = text[:-1]
    return ("10" if rank == "T" else rank), text[-1]


def _card_unicode(card: Any) -> str:
    rank, suit = _card_parts(card)
    return f"{rank}{_SYMBOL.get(suit, suit)}"


def _card_html(card: Any) -> Any:
    return _card_html_of(str(card))


def _card_text(card: Any, playable: bool = False) -> str:
    """A card in the notation (``playable`` is marked only in colour)."""
    return str(card)


@lru_cache(maxsize=128)
def _card_ansi(card: Any, playable: bool = False) -> str:
    """A card in the notation for a colour terminal: hearts and diamonds red, bold when
    ``playable`` (a card the seat may play now)."""
    from engine.cards import Card, Colour

    typed = card if isinstance(card, Card) else Card.parse(str(card))
    text = str(typed)
    red = typed.suit.colour is Colour.RED
    if not red and not playable:
        return text
    return f"{_ANSI_BOLD if playable else ''}{_ANSI_RED if red else ''}{text}{_ANSI_RESET}"


@lru_cache(maxsize=64)
def _card_html_of(card: str) -> Any:
    from markupsafe import Markup, escape

    rank, suit = _card_parts(card)
    cls = _SUIT_CLASS.get(suit, "")
    return Markup('<span class="card {}" title="{}">{}{}</span>').format(
        cls, escape(str(card)), escape(rank), _SYMBOL.get(suit, suit)
    )


def _suit_symbol(suit: Any) -> str:
    name = getattr(suit, "value", str(suit))
    return _SYMBOL.get(name[:1], name)


def _signed(value: int | None) -> str:
    if value is None:
        return "-"
    return f"{value:+d}" if value else "0"


def _where(where: Any) -> str:
    """``(file, line, column)`` or ``"file:line"`` as ``file:line``, paths shown from the top."""
    from engine.rules.loader import display_path

    if where is None:
        return ""
    if isinstance(where, str):
        return where
    file, line = where[0], where[1]
    if not file:
        return ""
    from pathlib import Path

    shown = display_path(Path(file))
    return f"{shown}:{line}" if line is not None else shown


def _slug(value: Any) -> str:
    return re.sub(r"[^a-z0-9]+", "-", str(value).casefold()).strip("-") or "x"


def _join(values: Iterable[Any], sep: str = ", ") -> str:
    return sep.join(str(v) for v in values)


def _ljust(value: Any, width: int) -> str:
    return str(value).ljust(width)


def _rjust(value: Any, width: int) -> str:
    return str(value).rjust(width)


def _plural(count: int, word: str, plural: str | None = None) -> str:
    return f"{count} {word if count == 1 else (plural or word + 's')}"


def _oneline(value: Any) -> Any:
    """Joins the lines of a value (a Markdown table cell is one line); keeps it safe if it was."""
    if hasattr(value, "__html__"):
        return value.replace("\n", " ")
    return str(value).replace("\n", " ")


def _fill(value: Any, indent: str = "", width: int = 92, *, exact: bool = False) -> str:
    """Returns ``value`` with its whitespace run together, filled to ``width`` in lines that all
    start with ``indent`` (no trailing newline; an empty text gives an empty string). With
    ``exact``, the text is kept as it is (a value shown in a diff): its runs of spaces stay, and
    a word longer than a line (a URL) is not broken but stands on a line of its own.

    >>> print(_fill("a  rule   that is long", "  ", 10))
      a rule
      that is
      long
    >>> print(_fill('"see  https://example.org/a/long/path now"', "  ", 16, exact=True))
      "see
      https://example.org/a/long/path
      now"
    """
    text = str(value) if exact else " ".join(str(value).split())
    return "\n".join(
        textwrap.wrap(
            text,
            width,
            initial_indent=indent,
            subsequent_indent=indent,
            break_on_hyphens=False,
            break_long_words=not exact,
        )
    )


def _fold(
    value: Any,
    width: int = 92,
    hanging: str = "  ",
    collapse: bool = False,
    *,
    break_words: bool = True,
) -> str:
    """Folds each line of ``value`` longer than ``width`` at a word; the rest of a folded line
    keeps its indent, plus ``hanging``. With ``collapse``, a folded line's runs of whitespace
    become single spaces. Lines that fit are kept as they are. Without ``break_words``, a word
    longer than a line (a URL) stands on a line of its own rather than being cut.

    >>> print(_fold("  one two three four", 12))
      one two
        three
        four
    """
    out = []
    for line in str(value).split("\n"):
        if visible_length(line) <= width:
            out.append(line)
            continue
        indent = line[: len(line) - len(line.lstrip())]
        if "\x1b" in line:
            out += _fold_coloured(line.split(), width, indent, indent + hanging)
            continue
        out += textwrap.wrap(
            " ".join(line.split()) if collapse else line.strip(),
            width,
            initial_indent=indent,
            subsequent_indent=indent + hanging,
            break_on_hyphens=False,
            break_long_words=break_words,
        )
    return "\n".join(out)


def _fold_coloured(words: list[str], width: int, first: str, rest: str) -> list[str]:
    """Folds coloured words at ``width`` measured as the terminal shows them (the colour
    sequences take no room); a word wider than a line stands on its own."""
    lines: list[str] = []
    line, room = first, width - len(first)
    started = False
    for word in words:
        size = visible_length(word)
        if started and size + 1 > room:
            lines.append(line)
            line, room, started = rest, width - len(rest), False
        line += (" " if started else "") + word
        room -= size + (1 if started else 0)
        started = True
    lines.append(line)
    return lines


# The referee's verbs in the third person that follow a seat in its messages, and the
# second person of each ("seat 2 lacks Ks" is "you lack Ks").
_SECOND_PERSON_VERBS = {
    "holds": "hold",
    "has": "have",
    "is": "are",
    "was": "were",
    "does": "do",
    "sits": "sit",
    "lacks": "lack",
    "declares": "declare",
    "deals": "deal",
    "plays": "play",
    "leads": "lead",
    "names": "name",
    "takes": "take",
    "calls": "call",
    "gives": "give",
    "makes": "make",
    "wins": "win",
}


def _second_person(value: Any, seat: int | None) -> str:
    """Rewrites a referee message about ``seat`` so that it speaks to that seat's player: the
    seat is "you", its verb in the second person, "seat 2's" is "your" (or "yours" at the end
    of a phrase), and in a clause whose subject is "you", "him", "his" and "himself" are "you",
    "your" and "yourself".

    >>> _second_person("seat 2 does not hold Kd; seat 12 does", 2)
    'you do not hold Kd; seat 12 does'
    >>> _second_person("seat 1 holds Kd himself; it is seat 0's turn, not seat 1's", 1)
    "you hold Kd yourself; it is seat 0's turn, not yours"
    """
    text = str(value)
    if seat is None:
        return text
    s = f"seat {seat}"
    text = text.replace(f"{s} cannot turn up {s}'s hand", "you cannot turn up your own hand")
    text = text.replace(
        f"{s} may only take the overcall himself", "you may only take the overcall yourself"
    )
    text = re.sub(rf"\bof {s}\b(?!'s)", "of yours", text)
    text = re.sub(rf"\b{s}'s(?= [a-z])", "your", text)
    text = re.sub(rf"\b{s}'s\b", "yours", text)
    verbs = "|".join(_SECOND_PERSON_VERBS)
    text = re.sub(rf"\b{s} ({verbs})\b", lambda m: "you " + _SECOND_PERSON_VERBS[m[1]], text)
    text = re.sub(rf"\b{s}\b", "you", text)
    # He is "you" in a clause whose subject is "you" (clauses end at ':' and ';').
    clauses = re.split(r"([:;] )", text)
    for i, clause in enumerate(clauses):
        if re.search(r"\byou [a-z]", clause):
            for old, new in (("himself", "yourself"), ("his", "your"), ("him", "you")):
                clause = re.sub(rf"\b{old}\b", new, clause)
            clause = re.sub(
                rf"\b(you [a-z]+ [^,()]*?\band) ({verbs})\b",
                lambda m: f"{m[1]} {_SECOND_PERSON_VERBS[m[2]]}",
                clause,
            )
            clauses[i] = clause
    return "".join(clauses)


_MODALS = frozenset(("must", "may", "can", "cannot", "would", "should", "will", "won"))
# The heuristic bot's verbs after "and" in its reasons ("he keeps the king and plays ...").
_ADVICE_VERBS = {**_SECOND_PERSON_VERBS, "keeps": "keep", "lets": "let", "buys": "buy"}


def _advice_to_you(value: Any) -> str:
    """Rewrites the heuristic bot's reason for a choice, written of the player who makes it
    ("he", "his"), to speak to the player it is a hint for; anyone else named keeps his words.

    >>> _advice_to_you("pass: he plays spil, the contract he won; his cards are low")
    'pass: you play spil, the contract you won; your cards are low'
    >>> _advice_to_you("play 7c: the declarer is taking the trick; he lets him")
    'play 7c: the declarer is taking the trick; you let him'
    """

    def verb(m: re.Match[str]) -> str:
        word = m[1]
        if word in _SECOND_PERSON_VERBS:
            return "you " + _SECOND_PERSON_VERBS[word]
        if word in _MODALS or not word.endswith("s"):
            return "you " + word
        return "you " + word[:-1]

    text = re.sub(r"\bhimself\b", "yourself", str(value))
    text = re.sub(r"\bhis\b", "your", text)
    text = re.sub(r"\bhe ([a-z]+)\b", verb, text)
    return re.sub(
        rf"(\byou [a-z]+\b[^,;:()]*?\band) ({'|'.join(_ADVICE_VERBS)})\b",
        lambda m: f"{m[1]} {_ADVICE_VERBS[m[2]]}",
        text,
    )


def _md_code(value: Any) -> Any:
    """Returns text for a Markdown code span: literal, with no backtick and table pipes kept."""
    from markupsafe import Markup

    return Markup(str(value).replace("`", "'").replace("|", "\\|"))


def _plain_prose(value: Any) -> str:
    """Returns prose written with Markdown code spans and emphasis (a rule file's note) as
    plain text for the terminal: each `` `x` `` quoted 'x', each ``*x*`` its words.

    >>> _plain_prose("Written `SEAT extra-card`; only a higher matador *led* forces")
    "Written 'SEAT extra-card'; only a higher matador led forces"
    """
    text = re.sub(r"`([^`]+)`", r"'\1'", str(value))
    return re.sub(r"(?<![\w*])\*([^*\s][^*]*?)\*(?![\w*])", r"\1", text)


def _code_spans(value: Any) -> Any:
    """Returns prose written with Markdown code spans as HTML: escaped, each `` `x` `` a
    ``<code>`` element (the rule files' notes are written for both formats).

    >>> str(_code_spans("play `renonce CARD` <now>"))
    'play <code>renonce CARD</code> &lt;now&gt;'
    >>> from markupsafe import Markup
    >>> str(_code_spans(Markup('the holder of <span class="card">A♠</span>')))
    'the holder of <span class="card">A♠</span>'
    """
    from markupsafe import Markup, escape

    # A macro's output (a card drawn as HTML) is already safe: kept, not escaped again.
    text = str(escape(value))
    return Markup(re.sub(r"`([^`]+)`", r"<code>\1</code>", text))


# Links in the site: the rule files' notes name other rule files and the project's documents by
# path; the site has a page for each (the rule file's book, the document's page).

_RULE_FILE = re.compile(r"^(?:\.\./)*(?:rules|variants)/([A-Za-z0-9_-]+)\.yaml$")
_DOCUMENT = re.compile(r"^(?:\.\./docs/|docs/)?([a-z0-9-]+)\.md(#[\w-]*)?$")
_GENERATED = re.compile(r"^(?:docs/)?generated/([\w/.-]+)\.md(#[\w-]*)?$")


def site_href(href: str, root: str, books: Collection[str], docs: Collection[str]) -> str | None:
    """Returns where a document's link ``href`` leads in the site (``root``: the site's top
    from the page), or None where the site has no such page (the link is then kept as text).

    >>> site_href("generated/books/quadrille.md#auction", "../", {"quadrille"}, ())
    '../books/quadrille.html#auction'
    >>> site_href("../variants/quadrille-renonce.yaml", "../", {"quadrille-renonce"}, ())
    '../books/quadrille-renonce.html'
    >>> site_href("decisions.md#amounts", "../", (), {"decisions"})
    '../docs/decisions.html#amounts'
    >>> site_href("../engine/cli.py", "../", (), ()) is None
    True
    """
    if re.match(r"^[a-z]+:", href) or href.startswith("#"):
        return href  # another site, or an anchor on the same page
    if match := _RULE_FILE.match(href):
        return f"{root}books/{match[1]}.html" if match[1] in books else None
    if match := _GENERATED.match(href):
        return f"{root}{match[1]}.html{match[2] or ''}"
    if (match := _DOCUMENT.match(href)) and match[1] in docs:
        return f"{root}docs/{match[1]}.html{match[2] or ''}"
    return None


def _file_links(
    html: Any, root: str | None, books: Collection[str] = (), docs: Collection[str] = ()
) -> Any:
    """Returns the escaped prose ``html`` (Markup) with each path of a rule file
    (``rules/ID.yaml``, ``variants/ID.yaml``) and of a document (``docs/NAME.md``) a link to
    its page in the site; unchanged where ``root`` is None (a page not in the site).

    >>> str(_file_links("as rules/ombre.yaml says (docs/decisions.md)", "../", {"ombre"}, {"decisions"}))
    'as <a href="../books/ombre.html">rules/ombre.yaml</a> says (<a href="../docs/decisions.html">docs/decisions.md</a>)'
    """
    from markupsafe import Markup

    if root is None:
        return html

    def link(match: re.Match[str]) -> str:
        target = site_href(match[0], root, books, docs)
        return match[0] if target is None else f'<a href="{target}">{match[0]}</a>'

    return Markup(_PATHS.sub(link, str(html)))


_PATHS = re.compile(
    r"(?<![\w/.-])(?:(?:rules|variants)/[A-Za-z0-9_-]+\.yaml|docs/[a-z0-9-]+\.md)(?![\w/])"
)


def _json(value: Any, indent: int | None = None) -> str:
    """Returns ``value`` as JSON, keys sorted; on one line, or with ``indent`` laid out."""
    import json

    return json.dumps(value, ensure_ascii=False, sort_keys=True, indent=indent)


def _common_filters() -> dict[str, Callable[..., Any]]:
    return {
        "suit_symbol": _suit_symbol,
        "signed": _signed,
        "where": _where,
        "slug": _slug,
        "join_str": _join,
        "ljust": _ljust,
        "rjust": _rjust,
        "plural": _plural,
        "card_text": str,
        "oneline": _oneline,
        "json": _json,
        "md_code": _md_code,
        "code_spans": _code_spans,
        "plain_prose": _plain_prose,
        "file_links": _file_links,
        "rstrip": lambda value: str(value).rstrip(),
        "card_unicode": _card_unicode,
        "capitalize_first": lambda value: str(value)[:1].upper() + str(value)[1:],
        "fill": _fill,
        "fold": _fold,
        "second_person": _second_person,
        "advice_to_you": _advice_to_you,
    }


def _bytecode_cache(fmt: str) -> Any:
    """Returns jinja2's compiled-template cache in the workbench's cache folder (or None).

    Compiling the templates costs more than rendering them; the compiled code is kept beside the
    rule-file cache (``engine.rules.cache``: ``OMBRE_NO_CACHE=1`` turns both off), keyed by each
    template's source, so an edited template is compiled afresh. Each format has a folder of its
    own: the same template compiles differently under each environment's options.
    """
    from engine.rules import cache as _cache

    if not _cache.enabled():
        return None
    import jinja2
    import jinja2 as _jinja2

    folder = _cache.cache_dir() / f"templates-{_jinja2.__version__}" / fmt
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return jinja2.FileSystemBytecodeCache(str(folder))


@cache
def environment(fmt: Format) -> jinja2.Environment:
    """Returns the environment for one output format (built once per process).

    :raises ValueError: for an unknown format.
    """
    import jinja2

    if fmt not in _ENVIRONMENTS:
        raise ValueError(f"unknown format {fmt!r} (one of {', '.join(_ENVIRONMENTS)})")
    options: dict[str, Any] = {}
    if fmt == "md":
        # Markdown escapes like HTML does, through jinja2's autoescape: a value printed is
        # escaped as Markdown text and marked safe, so macro output (already Markdown) is not
        # escaped again.
        options["finalize"] = _md_finalize
    elif fmt == "svg":
        options["finalize"] = _svg_finalize
    elif fmt == "text":
        options["finalize"] = _text_finalize
    elif fmt == "ansi":
        options["finalize"] = _ansi_finalize
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(templates_dir()),
        bytecode_cache=_bytecode_cache(fmt),
        undefined=jinja2.StrictUndefined,
        autoescape=fmt in ("html", "md", "svg"),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,
        extensions=["jinja2.ext.do"],
        **options,
    )
    filters = _common_filters()
    # One card filter per format: the notation in text (coloured for a colour terminal),
    # symbols in Markdown, coloured in HTML.
    card_filters: dict[str, Callable[..., Any]] = {
        "text": _card_text,
        "md": _card_unicode,
        "html": _card_html,
        "svg": str,
        "ansi": _card_ansi,
    }
    filters["card"] = card_filters[fmt]
    env.filters.update(filters)
    env.globals["format"] = fmt
    return env


def render(name: str, fmt: Format, /, **context: Any) -> str:
    """Renders template ``name`` (e.g. ``"show.txt.j2"``) in ``fmt`` with ``context``.

    :raises jinja2.TemplateError: if the template is missing or broken (a bug, not bad input).
    """
    text = environment(fmt).get_template(name).render(**context)
    if fmt == "md":
        # jinja2 escapes a plain string joined to safe text as HTML; Markdown says the same
        # with backslashes, which read better in the file.
        for entity, plain in _MD_ENTITIES:
            text = text.replace(entity, plain)
    return text


_MD_ENTITIES = (
    ("&#39;", "'"),
    ("&#34;", '"'),
    ("&lt;", "\\<"),
    ("&gt;", "\\>"),
    ("&amp;", "&"),
)


def _inputs_hash(parts: Iterable[bytes]) -> str:
    """The key of a rendered text: every file the package ships (its modules and every
    template, nested ones included: :func:`engine.rules.cache.package_hash`, found rather than
    listed, hashed once per process) and the text's own inputs (the rule files' bytes)."""
    import hashlib

    from engine.rules import cache as _cache

    digest = hashlib.sha256(b"render-cache 2\0" + _cache.package_hash().encode() + b"\0")
    for part in parts:
        digest.update(part + b"\0")
    return digest.hexdigest()


def render_cached(name: str, key: Iterable[bytes], context: Callable[[], dict[str, Any]]) -> str:
    """Renders a text template, or returns the text rendered before from the same inputs.

    ``key`` is the bytes the output depends on besides the package's own files (every module
    and template); ``context`` builds the template's context on a miss.
    A hit needs neither jinja2 nor the view, so ``ombre show`` costs no more than it did when it
    printed from f-strings. The texts live in the workbench's cache folder (``engine.rules.cache``;
    ``OMBRE_NO_CACHE=1`` turns it off); any failure to read or write it is a miss.
    """
    from engine.rules import cache as _cache

    if not _cache.enabled():
        return render(name, "text", **context())
    try:
        target = _cache.cache_dir() / "rendered" / f"{_inputs_hash(key)[:40]}.txt"
        return target.read_text(encoding="utf-8")
    except OSError:
        pass
    text = render(name, "text", **context())
    try:
        import os
        import tempfile

        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        os.replace(tmp, target)
    except OSError:
        pass
    return text
