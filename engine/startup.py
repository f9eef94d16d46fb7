"""The ``ombre`` command's start: a help screen, or a validation, asked for again is printed
from the cache.

Building the command line (typer, click, rich and its Markdown renderer) costs several times
the interpreter's own start, and ``ombre --help`` or ``ombre COMMAND --help`` needs nothing
else. So the first time a help screen is asked for, it is rendered as always and its bytes and
exit status are kept in the workbench's cache (:mod:`engine.rules.cache`); the next identical
request prints them without importing typer. "Identical" is every input the screen can depend
on, checked on each run:

* the arguments and the working folder;
* the environment (colour, width and terminal variables among it), whether each standard
  stream is a terminal, and the terminal's size;
* every file the package ships (found by walking it, as the cache keys do: name, size and
  modification time), and the installed typer, click and rich.

``ombre validate [--json] [PATH …]`` is kept the same way when it finds every file valid
(exit status 0, warnings and all; a report of problems is always made afresh), under the same
key and with what the file system answered while it worked (:mod:`engine.rules.inputs`: the
bytes of every file read -- the files named, their ``extends`` chains, every file of
``rules/`` and ``variants/`` that the name checks read --, the folders' listings, where each
path leads): the next identical request prints it again, without importing typer, the YAML
reader or the schema, only if every answer still holds.

``OMBRE_NO_CACHE=1`` turns it off, as it does every cache; a shell-completion request never
uses it. Anything that goes wrong reading or writing the cache is a miss, never an error.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any, TextIO

__all__ = ["help_key", "main", "replay_cached", "run", "validate_key"]

FORMAT = 1
_HELP = ("--help", "-h")
# Values that change between two runs of the same command in one shell and that the help
# cannot depend on.
_VOLATILE = frozenset({"_", "OLDPWD", "SHLVL", "PYTHONDONTWRITEBYTECODE"})
_LIBRARIES = ("typer", "click", "rich", "shellingham")
# What a validation's report also depends on: the reader, the schema's checker, the templates.
_VALIDATE_LIBRARIES = (
    *_LIBRARIES,
    "yaml",
    "jsonschema",
    "jsonschema_specifications",
    "referencing",
    "rpds",
    "jinja2",
    "markupsafe",
)
_DISTRIBUTIONS = {
    "yaml": "PyYAML",
    "rpds": "rpds_py",
    "jinja2": "Jinja2",
    "markupsafe": "MarkupSafe",
}


def help_key(argv: Sequence[str]) -> str | None:
    """Returns the cache key of a help request (``[]``, ``[--help]``, ``[CMD, --help]``), or
    None when ``argv`` is another command or the cache is off."""
    words = list(argv)
    if words:
        if words[-1] not in _HELP or len(words) > 3:
            return None
        if any(w.startswith("-") or not w.isprintable() for w in words[:-1]):
            return None
    return _key("help", words)


def validate_key(argv: Sequence[str]) -> str | None:
    """Returns the cache key of ``validate [--json] [PATH …]`` (paths that are not options),
    or None when ``argv`` is another command (any other option among it) or the cache is
    off."""
    words = list(argv)
    if not words or words[0] != "validate":
        return None
    if any((w.startswith("-") and w != "--json") or not w.isprintable() for w in words[1:]):
        return None
    return _key("validate", words)


def _key(kind: str, words: Sequence[str]) -> str | None:
    from engine.rules import cache

    if not cache.enabled() or any(k.startswith(("_OMBRE", "_TYPER")) for k in os.environ):
        return None  # shell completion, or no cache
    try:  # BLAKE2 without loading OpenSSL (hashlib's import of it costs a start-up's worth)
        from _blake2 import blake2b
    except ImportError:  # pragma: no cover - an interpreter without the builtin module
        from hashlib import blake2b
    digest = blake2b(f"ombre {kind} {FORMAT}".encode(), digest_size=32)

    def part(*values: object) -> None:
        for value in values:
            digest.update(str(value).encode("utf-8", "surrogateescape") + b"\0")

    part("argv", *words, "cwd", os.getcwd(), sys.executable, sys.version)
    for name, value in sorted(os.environ.items()):
        if name not in _VOLATILE:
            part(name, value)
    for fd in (0, 1, 2):
        try:
            part(fd, os.isatty(fd), tuple(os.get_terminal_size(fd)))
        except OSError:
            part(fd, "no terminal")
    for folder in cache.package_folders():
        part("folder", folder)
        for name, path in cache._walk(str(folder), ""):
            try:
                stat = os.stat(path)
            except OSError:
                continue
            part(name, stat.st_size, stat.st_mtime_ns)
    from importlib.util import find_spec

    for library in _LIBRARIES if kind == "help" else _VALIDATE_LIBRARIES:
        spec = find_spec(library)
        origin = spec.origin if spec is not None else None
        where = Path(origin).parent if origin else None
        if where is not None:
            # An upgrade rewrites the package's files and its dist-info: both are seen here.
            dist = _DISTRIBUTIONS.get(library, library)
            found = {*where.parent.glob(f"{dist}-*"), *where.parent.glob(f"{dist.lower()}-*")}
            part(library, where, *(_stat(p) for p in sorted(found)))
            part(_stat(Path(origin or "")))
    return digest.hexdigest()


def _stat(path: Path) -> tuple[str, int, int]:
    try:
        s = path.stat()
    except OSError:
        return (path.name, -1, -1)
    return (path.name, s.st_size, s.st_mtime_ns)


def _target(key: str, kind: str = "help") -> Path:
    from engine.rules import cache

    return cache.cache_dir() / kind / f"{key[:40]}.bin"


def _replay(key: str, kind: str = "help") -> int | None:
    """Prints the kept screen and returns its exit status (None: nothing kept, or a kept
    validation whose inputs no longer hold)."""
    try:
        data = _target(key, kind).read_bytes()
    except OSError:
        return None
    head, _, rest = data.partition(b"\n")
    try:
        status, out_len, *more = (int(x) for x in head.split(b" "))
    except ValueError:
        return None
    if more:  # a validation: the inputs it depends on come first, as one JSON line
        import json

        from engine.rules.inputs import still_holds

        noted, rest = rest[: more[0]], rest[more[0] :]
        try:
            inputs = [tuple(item) for item in json.loads(noted)]
        except (ValueError, TypeError):
            return None
        if not all(len(i) == 3 and all(isinstance(x, str) for x in i) for i in inputs):
            return None
        if not still_holds(inputs):
            return None
    out, err = rest[:out_len], rest[out_len:]
    for stream, chunk in ((sys.stdout, out), (sys.stderr, err)):
        if chunk:
            stream.flush()
            stream.buffer.write(chunk)
            stream.buffer.flush()
    return status


class _Tee:
    """A standard stream that keeps a copy of what is written to it (text or bytes)."""

    def __init__(self, stream: TextIO, kept: list[bytes]) -> None:
        self._stream = stream
        self._kept = kept
        self.buffer = _BufferTee(stream.buffer, kept, stream)

    def write(self, text: str) -> int:
        written = self._stream.write(text)  # it raises where the stream cannot encode it
        # The bytes the stream wrote: its encoding and its error handler (surrogateescape for
        # a file name's undecodable bytes under the C locale).
        errors = getattr(self._stream, "errors", None) or "replace"
        self._kept.append(text.encode(self._stream.encoding or "utf-8", errors))
        return written

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class _BufferTee:
    def __init__(self, buffer: Any, kept: list[bytes], text: TextIO) -> None:
        self._buffer = buffer
        self._kept = kept
        self._text = text

    def write(self, data: bytes) -> int:
        self._kept.append(bytes(data))
        return int(self._buffer.write(data))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._buffer, name)


def run(real_main: Callable[[], None], argv: Sequence[str] | None = None) -> None:
    """Runs ``real_main`` (the command line), from the cache when it is a help screen or a
    validation seen before; otherwise keeps what a help screen printed and its status, or what
    a validation that found every file valid printed, for the next time."""
    words = sys.argv[1:] if argv is None else argv
    kind = "help"
    key = help_key(words)
    if key is None:
        kind = "validate"
        key = validate_key(words)
    if key is None:
        real_main()
        return
    status = _replay(key, kind)
    if status is not None:
        raise SystemExit(status)
    out: list[bytes] = []
    err: list[bytes] = []
    stdout, stderr = sys.stdout, sys.stderr
    sys.stdout = _Tee(stdout, out)
    sys.stderr = _Tee(stderr, err)
    code: object = "unfinished"
    noted: list[tuple[str, str, str]] | None = None
    try:
        if kind == "validate":
            from engine.rules.loader import noting_inputs

            with noting_inputs() as noted:
                _finish(real_main)
        else:
            _finish(real_main)
        code = 0
    except SystemExit as done:
        code = 0 if done.code is None else done.code
        raise
    finally:
        sys.stdout, sys.stderr = stdout, stderr
        if kind == "help" and isinstance(code, int):  # an error or an interruption: never
            _keep(key, code, b"".join(out), b"".join(err))
        elif code == 0 and noted:  # a validation: only one that found every file valid
            _keep(key, 0, b"".join(out), b"".join(err), noted, kind)


def _finish(real_main: Callable[[], None]) -> None:
    real_main()


def replay_cached(argv: Sequence[str] | None = None) -> None:
    """Prints a help screen seen before and exits with its status; returns when there is none
    (``python -m engine.cli`` calls this before it imports typer)."""
    key = help_key(sys.argv[1:] if argv is None else argv)
    status = _replay(key) if key is not None else None
    if status is not None:
        raise SystemExit(status)


def _keep(
    key: str,
    status: int,
    out: bytes,
    err: bytes,
    inputs: Sequence[tuple[str, str, str]] | None = None,
    kind: str = "help",
) -> None:
    try:
        import tempfile

        if inputs is not None:
            if any(q == "unreadable" for q, _, _ in inputs):
                return  # a file that could not be read: never kept
            import json

            noted = json.dumps([list(i) for i in inputs], ensure_ascii=False).encode()
            head = b"%d %d %d\n" % (status, len(out), len(noted)) + noted
        else:
            head = b"%d %d\n" % (status, len(out))
        target = _target(key, kind)
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(head + out + err)
            os.replace(tmp, target)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        return


def main() -> None:
    """Runs the ``ombre`` command (the console-script entry point)."""

    def real() -> None:
        from engine.cli import main as cli_main

        cli_main()

    run(real)
