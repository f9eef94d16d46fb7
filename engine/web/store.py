"""Where the browser's games and evenings are kept: records in a folder the user can see.

``FOLDER/tables/ID.yaml`` is the party record of a table (``ombre replay`` reads it) and
``FOLDER/tables/ID.json`` who sits where (which seats are people, which kind of bot, the seed);
``FOLDER/evenings/ID.yaml`` is a scorekeeper's evening (deals without card play) and
``FOLDER/tournaments/ID.yaml`` a tournament evening (several tables, ``engine.tournament``). Every file is
written whole and durably (:func:`engine.files.write_durably`: temporary file, fsync, rename,
fsync of the folder) after every move, so a reload, a closed browser, a stopped server or a
power cut loses nothing; a write the disk refuses raises, and leaves the old file as it was.
``FOLDER/.lock`` is held by the one server that uses the folder (:meth:`Store.lock`), and by
``ombre score --evening`` on a file of its ``evenings/`` (:func:`engine.files.lock_for`); it is
never followed if a symbolic link (:func:`engine.files.hold_lock`).
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import stat
from pathlib import Path
from typing import IO

from engine.files import FileInUse, NotARegularFile, hold_lock, write_durably

__all__ = ["ID_PATTERN", "FolderInUse", "Store", "default_folder"]


class FolderInUse(OSError):
    """Another server holds the folder's lock."""


ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
"""An id is lower-case letters, digits and dashes: never a path."""


def default_folder() -> Path:
    """Returns ``$OMBRE_HOME`` if set, else ``~/ombre-workbench``."""
    env = os.environ.get("OMBRE_HOME")
    return Path(env).expanduser() if env else Path.home() / "ombre-workbench"


class Store:
    """The folder of saved tables, evenings and tournaments."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.tables = folder / "tables"
        self.evenings = folder / "evenings"
        self.tournaments = folder / "tournaments"

    def ensure(self) -> None:
        """Creates the folders if needed."""
        for folder in self.folders:
            folder.mkdir(parents=True, exist_ok=True)

    @property
    def folders(self) -> tuple[Path, ...]:
        """Returns the folders of the saved files: tables, evenings, tournaments."""
        return (self.tables, self.evenings, self.tournaments)

    def _folder(self, kind: str) -> Path:
        if kind == "table":
            return self.tables
        return self.tournaments if kind == "tournament" else self.evenings

    def new_id(self, prefix: str) -> str:
        """Returns a fresh id, e.g. ``quadrille-3f9a1c``."""
        slug = re.sub(r"[^a-z0-9-]", "-", prefix.lower())[:40].strip("-") or "game"
        while True:
            ident = f"{slug}-{secrets.token_hex(3)}"
            if not any((folder / f"{ident}.yaml").exists() for folder in self.folders):
                return ident

    def path(self, kind: str, ident: str, suffix: str) -> Path:
        """Returns the file of a table, evening or tournament (``kind``: ``table``,
        ``evening``, ``tournament``); refuses an id that is not one."""
        if not ID_PATTERN.match(ident):
            raise KeyError(ident)
        return self._folder(kind) / f"{ident}{suffix}"

    @staticmethod
    def write(path: Path, text: str) -> None:
        """Writes a file whole and durably; raises :class:`OSError` if the disk refuses."""
        path.parent.mkdir(parents=True, exist_ok=True)
        write_durably(path, text)

    def lock(self) -> IO[str]:
        """Takes the folder for this server: ``FOLDER/.lock``, held until the process ends.

        Two servers on one folder would each keep their own copy of a table or an evening
        and overwrite each other's saves; the second is refused instead.

        :raises FolderInUse: if another server holds it (its process id in the message).
        """
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / ".lock"
        try:
            fd = hold_lock(path)  # O_NOFOLLOW: a symbolic link there is refused
        except FileInUse as exc:
            raise FolderInUse(
                f"{self.folder} is used by another ombre serve or ombre score (process "
                f"{exc.holder}): stop it, or give this one another --folder"
            ) from None
        except NotARegularFile as exc:
            raise FolderInUse(str(exc)) from None
        self.clean_stray()
        return os.fdopen(fd, "r+", encoding="utf-8")

    def clean_stray(self) -> list[Path]:
        """Removes the temporary files a save killed mid-write left (``.ID.yaml.XXXX.tmp``);
        called with the folder's lock held, so no writer of ours is under way. Returns them."""
        removed = []
        for folder in self.folders:
            if not folder.is_dir():
                continue
            for stray in folder.glob(".*.tmp"):
                if stat.S_ISREG(stray.lstat().st_mode):
                    with contextlib.suppress(FileNotFoundError):
                        stray.unlink()
                        removed.append(stray)
        return removed

    def listing(self, kind: str) -> list[tuple[str, float]]:
        """Returns (id, modified time) of the saved tables, evenings or tournaments, newest
        first."""
        folder = self._folder(kind)
        if not folder.is_dir():
            return []
        out = []
        for p in folder.glob("*.yaml"):
            if not ID_PATTERN.match(p.stem) or p.name.startswith("."):
                continue
            try:
                info = p.lstat()  # a link (dangling or not) is not one of ours: left out
            except FileNotFoundError:
                continue
            if stat.S_ISREG(info.st_mode):
                out.append((p.stem, info.st_mtime))
        return sorted(out, key=lambda t: -t[1])
