"""The ``ombre`` command's start: a help screen asked for again is printed from the cache.

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

__all__ = ["help_key", "main", "replay_cached", "run"]

FORMAT = 1
_HELP = ("--help", "-h")
# Values that change between two runs of the same command in one shell and that the help
# cannot depend on.
_VOLATILE = frozenset({"_", "OLDPWD", "SHLVL", "PYTHONDONTWRITEBYTECODE"})
_LIBRARIES = ("typer", "click", "rich", "shellingham")


def help_key(argv: Sequence[str]) -> str | None:
    """Returns the cache key of a help request (``[]``, ``[--help]``, ``[CMD, --help]``), or
    None when ``argv`` is another command or the cache is off."""
    from engine.rules import cache

    if not cache.enabled() or any(k.startswith(("_OMBRE", "_TYPER")) for k in os.environ):
        return None  # shell completion, or no cache
    words = list(argv)
    if words:
        if words[-1] not in _HELP or len(words) > 3:
            return None
        if any(w.startswith("-") or not w.isprintable() for w in words[:-1]):
            return None
    try:  # BLAKE2 without loading OpenSSL (hashlib's import of it costs a start-up's worth)
        from _blake2 import blake2b
    except ImportError:  # pragma: no cover - an interpreter without the builtin module
        from hashlib import blake2b
    digest = blake2b(f"ombre help {FORMAT}".encode(), digest_size=32)

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

    for library in _LIBRARIES:
        spec = find_spec(library)
        origin = spec.origin if spec is not None else None
        where = Path(origin).parent if origin else None
        if where is not None:
            # An upgrade rewrites the package's files and its dist-info: both are seen here.
            part(library, where, *(_stat(p) for p in sorted(where.parent.glob(f"{library}-*"))))
            part(_stat(Path(origin or "")))
    return digest.hexdigest()


def _stat(path: Path) -> tuple[str, int, int]:
    try:
        s = path.stat()
    except OSError:
        return (path.name, -1, -1)
    return (path.name, s.st_size, s.st_mtime_ns)


def _target(key: str) -> Path:
    from engine.rules import cache

    return cache.cache_dir() / "help" / f"{key[:40]}.bin"


def _replay(key: str) -> int | None:
    """Prints the kept screen and returns its exit status (None: nothing kept)."""
    try:
        data = _target(key).read_bytes()
    except OSError:
        return None
    head, _, rest = data.partition(b"\n")
    try:
        status, out_len = (int(x) for x in head.split(b" "))
    except ValueError:
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
        self._kept.append(text.encode(self._stream.encoding or "utf-8", "replace"))
        return self._stream.write(text)

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
    """Runs ``real_main`` (the command line), from the cache when it is a help screen seen
    before; otherwise keeps what a help screen printed and its status for the next time."""
    key = help_key(sys.argv[1:] if argv is None else argv)
    if key is None:
        real_main()
        return
    status = _replay(key)
    if status is not None:
        raise SystemExit(status)
    out: list[bytes] = []
    err: list[bytes] = []
    stdout, stderr = sys.stdout, sys.stderr
    sys.stdout = _Tee(stdout, out)
    sys.stderr = _Tee(stderr, err)
    code: object = "unfinished"
    try:
        real_main()
        code = 0
    except SystemExit as done:
        code = 0 if done.code is None else done.code
        raise
    finally:
        sys.stdout, sys.stderr = stdout, stderr
        if isinstance(code, int):  # an error or an interruption is never kept
            _keep(key, code, b"".join(out), b"".join(err))


def replay_cached(argv: Sequence[str] | None = None) -> None:
    """Prints a help screen seen before and exits with its status; returns when there is none
    (``python -m engine.cli`` calls this before it imports typer)."""
    key = help_key(sys.argv[1:] if argv is None else argv)
    status = _replay(key) if key is not None else None
    if status is not None:
        raise SystemExit(status)


def _keep(key: str, status: int, out: bytes, err: bytes) -> None:
    try:
        import tempfile

        target = _target(key)
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(b"%d %d\n" % (status, len(out)) + out + err)
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
