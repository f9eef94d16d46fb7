"""Test-wide setup: the workbench's caches (rule files, compiled templates, rendered texts) go to
a temporary folder for the session, so that tests never write outside one."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

_FOLDER: list[str] = []


def pytest_configure(config: pytest.Config) -> None:
    if "OMBRE_CACHE_DIR" not in os.environ:
        folder = tempfile.mkdtemp(prefix="ombre-cache-")
        _FOLDER.append(folder)
        os.environ["OMBRE_CACHE_DIR"] = folder


def pytest_unconfigure(config: pytest.Config) -> None:
    for folder in _FOLDER:
        shutil.rmtree(folder, ignore_errors=True)
        os.environ.pop("OMBRE_CACHE_DIR", None)
