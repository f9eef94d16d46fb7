"""Builds the compiled referee (``make fast``), or removes it (``make fast-clean``).

The referee (the modules of ``engine/referee`` but ``__init__.py`` and ``party.py``),
``engine/cards.py`` and ``engine/actions.py`` are compiled with mypyc (which comes with mypy)
from the same ``.py`` files: there is no second copy of any rule. The build is in place: each
module's extension (``deal.cpython-311-….so``) lands beside its ``.py`` file, with the shared
library they all load (``engine/_referee__mypyc.cpython-311-….so``), and Python then imports
the extension before the source (an editable install too: it reads the checkout). The C
sources, the objects and mypy's cache stay in ``build/fast``. Git ignores both.
``engine.referee.compiled()`` and ``ombre --version`` tell which referee is in use.

    python tools/build_fast.py [--root DIR]           build (a minute or two)
    python tools/build_fast.py --clean [--root DIR]   remove the extensions: pure Python again

``--root`` builds or cleans another checkout (the tests build a copy in a temporary folder).
After a change to any compiled module, build again (or clean): the extensions are what Python
runs, not the edited source. Needs a C compiler and Python's headers.
"""

from __future__ import annotations

import argparse
import importlib.machinery
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# What is compiled, relative to the checkout: the referee and what it stands on that is
# pure computation (the cards and the actions). The rule model, the loader and everything
# above the referee stay interpreted, and so do three modules of the package: its
# ``__init__.py`` (it only gathers the names; compiled, its ``__path__`` would name the shared
# library's folder), ``party.py`` (a party's standing, once a deal: its ``Standing`` is the
# base of the scoresheet's interpreted ``Evening``, and no interpreted class may inherit from
# a compiled one) and ``summary.py`` (a deal written down, once a deal: its ``DealSummary``
# reads a suit or a card given as text, which a compiled class's typed fields refuse).
PACKAGE = "engine/referee"
INTERPRETED = ("__init__.py", "party.py", "summary.py")
MODULES = ("engine/cards.py", "engine/actions.py")

# Where the C sources, the objects and mypy's cache go (relative to the checkout).
BUILD = "build/fast"
# The shared library's module (mypyc's group name): inside the package, so that an editable
# install, which puts only ``engine`` on the path, finds it.
GROUP = "engine._referee"

_SETUP = """\
import sys
from setuptools import setup
from mypyc.build import mypycify

setup(
    name="ombre-workbench-fast",
    ext_modules=mypycify(
        [*sys.argv.pop(1).split(","), "--cache-dir", {build!r} + "/mypy-cache"],
        opt_level="3",
        group_name={group!r},
        target_dir={build!r},
    ),
)
"""


def sources(root: Path) -> list[str]:
    """Returns the files compiled, relative to ``root``."""
    package = sorted(p for p in (root / PACKAGE).glob("*.py") if p.name not in INTERPRETED)
    return [*(p.relative_to(root).as_posix() for p in package), *MODULES]


def extensions(root: Path) -> list[Path]:
    """Returns the compiled extensions found in ``root`` (none: the pure-Python referee)."""
    found: list[Path] = []
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        found += (root / "engine").glob(f"{GROUP.rpartition('.')[2]}__mypyc{suffix}")
        found += (root / PACKAGE).glob(f"*{suffix}")
        for module in MODULES:
            found += (root / module).parent.glob(f"{Path(module).stem}{suffix}")
    return sorted(set(found))


def clean(root: Path) -> list[Path]:
    """Removes the compiled extensions from ``root``; returns what was removed."""
    removed = extensions(root)
    for path in removed:
        path.unlink()
    return removed


def build(root: Path) -> int:
    """Compiles :func:`sources` in place in ``root``; returns the build's exit status."""
    clean(root)
    (root / BUILD).mkdir(parents=True, exist_ok=True)
    path = os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")]))
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            _SETUP.format(group=GROUP, build=BUILD),
            ",".join(sources(root)),
            "build_ext",
            "--inplace",
            f"--build-temp={BUILD}/temp",
            f"--build-lib={BUILD}/lib",
        ],
        cwd=root,
        env={**os.environ, "PYTHONPATH": path},
    )
    return done.returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout (this one)")
    parser.add_argument("--clean", action="store_true", help="remove the compiled extensions")
    args = parser.parse_args(argv)
    root: Path = args.root.resolve()
    if args.clean:
        removed = clean(root)
        shutil.rmtree(root / BUILD, ignore_errors=True)
        print(f"removed {len(removed)} compiled modules: the referee is pure Python")
        return 0
    status = build(root)
    if status == 0:
        print(f"built {len(extensions(root))} compiled modules in {root}")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
