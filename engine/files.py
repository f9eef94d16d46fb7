"""Writing the project's own files so that a save either lands whole or changes nothing.

Every record, evening and table the workbench writes goes through :func:`write_durably`: the
text goes to a temporary file beside the target, which is flushed to the disk, renamed over the
target, and the folder flushed too, so that a crash or a power cut leaves the old file or the
new one, never half of one. If any step fails (a full disk, a read-only folder) the temporary
file is removed and the error raised: the caller keeps its state as it was and says so. Only a
regular file (or nothing) is ever replaced: a device, a FIFO or a socket at the path is refused.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

__all__ = ["FileInUse", "NotARegularFile", "hold_lock", "lock_for", "not_regular", "write_durably"]


class NotARegularFile(OSError):
    """The path names something other than a regular file (a device, a FIFO, a socket)."""


class FileInUse(OSError):
    """Another process (a server, a terminal scorekeeper) holds the lock."""

    def __init__(self, message: str, holder: str) -> None:
        super().__init__(message)
        self.holder = holder
        """The holder's process id as its lock file says it (``unknown`` if it says none)."""


def hold_lock(path: Path) -> int:
    """Takes the lock file ``path`` for this process and returns its descriptor (held until
    it is closed, or the process ends); its content becomes this process's id.

    The lock file is opened with ``O_NOFOLLOW`` and created with mode 0600 if missing: a
    symbolic link planted at ``path`` is refused, never followed (its target is neither
    truncated nor written), and so is anything but a regular file.

    :raises FileInUse: if another process holds it (its process id in the message);
    :raises NotARegularFile: if ``path`` is a symbolic link, a FIFO, a device ...
    """
    import fcntl

    _check_regular(path)
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags, 0o600)
    except OSError as exc:
        if os.path.islink(path):
            raise NotARegularFile(f"{path} is a symbolic link: the lock is not taken") from None
        raise exc
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotARegularFile(f"{path} is not a regular file: the lock is not taken")
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.pread(fd, 20, 0).decode("utf-8", "replace").strip() or "unknown"
            raise FileInUse(f"{path} is held by process {holder}", holder) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    except BaseException:
        os.close(fd)
        raise
    return fd


def lock_for(file: Path) -> Path:
    """Returns the lock every writer of ``file`` (an evening, a table, a tournament) takes: the
    server folder's ``.lock`` for a file in its ``evenings/``, ``tables/`` or ``tournaments/``,
    else ``.NAME.lock`` beside the file, so a server and a terminal (or two terminals) never
    write it at once."""
    folder = file.resolve().parent if file.parent.exists() else file.parent
    if folder.name in ("evenings", "tables", "tournaments"):
        return folder.parent / ".lock"
    return folder / f".{file.name}.lock"


def write_durably(path: Path, text: str) -> None:
    """Writes ``text`` to ``path`` whole: temporary file, fsync, rename, fsync of the folder.

    :raises NotARegularFile: if ``path`` exists and is not a regular file (nothing is written);
    :raises OSError: if the disk refuses (no temporary file is left behind, ``path`` unchanged).
    """
    parent = path.parent if str(path.parent) else Path(".")
    _check_regular(path)
    data = text.encode("utf-8")
    handle, temp = tempfile.mkstemp(dir=parent, prefix="." + path.name + ".", suffix=".tmp")
    try:
        try:
            view = memoryview(data)
            while view:
                written = os.write(handle, view)
                view = view[written:]
            os.fsync(handle)
        finally:
            os.close(handle)
        _check_regular(path)  # again: something may have been put there meanwhile
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
        raise
    _fsync_folder(parent)


def _check_regular(path: Path) -> None:
    kind = not_regular(path)
    if kind is not None:
        raise NotARegularFile(f"{path} is {kind}, not a regular file: it is not replaced")


def not_regular(path: Path, *, folder_ok: bool = False) -> str | None:
    """Returns what ``path`` is when it is there and not a regular file ("a symbolic link",
    "a FIFO", "a device" ...), never following a link; None for a regular file or nothing."""
    try:
        mode = os.lstat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return None
    if folder_ok and stat.S_ISDIR(mode):
        return None
    if not stat.S_ISREG(mode):
        return (
            "a symbolic link"
            if stat.S_ISLNK(mode)
            else "a directory"
            if stat.S_ISDIR(mode)
            else "a FIFO"
            if stat.S_ISFIFO(mode)
            else "a device"
            if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
            else "a socket"
            if stat.S_ISSOCK(mode)
            else "not a regular file"
        )
    return None


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:  # pragma: no cover - a platform whose folders cannot be opened
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - a file system that cannot sync folders
        pass
    finally:
        os.close(fd)
