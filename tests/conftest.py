"""Test-session settings: nothing is written outside a temporary folder.

The workbench's caches (validated rule files, compiled templates, rendered texts) would
otherwise live in the user's ``~/.cache/ombre-workbench``. For the whole session (the doctests
of ``engine/`` included, and every command run in a subprocess, which inherits the environment)
``OMBRE_CACHE_DIR``, ``XDG_CACHE_HOME`` and ``HOME`` point into a fresh temporary folder,
removed at the end. Under pytest-xdist the workers share the controller's folder.
"""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

_SAVED: dict[str, str | None] = {}
_ROOT: list[str] = []
_NAMES = ("HOME", "XDG_CACHE_HOME", "OMBRE_CACHE_DIR", "OMBRE_NO_CACHE")
_SHARED = "OMBRE_TESTS_HOME"
"""The run's folder, handed to pytest-xdist's workers (started after this hook, with its
environment), so that they share one cache: a rule file validated, or a variant measured for
the documents, by one worker is read by the others (the cache is keyed by content and written
atomically, so sharing it changes no answer)."""


def pytest_configure(config: pytest.Config) -> None:
    for name in _NAMES:
        _SAVED[name] = os.environ.get(name)
    shared = os.environ.get(_SHARED)
    if shared and os.environ.get("PYTEST_XDIST_WORKER") and os.path.isdir(shared):
        root = shared  # a worker of this run: the controller made the folder and removes it
    else:
        root = tempfile.mkdtemp(prefix="ombre-tests-home-")
        _ROOT.append(root)
        _SAVED.setdefault(_SHARED, os.environ.get(_SHARED))
        os.environ[_SHARED] = root
    os.environ["HOME"] = root
    os.environ["XDG_CACHE_HOME"] = os.path.join(root, ".cache")
    os.environ["OMBRE_CACHE_DIR"] = os.path.join(root, ".cache", "ombre-workbench")
    os.environ.pop("OMBRE_NO_CACHE", None)
    try:  # hypothesis's own files (.hypothesis/) go there too, not into the checkout
        from hypothesis.configuration import set_hypothesis_home_dir

        set_hypothesis_home_dir(os.path.join(root, ".hypothesis"))
    except ImportError:  # pragma: no cover - hypothesis is a test dependency
        pass


def pytest_unconfigure(config: pytest.Config) -> None:
    for name, value in _SAVED.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    for root in _ROOT:
        shutil.rmtree(root, ignore_errors=True)
    _ROOT.clear()


# Hypothesis keeps no example database (it would write .hypothesis/ into the checkout) and sets
# no deadline (the machine is shared; speed is for the benchmarks to measure).
try:
    from hypothesis import settings

    settings.register_profile("ombre", database=None, deadline=None)
    settings.load_profile("ombre")
except ImportError:  # pragma: no cover - hypothesis is a test dependency
    pass
